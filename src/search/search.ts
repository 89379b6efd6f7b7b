/**
 * Search pages over the word indexes (`word-index.ts`): by name (the specification's search, decisions §4),
 * by description, or both, where every record whose name matches ranks above every record that matches only
 * by its description. Pages are cut from the best `offset + limit` matches, never from a full sort.
 */
import { LIMITS } from '../model/schema.js';
import { FEW_RANKED, matchOrder, newRankScratch, rankByKeys, rankFew } from './rank-keys.js';
import { topK } from './top-k.js';
import { binarySearch } from './sorted-ids.js';
import { createQueryPlans, type Combination, type QueryPlan, type Reading } from './query-plans.js';
import { matchBuffers, type MatchBuffers, type WordIndex, type WordMatches } from './word-index.js';

/** What a search looks in: a record's name, or what it does (its description). */
export type SearchField = 'name' | 'description';

/**
 * What a search reads from a loaded snapshot: the records' trust scores (ties are broken by score) and the two
 * word indexes, each loaded on first use.
 */
export interface SearchSources {
  lists(): { trustScore: Uint32Array };
  search(): { nameIndex: WordIndex };
  descriptions(): { descriptionIndex: WordIndex };
}

export interface Search {
  /** The record ids of one page of `q`'s matches, and how many match in all. */
  page(q: string, limit: number, offset: number, fields: readonly SearchField[]): { ids: number[]; total: number };
  /**
   * Each record `q` matches by name, with what its place is decided by before trust and name: whether it is in
   * the first class (an exact id match, or the publisher's own) and its relevance. For measuring how often a
   * search's answer is tied (test/search/name-queries.test.ts); no request path calls it.
   */
  relevance(q: string): Map<number, { first: boolean; relevance: number }>;
}

/**
 * Whether a page's `k` best of `count` matches are ranked by one packed number per match and a native sort
 * (`rank-keys.ts`) rather than a bounded heap of `k` (`top-k.ts`): when `k` is a large share of the matches,
 * where the heap grows costly or would fall back to a comparator sort of them all. The two were measured to
 * cross near k = count / 12 (docs/performance.md, "Figures behind the code").
 */
const rankAllByKeys = (k: number, count: number) => k * 12 >= count;

/**
 * A search by name for one word with more matches than the largest page (200) keeps its best
 * WORD_RANKED matches in rank order, by the query's words as `exactKey` gives them: people page through
 * and come back to the same words, and ranking all the matches again for each page was most of such a
 * search. Pages within them are slices; deeper ones are ranked as before. At most WORDS_KEPT words (4 KB
 * each at most), afresh past it.
 */
const WORD_RANKED = 1000;
/**
 * Added to the relevance of a publisher's own servers (its namespace's owner is the query's words run
 * together): more than any sum of word scores, little enough that float32 keeps their own order.
 */
const OWN_BONUS = 4096;
const WORDS_KEPT = 2000;
const WORD_KEPT_MIN_MATCHES = LIMITS.search.max + 1;

