/**
 * The query engine over a loaded snapshot: statistics, case-insensitive lookup, filtered and sorted pages,
 * and search (`search.ts`). Records stay in memory as the bytes of the records artifact (one line each) and are
 * read as JSON text on demand (see record-file.ts), so a page is answered without parsing or
 * re-serializing anything and a large snapshot costs its indexes, not millions of objects.
 */
import type { ListParams, SortField, SortOrder } from '../model/schema.js';
import { changesBetweenPairsSliced, changesSince, type ServerChange } from '../history/history.js';
import { createSlicer } from '../format/slicer.js';
import type { PostingLists } from '../format/index-layout.js';
import type { LoadedArtifacts, LoadTimings } from './load.js';
import { type BlockSkip, createBlockCounts } from './block-counts.js';
import { createDenseFilters, type DenseFilterOptions } from './dense-filters.js';
import { createParts, type PartsOptions } from './parts.js';
import { NameIndex } from '../format/name-lookup.js';
import { recordPages } from './record-pages.js';
import { createSearch } from '../search/search.js';
import type { IdPage, JsonPage, LookupKey, QueryEngine } from './types.js';

/** Ascending record ids: a posting list as stored, or a list made from them. */
type IdList = ArrayLike<number> & Iterable<number>;

/** Intersection of ascending id lists, smallest first. */
function intersect(lists: readonly IdList[]): IdList {
  const sorted = [...lists].sort((a, b) => a.length - b.length);
  let result: IdList = sorted[0] ?? [];
  for (let i = 1; i < sorted.length && result.length > 0; i++) {
    const other = sorted[i]!;
    const next: number[] = [];
    let j = 0;
    for (let k = 0; k < result.length; k++) {
      const id = result[k]!;
      while (j < other.length && other[j]! < id) j++;
      if (j < other.length && other[j] === id) next.push(id);
    }
    result = next;
  }
  return result;
}

/** The comma-separated flag names of a `flags` filter, trimmed, without empty pieces or repeats. */
export function parseFlagList(flags: string): string[] {
  return [
    ...new Set(
      flags
        .split(',')
        .map((flag) => flag.trim().toLowerCase())
        .filter((flag) => flag !== ''),
    ),
  ];
}

/** How the engine loads its parts, and when a filter list gets a dense form. */
export type EngineOptions = PartsOptions & DenseFilterOptions;

