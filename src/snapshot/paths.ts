/** Where things live by default, relative to the repository root (the process's working directory). */
import path from 'node:path';

/** The snapshot `npm start` serves and `npm run build` writes when given no arguments (gitignored). */
export const DEFAULT_SNAPSHOT_DIR = path.resolve('snapshot');

/** The committed dataset. */
export const DEFAULT_INPUT_GLOB = 'data/*.json';
