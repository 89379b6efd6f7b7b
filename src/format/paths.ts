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
