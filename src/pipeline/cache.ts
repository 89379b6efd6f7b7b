/**
 * The run's cache folder (`--cache`, not committed): the last complete registry collection, for an incremental
 * collection, and the ETag and facts of every GitHub answer, for conditional requests. Each file is written
 * through a temporary file and a rename, so a run that fails midway leaves the previous cache whole; a file that
 * cannot be read or is not the expected shape is ignored (the run then asks for everything), never trusted.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { PackageFactsSchema } from '../model/package-facts.js';
import { UpstreamEntrySchema } from '../registry/upstream.js';
import type { Collection } from './collect.js';
import type { CachedAnswer } from './github.js';
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

const GitHubCacheSchema = z.strictObject({
  version: z.literal(CACHE_VERSION),
  apiUrl: z.string(),
  answers: z.record(z.string(), z.strictObject({ etag: z.string().min(1), facts: z.unknown() })),
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

export function readRegistryCache(dir: string): { collection?: Collection; note?: string } {
  const { value, note } = readJson(registryFile(dir), RegistryCacheSchema);
  if (value === undefined) return note ? { note } : {};
  return { collection: { baseUrl: value.baseUrl, collectedAt: value.collectedAt, entries: value.entries } };
}

/** The cached answers for `apiUrl` (answers kept for another API are not reused). */
export function readGitHubCache(dir: string, apiUrl: string): { answers: Map<string, CachedAnswer>; note?: string } {
  const { value, note } = readJson(githubFile(dir), GitHubCacheSchema);
  const answers = new Map<string, CachedAnswer>();
  if (value !== undefined && value.apiUrl === apiUrl) {
    for (const [path, answer] of Object.entries(value.answers)) answers.set(path, answer);
  }
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
