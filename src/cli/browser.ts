/**
 * What the site needs to check a pasted configuration the way the CLI does: the same parsing of the four
 * kinds of file and the same mapping of entries to lookups. `scripts/generated-files.ts` bundles this module
 * into `public/js/config-check.js`, so the browser runs this code, never a copy of it.
 */
export { DEFAULT_CONFIG_FILES, parseConfigFile } from './config-files.js';
export { itemForEntry } from './entries.js';
