/**
 * The pinned tools a build publishes: the committed `data/evidence/tools.json` (written by the nightly prober,
 * `src/model/tools.ts`), checked whole before anything is written: a file that is not JSON, breaks the schema,
 * names a server twice or carries a hash its tools do not give fails the build with one line.
 */
import path from 'node:path';
import { type ToolsFile, ToolsFileSchema, toolsHash } from '../model/tools.js';
import { MTS2_METHOD, type MethodId } from '../scoring/methods.js';
import { readEvidenceJson } from './evidence-json.js';
import { InputError } from './read-input.js';

/** The prober's file, in the committed evidence folder. */
export const TOOLS_EVIDENCE_FILE = 'tools.json';

/** `value` (the file's parsed JSON) as a tools file, or the one line that says why not. */
export function checkToolsFile(value: unknown, file: string): ToolsFile {
  const parsed = ToolsFileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
    throw new InputError([`${file}: not a tools file${at}: ${issue?.message ?? ''}`]);
  }
  const seen = new Set<string>();
  for (const server of parsed.data.servers) {
    const key = server.name.toLowerCase();
    if (seen.has(key)) throw new InputError([`${file}: ${JSON.stringify(server.name)} is listed twice`]);
    seen.add(key);
    // A cut list's hash is the prober's over what the server sent; a whole list's must be its tools' own.
    if (!server.truncated && toolsHash(server.tools) !== server.hash)
      throw new InputError([`${file}: the hash of ${JSON.stringify(server.name)} is not the hash of its tools`]);
  }
  return parsed.data;
}

/**
 * The committed tools file of `evidenceDir`, checked, for a snapshot scored with mts-2 (whose input hash covers
 * the evidence folder); none for one that serves the dataset's own scores, or when there is no file.
 */
export async function readToolsFile(method: MethodId | undefined, evidenceDir: string): Promise<ToolsFile | undefined> {
  if ((method ?? MTS2_METHOD) !== MTS2_METHOD) return undefined;
  const file = path.join(evidenceDir, TOOLS_EVIDENCE_FILE);
  const value = await readEvidenceJson(file, 'tools');
  if (value === undefined) return undefined;
  return checkToolsFile(value, file);
}