export function createSearch(count: number, parts: SearchSources): Search {
  /**
   * Marks records for one step of a query at a time, a generation number for each so nothing is cleared: the
   * records merged from a query's readings (`mergeReadings`), then the exact id matches and the publisher's own
   * (`markFirstClass`), then the name matches left out of the description-only ones. The steps follow each
   * other, so one array and one counter serve them all.
   */
  const marks = new Uint32Array(count);
  let generation = 0;
  /** Where each record stands in a merged answer (`mergeReadings`), read only where `marks` holds its mark. */
  const positions = new Uint32Array(count);
  const columns = () => parts.lists();
  const rankScratch = newRankScratch();
  /**
   * The matches of a query's two word searches (by name; by name or description), reused query after query.
   * While one is being filled the other, when it holds no answer yet, takes a reading's matches to merge.
   */
  let buffers: { names: MatchBuffers; all: MatchBuffers } | undefined;
  const buffersOf = () => (buffers ??= { names: matchBuffers(count), all: matchBuffers(count) });
  /** 0, 1, …, n - 1: every match of a word-index answer, as items to rank (made on the first deep page). */
  let everyItem = new Uint32Array(0);
  const allItems = (n: number) => {
    if (everyItem.length < n) everyItem = Uint32Array.from({ length: count }, (_, i) => i);
    return everyItem.subarray(0, n);
  };

  /** One-word searches' best matches in rank order, and how many match, by `exactKey` (see WORD_RANKED). */
  const rankedWords = new Map<string, { ids: number[]; total: number }>();

  /** What each query's text gives a search, kept by the text as asked (`query-plans.ts`). */
  const planOf = createQueryPlans();

  /**
   * The matches of `query` in `index` (with `also`), and of its other readings (`readings.ts`): a record
   * matching several readings counts once, with its best relevance. The readings with fewer words (optional
   * words left out; for a query that says `official`, the publisher's own servers that the rest of its words
   * match) are tried only when the query and its same-words readings match nothing. A reading's matches are
   * written to `spare`, a buffer holding nothing the caller still needs, or, without one, to arrays of their
   * own size. `combination` names the indexes, whose readings `plan` keeps.
   */
  function matchReadings(
    plan: QueryPlan,
    combination: Combination,
    index: WordIndex,
    also: WordIndex[],
    into: MatchBuffers,
    spare?: MatchBuffers,
  ): WordMatches {
    const readings = plan.readingsIn(combination, index, also);
    const first = index.match(plan.query, also, into);
    // Most queries have no other reading: the merge is then not called at all.
    const matched =
      readings.sameWords.length === 0 ? first : mergeReadings(first, readings.sameWords, index, also, into, spare);
    if (matched.ids.length > 0) return matched;
    return mergeReadings(matched, plan.fewerWordsIn(readings, index, also), index, also, into, spare);
  }

  /** `first` (held in `into`) with the matches of `readings` added: a record counts once, with its best relevance. */
  function mergeReadings(
    first: WordMatches,
    readings: readonly Reading[],
    index: WordIndex,
    also: WordIndex[],
    into: MatchBuffers,
    spare: MatchBuffers | undefined,
  ): WordMatches {
    if (readings.length === 0) return first;
    // The search's own per-record arrays, idle while a query is matched: the merge adds none.
    const mark = ++generation;
    let size = first.ids.length;
    for (let i = 0; i < size; i++) {
      marks[first.ids[i]!] = mark;
      positions[first.ids[i]!] = i;
    }
    for (const { reading, only } of readings) {
      const more = index.match(reading, also, spare);
      for (let i = 0; i < more.ids.length; i++) {
        const id = more.ids[i]!;
        // The publisher's own servers are few and ascending: a binary search, not another per-record array.
        if (only !== undefined && binarySearch(only, id) < 0) continue;
        if (marks[id] === mark) {
          const j = positions[id]!;
          if (more.scores[i]! > into.scores[j]!) into.scores[j] = more.scores[i]!;
          continue;
        }
        marks[id] = mark;
        positions[id] = size;
        into.ids[size] = id;
        into.scores[size] = more.scores[i]!;
        size++;
      }
    }
    return { ids: into.ids.subarray(0, size), scores: into.scores.subarray(0, size) };
  }

  /** `total` counts every match; the page is the `limit` after `offset`. */
  function searchIds(
    q: string,
    limit: number,
    offset: number,
    fields: readonly SearchField[],
  ): { ids: number[]; total: number } {
    const plan = planOf(q);
    const { nameIndex } = parts.search();
    const end = offset + limit;
    const byName = fields.includes('name');
    if (!fields.includes('description')) {
      const kept = rankedWords.get(plan.key);
      // Within the kept matches, or all of them were kept (a page past the last is empty).
      if (kept !== undefined && (end <= kept.ids.length || kept.ids.length === kept.total))
        return { ids: kept.ids.slice(offset, end), total: kept.total };
      const names = matchReadings(plan, 'names', nameIndex, [], buffersOf().names, buffersOf().all);
      const total = names.ids.length;
      if (kept === undefined && total >= WORD_KEPT_MIN_MATCHES && end <= WORD_RANKED && plan.oneWord) {
        const best = rankNames(names, WORD_RANKED, plan);
        if (rankedWords.size >= WORDS_KEPT) rankedWords.clear();
        rankedWords.set(plan.key, { ids: best, total });
        return { ids: best.slice(offset, end), total };
      }
      return { ids: rankNames(names, end, plan).slice(offset), total };
    }
    const { descriptionIndex } = parts.descriptions();
    if (!byName) {
      const described = matchReadings(plan, 'descriptions', descriptionIndex, [], buffersOf().all, buffersOf().names);
      return { ids: rankByScore(described, end).slice(offset), total: described.ids.length };
    }
    const names = matchReadings(plan, 'names', nameIndex, [], buffersOf().names, buffersOf().all);
    // Each word may match the name or the description, so every name match is among these too. The name
    // matches are held, so a reading's matches here get arrays of their own size.
    const all = matchReadings(plan, 'both', nameIndex, [descriptionIndex], buffersOf().all);
    const total = all.ids.length;
    if (offset >= total) return { ids: [], total };
    const first = rankNames(names, Math.min(end, names.ids.length), plan);
    if (end <= names.ids.length) return { ids: first.slice(offset), total };
    const mark = ++generation;
    for (const id of names.ids) marks[id] = mark;
    const rest = rankByScore(all, end - names.ids.length, (id) => marks[id] !== mark);
    return { ids: [...first, ...rest].slice(offset, end), total };
  }

  /**
   * The best `k` name matches: exact id matches first (those filed under the query's `exactKey`); then
   * relevance; ties to the higher trust score, then name order.
   */
  function rankNames({ ids, scores }: WordMatches, k: number, plan: QueryPlan): number[] {
    const { trustScore } = columns();
    const mark = markFirstClass({ ids, scores }, plan);
    const exact = (i: number) => marks[ids[i]!] === mark;
    const exactId = (id: number) => marks[id] === mark;
    if (k <= FEW_RANKED) return rankFew(ids, k, scores, trustScore, exactId);
    if (rankAllByKeys(k, ids.length)) {
      const all = rankByKeys(allItems(ids.length), k, ids, scores, trustScore, exactId, rankScratch);
      if (all !== undefined) return all;
    }
    const best = topK(
      ids.length,
      k,
      matchOrder(ids, scores, trustScore, exactId),
      // A lower relevance never beats the page's worst unless exactness decides; nor does a match outside
      // the first class (exact ids, the publisher's own) beat one inside it, which are many for a publisher.
      (item, worst) => (exact(item) === exact(worst) ? scores[item]! < scores[worst]! : !exact(item)),
    );
    return best.map((i) => ids[i]!);
  }

  /**
   * Marks the first class of a query's name matches in `marks` (the exact id matches, filed under its
   * `exactKey`, and the publisher's own servers, whose relevance gets OWN_BONUS) and returns the mark.
   */
  function markFirstClass({ ids, scores }: WordMatches, plan: QueryPlan): number {
    const { exact, own } = plan.firstClassIn(parts.search().nameIndex);
    // Mark the exact id matches (few) so the comparison below is an array read, not a set lookup.
    const mark = ++generation;
    for (let i = 0; i < exact.length; i++) marks[exact[i]!] = mark;
    // The publisher's own servers (issue 43): with the exact ones, and above them by relevance.
    if (own.length > 0) {
      const ownMark = ++generation;
      for (const id of own) marks[id] = ownMark;
      for (let i = 0; i < ids.length; i++) {
        if (marks[ids[i]!] !== ownMark) continue;
        marks[ids[i]!] = mark;
        scores[i] = scores[i]! + OWN_BONUS;
      }
    }
    return mark;
  }

  function relevance(q: string): Map<number, { first: boolean; relevance: number }> {
    const plan = planOf(q);
    const names = matchReadings(plan, 'names', parts.search().nameIndex, [], buffersOf().names, buffersOf().all);
    const mark = markFirstClass(names, plan);
    const classes = new Map<number, { first: boolean; relevance: number }>();
    for (let i = 0; i < names.ids.length; i++) {
      const id = names.ids[i]!;
      classes.set(id, { first: marks[id] === mark, relevance: names.scores[i]! });
    }
    return classes;
  }

  /** The best `k` matches that `keep` accepts: relevance, then the higher trust score, then name order. */
  function rankByScore({ ids, scores }: WordMatches, k: number, keep: (id: number) => boolean = () => true): number[] {
    const { trustScore } = columns();
    const kept: number[] = [];
    for (let i = 0; i < ids.length; i++) if (keep(ids[i]!)) kept.push(i);
    if (rankAllByKeys(k, kept.length)) {
      const all = rankByKeys(kept, k, ids, scores, trustScore, undefined, rankScratch);
      if (all !== undefined) return all;
    }
    const order = matchOrder(ids, scores, trustScore);
    const best = topK(
      kept.length,
      k,
      (a, b) => order(kept[a]!, kept[b]!),
      (item, worst) => scores[kept[item]!]! < scores[kept[worst]!]!,
    );
    return best.map((i) => ids[kept[i]!]!);
  }

  return { page: searchIds, relevance };
}
