/**
 * The registry artifact of a snapshot (`registry.json`): for each scored server that has a registry entry,
 * the registry's `ServerResponse` of its latest version, in the records' name order. One owner of the
 * format: the build makes it here from the committed registry data, the loader hands its text to `parse`.
 *
 * It is part of the snapshot id (unlike the history): the id says what the service answers, and the
 * registry entries are answered. The committed file is part of the build's input hash for the same reason,
 * so `npm start` rebuilds when it changes.
 */
import { readFile } from 'node:fs/promises';
import * as z from 'zod';
import { type RegistryEntry, RegistryEntrySchema } from './schema.js';
import type { RegistryArtifact } from './files.js';

export { DEFAULT_REGISTRY_DATA, parseRegistryArtifact, REGISTRY_FILE, type RegistryArtifact } from './files.js';

/** The registry data cannot be used: each line names the file, the entry and the rule. */
export class RegistryDataError extends Error {
  override readonly name = 'RegistryDataError';
  constructor(readonly lines: string[]) {
    super(lines.join('\n'));
  }
}

const MAX_REPORTED = 20;

/** Parse and check registry data (a JSON array of entries); `file` names it in messages. */
export function parseRegistryData(text: string, file: string): RegistryEntry[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new RegistryDataError([`${file}: not valid JSON (${(error as Error).message})`]);
  }
  if (!Array.isArray(raw)) throw new RegistryDataError([`${file}: expected a JSON array of registry entries`]);
  const problems: string[] = [];
  const entries: RegistryEntry[] = [];
  const seen = new Set<string>();
  raw.forEach((item: unknown, index) => {
    if (problems.length >= MAX_REPORTED) return;
    const result = RegistryEntrySchema.safeParse(item);
    const name = (item as { server?: { name?: unknown } } | null)?.server?.name;
    const where = `${file}: entry #${index + 1}${typeof name === 'string' ? ` (${JSON.stringify(name.slice(0, 200))})` : ''}`;
    if (!result.success) {
      problems.push(`${where} breaks the registry's schema: ${z.prettifyError(result.error).replace(/\n\s*/g, ' ')}`);
      return;
    }
    const key = result.data.server.name.toLowerCase();
    if (seen.has(key)) problems.push(`${where}: a second entry for the same server (one, the latest, per server)`);
    seen.add(key);
    entries.push(result.data);
  });
  if (problems.length > 0) throw new RegistryDataError(problems);
  return entries;
}

/** Read and check the registry data file `file`. */
export async function readRegistryData(file: string): Promise<RegistryEntry[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new RegistryDataError([
      `${file}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    ]);
  }
  return parseRegistryData(text, file);
}

const byName = (a: string, b: string) => {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
};

/**
 * The artifact for a snapshot of `names` (its records' names): the entries of those servers, matched by
 * name in any case and answered with the record's spelling, in name order. Entries of servers the snapshot
 * does not score are left out: the feed serves scored servers only.
 */
export function makeRegistryArtifact(entries: readonly RegistryEntry[], names: readonly string[]): RegistryArtifact {
  const stored = new Map(names.map((name) => [name.toLowerCase(), name]));
  const servers: RegistryEntry[] = [];
  for (const entry of entries) {
    const name = stored.get(entry.server.name.toLowerCase());
    if (name !== undefined) servers.push({ ...entry, server: { ...entry.server, name } });
  }
  servers.sort((a, b) => byName(a.server.name, b.server.name));
  return { servers };
}

/** The artifact's text, as the build writes it. */
export const serializeRegistryArtifact = (artifact: RegistryArtifact): string => JSON.stringify(artifact);
