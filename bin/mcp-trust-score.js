#!/usr/bin/env node
// `npx mcp-trust-score`: the MCP wrapper; `npx mcp-trust-score check ...`: the CI check. Each runs its
// compiled entry in dist/ (written by `npm ci` through `prepare`, or `npm run compile`), so no TypeScript is
// compiled at run time; an install without dev dependencies has no dist/ and runs the TypeScript entry
// through tsx (a runtime dependency) instead. Paths are resolved from this file, not from the working
// directory, because an MCP client or a CI job may start the process from anywhere.
import { existsSync } from 'node:fs';

const name = process.argv[2] === 'check' ? 'cli' : 'mcp';
const compiled = new URL(`../dist/${name}.mjs`, import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { tsImport } = await import('tsx/esm/api');
  await tsImport(`../scripts/${name}.ts`, import.meta.url);
}
