/**
 * The registry data of the feed (`data/registry/servers.json`): for each scored server, the registry's
 * `ServerResponse` of its newest version (chosen as the install information is, `pickNewestVersion`),
 * kept as the official registry served it. One repair only, which loses nothing: an empty `repository`
 * object (`{}`, or blank url and source, as older server.json generations wrote) is dropped, since the
 * registry's schema requires its url and source. An entry that still breaks the registry's schema (of
 * the 2025-12-01 document) is left out of the feed and named in the report: a client must be able to read
 * every entry, and a trust service does not rewrite how a server is installed.
 */
import { jsonArrayLines, jsonArrayText } from '../format/json-array-lines.js';
import { type RegistryEntry, RegistryEntrySchema } from '../registry/schema.js';
import { OFFICIAL_META_KEY } from '../registry/vocabulary.js';
import type { RegistryDumpEntry as RegistryVersion } from './inputs.js';
import { oneLineZodError } from './inputs.js';
import { pickNewestVersion } from './install.js';

export interface RegistryImport {
  /** In the order of `names`. */
  entries: RegistryEntry[];
  /** Scored servers the dumps have no version of. */
  missing: string[];
  /** Empty repository objects dropped. */
  repaired: number;
  /** Scored servers whose newest entry breaks the registry's schema, with the first reason. */
  refused: { name: string; reason: string }[];
}

const isBlank = (value: unknown) => typeof value !== 'string' || value.trim() === '';

/**
 * The entries of the scored servers `names`, from the dumps: `versions[i]` is the parsed form of `raw[i]`
 * (as `RegistryDumpSchema` read it), `raw[i]` the entry as the dump holds it.
 */
export function importRegistryEntries(
  names: readonly string[],
  versions: readonly RegistryVersion[],
  raw: readonly unknown[],
): RegistryImport {
  const byName = new Map<string, number[]>();
  versions.forEach((version, index) => {
    const list = byName.get(version.server.name);
    if (list) list.push(index);
    else byName.set(version.server.name, [index]);
  });
  const result: RegistryImport = { entries: [], missing: [], repaired: 0, refused: [] };
  for (const name of names) {
    const indices = byName.get(name) ?? [];
    const newest = pickNewestVersion(indices.map((index) => versions[index]!));
    if (newest === undefined) {
      result.missing.push(name);
      continue;
    }
    const position = indices.find((index) => versions[index] === newest)!;
    const source = raw[position] as { server: Record<string, unknown>; _meta?: Record<string, unknown> | null };
    const server = { ...source.server };
    const repository = server.repository as { url?: unknown; source?: unknown } | undefined | null;
    if (repository !== undefined && (repository === null || (isBlank(repository.url) && isBlank(repository.source)))) {
      delete server.repository;
      result.repaired++;
    }
    const entry = { server, _meta: { [OFFICIAL_META_KEY]: source._meta?.[OFFICIAL_META_KEY] ?? {} } };
    const parsed = RegistryEntrySchema.safeParse(entry);
    // Kept as the dump has it (zod's output would reorder members); the check is all that is needed.
    if (parsed.success) result.entries.push(entry as RegistryEntry);
    else result.refused.push({ name, reason: oneLineZodError(parsed.error) });
  }
  return result;
}

/** The registry data file: a JSON array with one entry per line, so a changed server is a one-line diff. */
export function serializeRegistryData(entries: readonly RegistryEntry[]): string {
  return jsonArrayText(entries);
}

/** `serializeRegistryData`'s text an entry at a time, for a writer that streams it. */
export const registryDataPieces = (entries: Iterable<RegistryEntry>): Iterable<string> => jsonArrayLines(entries);