export function createQueryEngine(
  artifacts: LoadedArtifacts,
  timings: LoadTimings = {},
  options: EngineOptions = {},
): QueryEngine {
  const { manifest, records, names, stats } = artifacts;
  const count = manifest.record_count;
  if (records.count !== count || names.length !== count) {
    throw new Error(`snapshot artifacts disagree with the manifest's record count ${count}`);
  }

  // `get` needs only the names and the records; every other part is loaded when first needed or in the
  // background (parts.ts), and the gateway awaits the part a route needs before it answers.
  const parts = createParts(artifacts, timings, options);
  const columns = () => parts.lists();
  const orders = () => parts.lists().orders;
  const postingsOf = () => parts.lists().postings;
  const search = createSearch(count, parts);
  const denseFilter = createDenseFilters(count, options);
  const blocks = createBlockCounts(count);

  /** rank[id] = position of the record in an order; made on first use of that order. */
  const ranks = new Map<string, Uint32Array>();
  const orderOf = (sort: SortField, order: SortOrder) => orders().get(`${sort}:${order}`)!;
  const rankOf = (sort: SortField, order: SortOrder) => {
    const key = `${sort}:${order}`;
    let rank = ranks.get(key);
    if (!rank) {
      const ids = orderOf(sort, order);
      rank = new Uint32Array(count);
      for (let position = 0; position < ids.length; position++) rank[ids[position]!] = position;
      ranks.set(key, rank);
    }
    return rank;
  };

  /** The record id of `name`, case-insensitively (`NameIndex`, made in the background by `loadAll`). */
  const nameIndex = new NameIndex(names);
  const lookup = (name: string): number | undefined => nameIndex.find(name);
  const statsJson = JSON.stringify(stats);

  const pages = recordPages(records);
  const { recordJson, pageJson } = pages;

  /** Scratch marks for membership tests while walking an order; a generation number avoids clearing. */
  const marks = new Uint32Array(count);
  let generation = 0;

  const none = new Uint32Array(0);

  function listIds(params: ListParams): { ids: number[]; total: number } {
    const { sort, order, limit, offset, min_score: minScore } = params;
    const { trustScore, atLeast } = columns();
    const postings = postingsOf();
    const filters: { kind: keyof PostingLists; key: string }[] = [];
    if (params.flags !== undefined)
      for (const flag of parseFlagList(params.flags)) filters.push({ kind: 'flags', key: flag });
    if (params.target !== undefined) filters.push({ kind: 'target', key: params.target.trim().toLowerCase() });
    if (params.namespace !== undefined) filters.push({ kind: 'namespace', key: params.namespace.trim().toLowerCase() });
    const lists = filters.map(({ kind, key }) => postings[kind].get(key) ?? none);
    const ordered = orderOf(sort, order);
    const end = offset + limit;

    if (lists.length === 0) {
      if (minScore === undefined)
        return { ids: Array.from(ordered.subarray(Math.min(offset, count), Math.min(end, count))), total: count };
      const total = atLeast[minScore]!;
      if (offset >= total) return { ids: [], total };
      // Whole blocks of the order are skipped by their counts; the rest is a tight loop over the page.
      const ids: number[] = [];
      const { position: start, seen: skipped } = blocks.skip(
        `${sort}:${order}`,
        ordered,
        trustScore,
        undefined,
        minScore,
        offset,
      );
      let seen = skipped;
      for (let position = start; position < ordered.length && ids.length < limit; position++) {
        const id = ordered[position]!;
        if (trustScore[id]! < minScore) continue;
        if (seen >= offset) ids.push(id);
        seen++;
      }
      return { ids, total };
    }

    // Few matches: sort them by their rank in the order. Many: walk the order and keep the matching ones.
    // Walking costs about (offset + limit) * count / total steps; sorting about total * log2(total).
    const walkCost = (total: number) => (Math.min(end, total) * count) / total;
    const sortCost = (total: number) => total * Math.log2(total + 1) * 4;
    const floor = minScore ?? 0;

    // One large filter: its total is read off its counts and its bits say which ids it holds, so nothing
    // is marked. The order is walked from the block of the page's first match (its block counts), testing
    // the bits, unless sorting the matches is cheaper than even that.
    const dense =
      lists.length === 1 ? denseFilter(filters[0]!.kind, filters[0]!.key, lists[0]!, trustScore) : undefined;
    if (dense !== undefined) {
      const total = minScore === undefined ? lists[0]!.length : dense.atLeast[minScore]!;
      if (offset >= total) return { ids: [], total };
      const skippingWalk = (Math.min(limit, total - offset) * count) / total + blocks.blockSize(true);
      if (sortCost(total) < Math.min(walkCost(total), skippingWalk))
        return { ids: sortedPage(lists[0]!, floor, total), total };
      const name = `${filters[0]!.kind}\u0000${filters[0]!.key}\u0000${sort}:${order}`;
      const from = blocks.skip(name, ordered, trustScore, dense.bits, floor, offset);
      return { ids: walkDense(ordered, from, dense.bits, trustScore, floor, offset, limit), total };
    }

    // One pass marks the matches and counts them; a single filter's postings are not even copied.
    const source = lists.length === 1 ? lists[0]! : intersect(lists);
    const mark = ++generation;
    let total = 0;
    for (const id of source) {
      if (trustScore[id]! < floor) continue;
      marks[id] = mark;
      total++;
    }
    if (offset >= total) return { ids: [], total };
    if (sortCost(total) < walkCost(total)) return { ids: sortedPage(source, floor, total), total };
    return { ids: walkMarked(ordered, mark, offset, limit), total };

    /** The page of the `total` ids of `source` scoring `floor` or more, by their rank in the order. */
    function sortedPage(source: IdList, floor: number, total: number): number[] {
      const rank = rankOf(sort, order);
      const positions = new Uint32Array(total);
      let n = 0;
      for (let i = 0; i < source.length; i++) {
        const id = source[i]!;
        if (trustScore[id]! >= floor) positions[n++] = rank[id]!;
      }
      positions.sort();
      return Array.from(positions.subarray(offset, Math.min(end, total)), (position) => ordered[position]!);
    }
  }

  /*
   * Walk an order, skip `offset` matching ids and return the next `limit`; stop as soon as they are found.
   * One loop per kind of match, with the test written out: a walk may take tens of thousands of steps, and
   * a test passed as a function was a call per step (a third of the walk's time).
   */

  /** The walk for a dense filter (`bits`) and a score floor, from a block skip. */
  function walkDense(
    ordered: Uint32Array,
    from: BlockSkip,
    bits: Uint32Array,
    trustScore: Uint32Array,
    floor: number,
    offset: number,
    limit: number,
  ): number[] {
    const ids: number[] = [];
    let seen = from.seen;
    for (let position = from.position; position < ordered.length && ids.length < limit; position++) {
      const id = ordered[position]!;
      if ((bits[id >>> 5]! & (1 << (id & 31))) === 0 || trustScore[id]! < floor) continue;
      if (seen >= offset) ids.push(id);
      seen++;
    }
    return ids;
  }

  /** The walk for the ids marked `mark` in `marks`. */
  function walkMarked(ordered: Uint32Array, mark: number, offset: number, limit: number): number[] {
    const ids: number[] = [];
    let seen = 0;
    for (let position = 0; position < ordered.length && ids.length < limit; position++) {
      const id = ordered[position]!;
      if (marks[id] !== mark) continue;
      if (seen >= offset) ids.push(id);
      seen++;
    }
    return ids;
  }

  const lookupOf = () => parts.lookup();

  /** The records filed under `key`, most trusted first (ties in name order). */
  function lookupIds(by: LookupKey): { ids: number[]; total: number } {
    const map =
      by.kind === 'package' ? lookupOf().packages : by.kind === 'url' ? lookupOf().urls : lookupOf().repositories;
    const found = Object.hasOwn(map, by.key) ? [...map[by.key]!] : [];
    const { trustScore } = columns();
    found.sort((a, b) => trustScore[b]! - trustScore[a]! || a - b);
    return { ids: found, total: found.length };
  }

  const historyOf = () => parts.history();
  /** Change lists per `since`, made once each: a feed reader or a dashboard asks the same one all day. */
  const changeLists = new Map<string, ServerChange[] | undefined>();

  function historyJson(name: string): string | undefined {
    const id = lookup(name);
    if (id === undefined) return undefined;
    const entry = historyOf()?.server(names.at(id).toLowerCase());
    return JSON.stringify(entry?.points ?? []);
  }

  /** Change lists being made a slice at a time, per `since` (one walk however many ask at once). */
  const preparing = new Map<string, Promise<void>>();

  /** Make the change list since `since` a slice at a time, if it is not made yet (`changesJson` then reads it). */
  function prepareChanges(since: string): Promise<void> {
    const history = historyOf();
    if (history === undefined || changeLists.has(since)) return Promise.resolve();
    const index = history.snapshots.findIndex((snapshot) => snapshot.snapshot_id === since);
    if (index === -1) return Promise.resolve();
    let made = preparing.get(since);
    if (made === undefined) {
      made = changesBetweenPairsSliced(history, [[index, 0]], createSlicer()).then(([changes]) => {
        changeLists.set(since, changes);
        preparing.delete(since);
      });
      preparing.set(since, made);
    }
    return made;
  }

  function changesJson(since: string, limit: number, offset: number) {
    const history = historyOf();
    const snapshots = history?.snapshots ?? [
      { snapshot_id: manifest.snapshot_id, generated_at: manifest.generated_at },
    ];
    if (!changeLists.has(since))
      changeLists.set(since, history === undefined ? undefined : changesSince(history, since));
    const changes = since === manifest.snapshot_id ? [] : changeLists.get(since);
    if (changes === undefined) return { unknown: true as const, oldest: snapshots.at(-1)!, count: snapshots.length };
    return { json: JSON.stringify(changes.slice(offset, offset + limit)), total: changes.length };
  }

  const toJsonPage = ({ ids, total }: IdPage): JsonPage => ({ json: pageJson(ids), total });
  const searchIds: QueryEngine['searchIds'] = (q, limit, options = {}) =>
    search.page(q, limit, options.offset ?? 0, options.in ?? ['name']);

  return {
    snapshot: {
      id: manifest.snapshot_id,
      generatedAt: manifest.generated_at,
      newestScoredAt: manifest.newest_scored_at,
      recordCount: count,
    },
    statsJson: () => statsJson,
    getJson(name) {
      const id = lookup(name);
      return id === undefined ? undefined : recordJson(id);
    },
    listJson: (params) => toJsonPage(listIds(params)),
    searchJson: (q, limit, options) => toJsonPage(searchIds(q, limit, options)),
    lookupJson: (by) => toJsonPage(lookupIds(by)),
    getId: lookup,
    listIds,
    searchIds,
    lookupIds,
    recordJson,
    pageJson,
    recordsBinary: pages.recordsBinary,
    recordsByteLength: pages.recordsByteLength,
    copyRecords: pages.copyRecords,
    history: historyOf,
    registry: () => parts.registry(),
    advisories: () => parts.advisories(),
    tools: () => parts.tools(),
    historyJson,
    prepareChanges,
    changesBetweenPairs: async (pairs) => {
      const history = historyOf();
      return history === undefined ? [] : changesBetweenPairsSliced(history, pairs, createSlicer());
    },
    changesJson,
    ready: (part) => parts.ready(part),
    // The name index last: Get Server answers by binary search until then, while the parts a first list or
    // search waits for load without sharing the processor with it.
    loadAll: async () => {
      await parts.loadAll();
      await nameIndex.build(createSlicer(options.sliceMs));
    },
    loaded: () => parts.loaded(),
    readyAt: () => parts.readyAt(),
    close: () => records.close(),
  };
}
