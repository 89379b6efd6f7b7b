/**
 * Pinned tools as the prober writes them (`data/evidence/tools.json`, `src/model/tools.ts`), for tests of the
 * tools artifact, the tools route and the change kinds: each server's hash is its tools' own.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type PinnedTool, type ServerTools, type ToolsFile, toolsHash } from '../../src/model/tools.js';

/** A tool with a description and a small input schema; `overrides` change any of it. */
export function tool(name: string, overrides: Partial<PinnedTool> = {}): PinnedTool {
  return {
    name,
    description: `Does ${name}.`,
    input_schema: { type: 'object', properties: { query: { type: 'string' } } },
    annotations: { read_only: true },
    ...overrides,
  };
}

/** One server's pinned tools, hashed. */
export function pinned(name: string, tools: PinnedTool[], probedAt = '2026-11-27T03:00:00Z'): ServerTools {
  return { name, version: '1.0.0', probed_at: probedAt, hash: toolsHash(tools), truncated: false, tools };
}

export function toolsFile(servers: ServerTools[], by = 'MCP Trust Score prober', thirdParty = false): ToolsFile {
  return { by, third_party: thirdParty, servers };
}

/** Write `files` (name → JSON value) into the evidence folder `dir`, made if need be. */
export async function writeEvidence(dir: string, files: Record<string, unknown>): Promise<string> {
  await mkdir(dir, { recursive: true });
  for (const [name, value] of Object.entries(files))
    await writeFile(path.join(dir, name), typeof value === 'string' ? value : JSON.stringify(value));
  return dir;
}
