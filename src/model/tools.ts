/**
 * The tools a remote server listed when probed without credentials, pinned per server: the committed
 * `data/evidence/tools.json`, written by the nightly prober and published in the snapshot as an artifact of
 * its own. Each server's tools carry one canonical hash, so that a change of definitions (a "rug pull") is a
 * change of one string, and what a publisher wrote is kept as data, bounded, never as instructions.
 */
import { createHash } from 'node:crypto';
import * as z from 'zod';
import { isoUtc, ServerNameSchema } from './fields.js';

/** Bounds on what one server's tools may hold; a remote that answers more is cut to these and says so. */
export const MAX_TOOLS_PER_SERVER = 500;
export const MAX_TOOL_NAME = 128;
export const MAX_TOOL_DESCRIPTION = 4_000;
/** The input schema of one tool, serialised: larger ones are replaced by `null` and `truncated` is set. */
export const MAX_INPUT_SCHEMA_BYTES = 16_000;

/** The annotations the MCP specification defines for a tool (hints, stated by the publisher). */
export const ToolAnnotationsSchema = z.strictObject({
  title: z.string().max(MAX_TOOL_NAME).optional(),
  read_only: z.boolean().optional(),
  destructive: z.boolean().optional(),
  idempotent: z.boolean().optional(),
  open_world: z.boolean().optional(),
});
export type ToolAnnotations = z.infer<typeof ToolAnnotationsSchema>;

export const PinnedToolSchema = z.strictObject({
  name: z.string().min(1).max(MAX_TOOL_NAME),
  description: z.string().max(MAX_TOOL_DESCRIPTION).nullable(),
  /** The tool's JSON Schema as the server sent it; null when it was over MAX_INPUT_SCHEMA_BYTES. */
  input_schema: z.record(z.string(), z.unknown()).nullable(),
  annotations: ToolAnnotationsSchema,
});
export type PinnedTool = z.infer<typeof PinnedToolSchema>;

export const TOOLS_HASH_PATTERN = /^sha256:[0-9a-f]{64}$/;

export const ServerToolsSchema = z.strictObject({
  name: ServerNameSchema,
  /** The record's version when the tools were listed: TOOLS_CHANGED is a hash change at the same version. */
  version: z.string().min(1).max(255),
  probed_at: isoUtc(),
  hash: z.string().regex(TOOLS_HASH_PATTERN),
  /** The server listed more than the bounds allow (tools, description or schema size): what is kept is cut. */
  truncated: z.boolean(),
  tools: z.array(PinnedToolSchema).max(MAX_TOOLS_PER_SERVER),
});
export type ServerTools = z.infer<typeof ServerToolsSchema>;

export const ToolsFileSchema = z.strictObject({
  /** Who probed, as every record's evidence names them. */
  by: z.string().min(1).max(200),
  third_party: z.boolean(),
  servers: z.array(ServerToolsSchema).max(1_000_000),
});
export type ToolsFile = z.infer<typeof ToolsFileSchema>;

/** JSON with object members in code-point order of their keys, arrays as they are: one text per value. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, member]) => member !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(',')}}`;
}

/**
 * The hash of a server's tool definitions: SHA-256 over the canonical JSON of its tools in name order, so
 * the order a server lists them in and the order of members inside them do not change it.
 */
export function toolsHash(tools: readonly PinnedTool[]): string {
  const ordered = [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return `sha256:${createHash('sha256').update(canonicalJson(ordered)).digest('hex')}`;
}
