/**
 * The run's cache folder (`--cache`, not committed): the last complete registry collection, for an incremental
 * collection, and the ETag and facts of every GitHub answer, for conditional requests. Each file is written
 * through a temporary file and a rename, so a run that fails midway leaves the previous cache whole; a file that
 * cannot be read or is not the expected shape is ignored (the run then asks for everything), never trusted.
 * The registry and GitHub files, which grow with the registry, are written and read a record at a time, so
 * neither is ever one string or one parsed value beside what the night keeps of it.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { PackageFactsSchema } from '../model/package-facts.js';
import { UpstreamEntrySchema } from '../registry/upstream.js';
import type { CollectedEntry, Collection } from './collect.js';
import type { CachedAnswer } from './github.js';
import { JsonRecordsError, readJsonRecords } from './json-records.js';
import { CachedAdvisorySchema } from './osv/answers.js';
import type { CachedVuln } from './osv/read-advisories.js';
import type { CachedPackage } from './packages/read-packages.js';
import { writeFilesAtomically } from './write.js';

const CACHE_VERSION = 1;

const RegistryCacheSchema = z.strictObject({
  version: z.literal(CACHE_VERSION),
  baseUrl: z.string(),
  collectedAt: z.string(),
  entries: z.array(UpstreamEntrySchema),
});

const CachedAnswerSchema = z.strictObject({ etag: z.string().min(1), facts: z.unknown() });

const GitHubCacheSchema = z.strictObject({
  version: z.literal(CACHE_VERSION),
  apiUrl: z.string(),
  answers: z.record(z.string(), CachedAnswerSchema),
});

const PackageCacheSchema = z.strictObject({
  version: z.literal(CACHE_VERSION),
  urls: z.record(z.string(), z.string()),
  answers: z.record(
    z.string(),
    z.strictObject({ etag: z.string().min(1), facts: PackageFactsSchema.omit({ read_at: true }) }),
  ),
});

const OsvCacheSchema = z.strictObject({
  version: z.literal(CACHE_VERSION),
  url: z.string(),
  vulns: z.record(z.string(), z.strictObject({ modified: z.string(), advisory: CachedAdvisorySchema.nullable() })),
});

const osvFile = (dir: string) => join(dir, 'osv.json');
const registryFile = (dir: string) => join(dir, 'registry.json');
const packagesFile = (dir: string) => join(dir, 'packages.json');
const githubFile = (dir: string) => join(dir, 'github.json');

function readJson<T extends z.ZodType>(file: string, schema: T): { value?: z.infer<T>; note?: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  try {
    const json: unknown = JSON.parse(text);
    // Checked, but kept as written: zod's output would reorder the registry entries' members.
    if (schema.safeParse(json).success) return { value: json as z.infer<T> };
  } catch {
    // not JSON: fall through
  }
  return { note: `ignored the unreadable cache file ${file}` };
}

/**
 * A cache file of one large member (`large`), read a record at a time (`json-records.ts`) and checked as it is
 * read: each item by `item`, which keeps it, and the other members with the large one's container by
 * `schema`. All or nothing, as a whole read was: a file that is not JSON, is cut short, or holds one item or
 * member that is not the expected shape is ignored whole (with a note), and what `item` kept is then let go.
 */
function readRecords<T extends z.ZodType>(
  file: string,
  schema: T,
  large: string,
  item: (value: unknown, key: string | undefined) => boolean,
): { value?: z.infer<T>; note?: string } {
  const note = `ignored the unreadable cache file ${file}`;
  const head: Record<string, unknown> = {};
  try {
    for (const record of readJsonRecords(file, large)) {
      if ('member' in record) head[record.member] = record.value;
      else if ('opened' in record) head[large] = record.opened === 'array' ? [] : {};
      else if (!item(record.item, record.key)) return { note };
    }
  } catch (error) {
    if (error instanceof JsonRecordsError) return { note };
    // A file that cannot be read is no cache, as a missing one is.
    if ((error as NodeJS.ErrnoException).code !== undefined) return {};
    throw error;
  }
  // Checked, but kept as written: zod's output would reorder the registry entries' members.
  return schema.safeParse(head).success ? { value: head as z.infer<T> } : { note };
}

export function readRegistryCache(dir: string): { collection?: Collection; note?: string } {
  const entries: CollectedEntry[] = [];
  const { value, note } = readRecords(registryFile(dir), RegistryCacheSchema, 'entries', (entry, key) => {
    if (key !== undefined || !UpstreamEntrySchema.safeParse(entry).success) return false;
    entries.push(entry as CollectedEntry);
    return true;
  });
  if (value === undefined) return note ? { note } : {};
  return { collection: { baseUrl: value.baseUrl, collectedAt: value.collectedAt, entries } };
}

