/**
 * Collect: every server's latest version from the registry's `GET /v0.1/servers` (API 2025-12-01), page by
 * page along `metadata.nextCursor`, with `version=latest`. Entries whose official status is not `active` are
 * left out and counted. With the previous run's collection (from the cache) it asks only for what changed,
 * `updated_since` the start of that run, and merges. Any failed or malformed page fails the whole collection:
 * a page that could not be read is never a shorter registry.
 */
import * as z from 'zod';
import { oneLineZodError } from '../dataset/inputs.js';
import { refusedNameReason, type LeftOut } from '../dataset/join.js';
import { OFFICIAL_META_KEY } from '../registry/vocabulary.js';
import { type UpstreamEntry, UpstreamEntrySchema } from '../registry/upstream.js';
import { PipelineError } from './errors.js';
import { getJson, type HttpPolicy } from './http-json.js';

/** One `ServerResponse`, read as the upstream entry is (`src/registry/upstream.ts`) and kept as served. */
export type CollectedEntry = UpstreamEntry;

/** `ServerList`: a page and the cursor of the next one. */
export const RegistryPageSchema = z.looseObject({
  servers: z.array(UpstreamEntrySchema),
  metadata: z.looseObject({ nextCursor: z.string().min(1).optional(), count: z.number().int().min(0).optional() }),
});

export interface Collection {
  /** The registry's base URL the collection came from (a cache from another registry is not reused). */
  baseUrl: string;
  /** When this collection started: the next incremental run asks for what changed since then. */
  collectedAt: string;
  /** Latest versions of active servers, one per name, in name order, each as the registry served it. */
  entries: CollectedEntry[];
}

export interface CollectResult {
  collection: Collection;
  /** Active entries refused at collect (a name no URL can carry), with the reason; never scored. */
  refused: LeftOut[];
  /** Entries seen whose status was not active (left out). */
  notActive: number;
  /** Entries the registry sent this run (all of them, or only the changed ones in an incremental run). */
  received: number;
  incremental: boolean;
  requests: number;
  pages: number;
}

export interface CollectOptions {
  baseUrl: string;
  previous?: Collection | undefined;
  policy: HttpPolicy;
  pageSize?: number;
  /** A bound on pages, so a registry that keeps handing out cursors cannot keep a run going forever. */
  maxPages?: number;
  /** The most bytes one page may hold (the rest is not read). */
  maxPageBytes?: number;
  /** The total may grow to this many times the last collection's size, but never below `minTotalBound`. */
  growthFactor?: number;
  minTotalBound?: number;
  now?: () => Date;
}

const official = (entry: CollectedEntry) => entry._meta?.[OFFICIAL_META_KEY];

/**
 * The bounds that keep one answer from being taken whole however big it is: a page of 100 servers is a few
 * hundred kilobytes, so 8 MB is far past a real one; the registry held 11,978 servers in June 2026, so a total
 * of three times the last collection, and never under 50,000, leaves room for years of growth between two
 * nights while a registry answering hundreds of thousands of entries is refused, not held in memory.
 */
export const MAX_PAGE_BYTES = 8 * 1024 * 1024;
export const GROWTH_FACTOR = 3;
export const MIN_TOTAL_BOUND = 50_000;

export async function collect(options: CollectOptions): Promise<CollectResult> {
  const { baseUrl, policy, pageSize = 100, maxPages = 10_000, maxPageBytes = MAX_PAGE_BYTES } = options;
  const collectedAt = (options.now ?? (() => new Date()))().toISOString();
  const previous = options.previous?.baseUrl === baseUrl ? options.previous : undefined;
  const byName = new Map<string, CollectedEntry>(previous?.entries.map((entry) => [entry.server.name, entry]) ?? []);
  const lastSize = previous?.entries.length ?? 0;
  const maxTotal = Math.max(
    options.minTotalBound ?? MIN_TOTAL_BOUND,
    Math.ceil((options.growthFactor ?? GROWTH_FACTOR) * lastSize),
  );
  const result = { notActive: 0, received: 0, requests: 0, pages: 0 };
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  do {
    const url = new URL('v0.1/servers', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
    url.searchParams.set('version', 'latest');
    url.searchParams.set('limit', String(pageSize));
    if (previous) url.searchParams.set('updated_since', previous.collectedAt);
    if (cursor !== undefined) url.searchParams.set('cursor', cursor);
    result.pages++;
    const where = `registry page ${result.pages} (${url.pathname}${url.search})`;
    let body: unknown;
    try {
      body = await getJson(url.href, policy, () => result.requests++, maxPageBytes);
    } catch (error) {
      if (error instanceof PipelineError) throw new PipelineError(`${where}: ${error.message}`);
      throw error;
    }
    // Counted before the page is checked entry by entry: a page far past what was asked is refused unread.
    const listed = (body as { servers?: unknown } | null)?.servers;
    if (Array.isArray(listed) && listed.length > pageSize) {
      throw new PipelineError(`${where} lists ${listed.length} servers, more than the ${pageSize} asked for`);
    }
    const page = RegistryPageSchema.safeParse(body);
    if (!page.success) throw new PipelineError(`${where} is not the documented shape: ${oneLineZodError(page.error)}`);
    // Checked, but kept as the registry served it: zod's output would reorder members.
    const served = (body as { servers: CollectedEntry[] }).servers;
    for (const entry of served) {
      result.received++;
      const meta = official(entry);
      if (meta?.isLatest === false) continue;
      if ((meta?.status ?? 'active') !== 'active') {
        result.notActive++;
        byName.delete(entry.server.name);
        continue;
      }
      byName.set(entry.server.name, entry);
    }
    if (Math.max(byName.size, result.received) > maxTotal) {
      throw new PipelineError(
        `the registry lists more than ${maxTotal} servers, the bound of this run ` +
          `(${options.growthFactor ?? GROWTH_FACTOR} times the ${lastSize} of the last collection, at least ` +
          `${options.minTotalBound ?? MIN_TOTAL_BOUND}); nothing collected`,
      );
    }
    cursor = page.data.servers.length > 0 ? page.data.metadata.nextCursor : undefined;
    if (cursor !== undefined) {
      if (seenCursors.has(cursor)) throw new PipelineError(`${where} hands back a cursor it gave before`);
      seenCursors.add(cursor);
      if (result.pages >= maxPages) throw new PipelineError(`the registry still has pages after ${maxPages}`);
    }
  } while (cursor !== undefined);
  const refused: LeftOut[] = [];
  for (const name of [...byName.keys()]) {
    const reason = refusedNameReason(name);
    if (reason === undefined) continue;
    refused.push({ name, reason });
    byName.delete(name);
  }
  const entries = [...byName.values()].sort((a, b) =>
    a.server.name < b.server.name ? -1 : a.server.name > b.server.name ? 1 : 0,
  );
  refused.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { collection: { baseUrl, collectedAt, entries }, refused, incremental: previous !== undefined, ...result };
}
