#!/usr/bin/env node
// `npx mcp-trust-score` (or `mcp-trust-score mcp`): the MCP wrapper on stdio; anything else (`check ...`,
// `--help`, `--version`) goes to the command line. Each runs its compiled entry in dist/ (written by
// `npm ci` through `prepare`, by `npm pack` through `prepack`, or by `npm run compile`): no TypeScript runs
// here. Paths are resolved from this file, not from the working directory, because an MCP client or a CI job
// may start the process from anywhere.
import { existsSync } from 'node:fs';

const args = process.argv.slice(2);
const name = args.length === 0 || (args.length === 1 && args[0] === 'mcp') ? 'mcp' : 'cli';
const compiled = new URL(`../dist/${name}.mjs`, import.meta.url);
if (!existsSync(compiled)) {
  process.stderr.write('mcp-trust-score: dist/ is missing; in a checkout run `npm run compile`, else reinstall\n');
  process.exit(2);
}
await import(compiled.href);
