/** Where things live by default, relative to the repository root (the process's working directory). */
import { access } from 'node:fs/promises';
import path from 'node:path';

/** The snapshot `npm start` serves and `npm run build` writes when given no arguments (gitignored). */
export const DEFAULT_SNAPSHOT_DIR = path.resolve('snapshot');

/** The committed registry data `npm run import` writes and `npm run build` reads by default. */
export const DEFAULT_REGISTRY_DATA = 'data/registry/servers.json';

/** The committed dataset. */
export const DEFAULT_INPUT_GLOB = 'data/*.json';

/** The committed registry data when the checkout has it (`data/registry/servers.json`), else undefined. */
export async function defaultRegistryData(): Promise<string | undefined> {
  try {
    await access(path.resolve(DEFAULT_REGISTRY_DATA));
    return DEFAULT_REGISTRY_DATA;
  } catch {
    return undefined;
  }
}
