/**
 * `npm start` as compiled (`node dist/serve.mjs`): runs scripts/serve.ts, which scripts/compile.mjs bundles
 * as one CommonJS file whose name it writes here, through V8's code cache (scripts/lib/code-cache.ts says why).
 * `npm run start:dev` runs scripts/serve.ts itself.
 */
import { fileURLToPath } from 'node:url';
import { runWithCodeCache } from './lib/code-cache.js';
import { runMain } from './lib/main.js';

/** The bundle's file name in dist/, set by scripts/compile.mjs. */
declare const SERVE_BUNDLE: string;

runMain(() => {
  runWithCodeCache(fileURLToPath(new URL(`./${SERVE_BUNDLE}`, import.meta.url)));
});
