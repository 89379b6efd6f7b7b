/** Where things live by default, relative to the repository root (the process's working directory). */
import { access } from 'node:fs/promises';
import path from 'node:path';

/** The snapshot `npm start` serves and `npm run build` writes when given no arguments (gitignored). */
export const DEFAULT_SNAPSHOT_DIR = path.resolve('snapshot');

/** The committed registry data `npm run import` writes and `npm run build` reads by default. */
export const DEFAULT_REGISTRY_DATA = 'data/registry/servers.json';

/** The committed dataset. */
export const DEFAULT_INPUT_GLOB = 'data/*.json';

/** The committed catalog of curated servers `npm run build` joins by default (`src/snapshot-build/catalog-records.ts`). */
export const DEFAULT_CATALOG_DATA = 'data/catalog/servers.json';

/** `file` when the checkout has it, else undefined. */
async function presentFile(file: string): Promise<string | undefined> {
  try {
    await access(path.resolve(file));
    return file;
  } catch {
    return undefined;
  }
}

/** The committed registry data when the checkout has it (`data/registry/servers.json`), else undefined. */
export function defaultRegistryData(): Promise<string | undefined> {
  return presentFile(DEFAULT_REGISTRY_DATA);
}

/** The committed catalog when the checkout has it (`data/catalog/servers.json`), else undefined. */
export function defaultCatalogData(): Promise<string | undefined> {
  return presentFile(DEFAULT_CATALOG_DATA);
}

/** A dataset folder laid out as `data/` is: what `npm run build -- --data <dir>` reads of it. */
export interface DatasetFolder {
  /** `<dir>/*.json`: the records. */
  input: string;
  /** `<dir>/registry/servers.json` when present. */
  registry: string | undefined;
  /** `<dir>/catalog/servers.json` when present. */
  catalog: string | undefined;
  /** `<dir>/evidence`: the evidence mts-2 reads (advisories, packages, probes, tools). */
  evidenceDir: string;
}

/** The files of the dataset folder `dir`, laid out as the committed `data/` is. */
export async function datasetFolder(dir: string): Promise<DatasetFolder> {
  return {
    input: path.join(dir, '*.json'),
    registry: await presentFile(path.join(dir, 'registry', 'servers.json')),
    catalog: await presentFile(path.join(dir, 'catalog', 'servers.json')),
    evidenceDir: path.resolve(dir, 'evidence'),
  };
}
