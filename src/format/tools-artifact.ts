/**
 * The snapshot's tools file (`TOOLS_FILE`), both ways: the tools pinned per server (`src/model/tools.ts`) for
 * the servers of the snapshot that have them, in name order, with who probed; and the lookup a server reads
 * it into, by lower-cased name, as Get Server finds a record.
 */
import { type ServerTools, type ToolsFile, ToolsFileSchema } from '../model/tools.js';

/** The pinned tools of a snapshot, by lower-cased server name, with who probed them. */
export interface ToolsIndex {
  by: string;
  third_party: boolean;
  get(name: string): ServerTools | undefined;
  readonly size: number;
}

/** No tools pinned: what a snapshot without a tools file answers. */
export const NO_TOOLS: ToolsIndex = { by: '', third_party: false, get: () => undefined, size: 0 };

/** The artifact's text: `file`'s servers that `keep` (lower-cased names) holds, in name order. */
export function toolsArtifactText(file: ToolsFile, keep: (lowerName: string) => boolean): string {
  const servers = file.servers
    .filter((server) => keep(server.name.toLowerCase()))
    .sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1));
  return JSON.stringify({ by: file.by, third_party: file.third_party, servers });
}

/** The artifact's bytes (already checked against the manifest) as the lookup; throws when they are not a tools file. */
export function parseToolsArtifact(bytes: Buffer): ToolsIndex {
  const file = ToolsFileSchema.parse(JSON.parse(bytes.toString('utf8')));
  const byName = new Map(file.servers.map((server) => [server.name.toLowerCase(), server]));
  return {
    by: file.by,
    third_party: file.third_party,
    get: (name) => byName.get(name.toLowerCase()),
    size: byName.size,
  };
}
