#!/usr/bin/env node
// `npx mcp-trust-score`: the MCP wrapper (scripts/mcp.ts) run through tsx's loader, which is a runtime
// dependency, so the TypeScript entry needs no build step. The path is resolved from this file, not from
// the working directory, because an MCP client may start the process from anywhere.
import { tsImport } from 'tsx/esm/api';

await tsImport('../scripts/mcp.ts', import.meta.url);
