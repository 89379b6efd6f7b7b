#!/usr/bin/env node
// `npx mcp-trust-score`: the MCP wrapper (scripts/mcp.ts); `npx mcp-trust-score check ...`: the CI check
// (scripts/cli.ts). Both run through tsx's loader, which is a runtime dependency, so the TypeScript entry
// needs no build step. Paths are resolved from this file, not from the working directory, because an MCP
// client or a CI job may start the process from anywhere.
import { tsImport } from 'tsx/esm/api';

const entry = process.argv[2] === 'check' ? '../scripts/cli.ts' : '../scripts/mcp.ts';
await tsImport(entry, import.meta.url);