/** The cached answers for `apiUrl` (answers kept for another API are not reused). */
export function readGitHubCache(dir: string, apiUrl: string): { answers: Map<string, CachedAnswer>; note?: string } {
  const answers = new Map<string, CachedAnswer>();
  const { value, note } = readRecords(githubFile(dir), GitHubCacheSchema, 'answers', (answer, path) => {
    if (path === undefined || !CachedAnswerSchema.safeParse(answer).success) return false;
    answers.set(path, answer as CachedAnswer);
    return true;
  });
  if (value === undefined || value.apiUrl !== apiUrl) answers.clear();
  return note ? { answers, note } : { answers };
}

/**
 * `JSON.stringify({ ...head, [last]: items })` and a line feed, made a piece at a time: `items` (an array, or an
 * object's entries) is the large member, written one item at a time so a cache at registry scale is never one
 * string. `head` holds small members only, and `last` is not one of them.
 */
function* cachePieces(
  head: Record<string, unknown>,
  last: string,
  items: { array: Iterable<unknown> } | { entries: Iterable<readonly [string, unknown]> },
): Generator<string> {
  const opening = JSON.stringify(head).slice(0, -1);
  yield `${opening}${opening === '{' ? '' : ','}${JSON.stringify(last)}:${'array' in items ? '[' : '{'}`;
  let first = true;
  if ('array' in items) {
    for (const item of items.array) {
      yield `${first ? '' : ','}${JSON.stringify(item)}`;
      first = false;
    }
  } else {
    for (const [key, value] of items.entries) {
      // A member whose value JSON leaves out (undefined) is left out, as JSON.stringify of the object does.
      const text = JSON.stringify(value) as string | undefined;
      if (text === undefined) continue;
      yield `${first ? '' : ','}${JSON.stringify(key)}:${text}`;
      first = false;
    }
  }
  yield `${'array' in items ? ']' : '}'}}\n`;
}

export function writeRegistryCache(dir: string, collection: Collection): void {
  mkdirSync(dir, { recursive: true });
  const { baseUrl, collectedAt, entries } = collection;
  writeFilesAtomically([
    [registryFile(dir), cachePieces({ version: CACHE_VERSION, baseUrl, collectedAt }, 'entries', { array: entries })],
  ]);
}

export function writeGitHubCache(dir: string, apiUrl: string, answers: Map<string, CachedAnswer>): void {
  mkdirSync(dir, { recursive: true });
  const paths = [...answers.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  writeFilesAtomically([
    [
      githubFile(dir),
      cachePieces({ version: CACHE_VERSION, apiUrl }, 'answers', {
        entries: (function* () {
          for (const path of paths) yield [path, answers.get(path)] as const;
        })(),
      }),
    ],
  ]);
}

const sameUrls = (a: Record<string, string>, b: Record<string, string>) =>
  JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

/** The cached package answers, when they were kept for the same registry URLs. */
export function readPackageCache(
  dir: string,
  urls: Record<string, string>,
): { answers: Map<string, CachedPackage>; note?: string } {
  const { value, note } = readJson(packagesFile(dir), PackageCacheSchema);
  const answers = new Map<string, CachedPackage>();
  if (value !== undefined && sameUrls(value.urls, urls)) {
    for (const [key, answer] of Object.entries(value.answers)) answers.set(key, answer);
  }
  return note ? { answers, note } : { answers };
}

export function writePackageCache(
  dir: string,
  urls: Record<string, string>,
  answers: Map<string, CachedPackage>,
): void {
  mkdirSync(dir, { recursive: true });
  const sorted = Object.fromEntries([...answers].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  writeFilesAtomically([[packagesFile(dir), `${JSON.stringify({ version: CACHE_VERSION, urls, answers: sorted })}\n`]]);
}

/** The cached OSV advisories, when they were read from the same OSV URL. */
export function readOsvCache(dir: string, url: string): { vulns: Map<string, CachedVuln>; note?: string } {
  const { value, note } = readJson(osvFile(dir), OsvCacheSchema);
  const vulns = new Map<string, CachedVuln>();
  if (value !== undefined && value.url === url) {
    for (const [id, vuln] of Object.entries(value.vulns)) vulns.set(id, vuln);
  }
  return note ? { vulns, note } : { vulns };
}

export function writeOsvCache(dir: string, url: string, vulns: Map<string, CachedVuln>): void {
  mkdirSync(dir, { recursive: true });
  const sorted = Object.fromEntries([...vulns].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  writeFilesAtomically([[osvFile(dir), `${JSON.stringify({ version: CACHE_VERSION, url, vulns: sorted })}\n`]]);
}
