/**
 * Name search over the MiniSearch index, fast at any size.
 *
 * MiniSearch owns the index and its serialized format (`toJSON()`, the public `AsPlainObject`): the build
 * makes it, and this module reads that plain object and MiniSearch's public radix tree
 * (`minisearch/SearchableMap`, for exact, prefix and fuzzy term lookup), never MiniSearch's internals.
 * MiniSearch's own `search()` scores every matching document through Maps and sorts them all; for a word
 * found in most names (`mcp`, `github`) that costs tens of milliseconds at 100,000 records. Here each
 * term's postings are turned once into typed arrays of record ids and static BM25 scores, words are
 * combined with AND in flat arrays, and only the requested page is sorted.
 *
 * Relevance: for each query word, the best of its expansions (the word itself weight 1, a longer word it
 * is a prefix of `PREFIX_WEIGHT`, a word within the typo distance `FUZZY_WEIGHT`), summed over words; a
 * term's score is BM25 over the id (boost 3) and namespace (boost 1) fields.
 */
import type { AsPlainObject } from 'minisearch';
import SearchableMap from 'minisearch/SearchableMap';
import { FIELD_BOOST, FUZZY_WEIGHT, fuzziness, nameWords, PREFIX_WEIGHT } from '../snapshot/search-index.js';

const BM25 = { k1: 1.2, b: 0.7 };
/** Words whose expansions are kept; past it the cache starts afresh (simpler than LRU, as good here). */
const EXPANSION_CACHE_SIZE = 10_000;
/** A longer query keeps its first 32 words (a name has far fewer). */
const MAX_QUERY_WORDS = 32;

/** One term's documents and their static scores, ids ascending. */
interface TermPostings {
  ids: Uint32Array;
  scores: Float32Array;
}

export interface NameMatches {
  /** Matching record ids and their relevance, parallel arrays. */
  ids: Uint32Array;
  scores: Float32Array;
}

/** A term's entry in MiniSearch's serialization: field id → short document id → term frequency. */
type SerializedFields = AsPlainObject['index'][number][1];

export class NameIndex {
  /** Term → its position in the serialized index, in MiniSearch's public radix tree. */
  private readonly terms: SearchableMap<number>;
  private postingsCache = new Map<string, TermPostings>();
  private expansionCache = new Map<string, Map<string, number>>();
  /** Per-document scratch, reused by every query; marks (generation numbers) avoid clearing it. */
  private scratch?: { stamp: Uint32Array; best: Float32Array; total: Float32Array; candidate: Uint32Array };
  private stamp = 0;

  private constructor(private readonly plain: AsPlainObject) {
    this.terms = new SearchableMap<number>();
    plain.index.forEach(([term], position) => this.terms.set(term, position));
  }

  /** Read an index serialized by MiniSearch's `toJSON()` (the build's `search` artifact). */
  static fromJS(js: unknown): NameIndex {
    const plain = js as AsPlainObject;
    if (!Array.isArray(plain?.index) || typeof plain.documentCount !== 'number') {
      throw new Error('the search artifact is not a serialized MiniSearch index');
    }
    return new NameIndex(plain);
  }

  /** Turn every term's postings into typed arrays now, so no query pays for it later. */
  precompute(): void {
    for (const [term] of this.plain.index) this.postings(term);
  }

  private postings(term: string): TermPostings | undefined {
    const cached = this.postingsCache.get(term);
    if (cached) return cached;
    const position = this.terms.get(term);
    if (position === undefined) return undefined;
    const fields: SerializedFields = this.plain.index[position]![1];
    const byDoc = new Map<number, number>();
    const documentCount = this.plain.documentCount;
    for (const [fieldName, fieldId] of Object.entries(this.plain.fieldIds)) {
      const docs = fields[String(fieldId)];
      if (!docs) continue;
      const entries = Object.entries(docs);
      if (entries.length === 0) continue;
      const boost = FIELD_BOOST[fieldName as keyof typeof FIELD_BOOST] ?? 1;
      const idf = Math.log(1 + (documentCount - entries.length + 0.5) / (entries.length + 0.5));
      const average = this.plain.averageFieldLength[fieldId] || 1;
      for (const [shortIdText, frequency] of entries) {
        const shortId = Number(shortIdText);
        const length = this.plain.fieldLength[shortIdText]?.[fieldId] ?? average;
        const tf = (frequency * (BM25.k1 + 1)) / (frequency + BM25.k1 * (1 - BM25.b + (BM25.b * length) / average));
        byDoc.set(shortId, (byDoc.get(shortId) ?? 0) + boost * idf * tf);
      }
    }
    const shortIds = [...byDoc.keys()].sort((a, b) => a - b);
    const ids = new Uint32Array(shortIds.length);
    const scores = new Float32Array(shortIds.length);
    shortIds.forEach((shortId, i) => {
      // Documents were added with ids 0..n-1 in order, but map through MiniSearch's table to be exact.
      ids[i] = Number(this.plain.documentIds[String(shortId)]);
      scores[i] = byDoc.get(shortId)!;
    });
    const postings = { ids, scores };
    this.postingsCache.set(term, postings);
    return postings;
  }

  /**
   * The index's terms that a query word matches, with their weights (best weight per term). Walking the
   * radix tree for typos is the costliest step of a search, and a word's expansions never change, so the
   * last EXPANSION_CACHE_SIZE words' expansions are kept.
   */
  private expansions(word: string): Map<string, number> {
    const known = this.expansionCache.get(word);
    if (known) return known;
    const terms = this.expand(word);
    if (this.expansionCache.size >= EXPANSION_CACHE_SIZE) this.expansionCache.clear();
    this.expansionCache.set(word, terms);
    return terms;
  }

  private expand(word: string): Map<string, number> {
    const terms = new Map<string, number>();
    const offer = (term: string, weight: number) => {
      if ((terms.get(term) ?? 0) < weight) terms.set(term, weight);
    };
    if (this.terms.has(word)) offer(word, 1);
    for (const term of this.terms.atPrefix(word).keys()) {
      if (term !== word) offer(term, (PREFIX_WEIGHT * word.length) / term.length);
    }
    const distance = fuzziness(word);
    if (distance !== false) {
      for (const [term, [, edits]] of this.terms.fuzzyGet(word, distance)) {
        if (edits > 0) offer(term, (FUZZY_WEIGHT * term.length) / (term.length + edits));
      }
    }
    return terms;
  }

  /** Every record whose name matches all words of `query`, with its relevance. */
  match(query: string): NameMatches {
    const words = [...new Set(nameWords(query))].slice(0, MAX_QUERY_WORDS);
    const none = { ids: new Uint32Array(0), scores: new Float32Array(0) };
    if (words.length === 0) return none;
    const count = this.plain.documentCount;
    this.scratch ??= {
      stamp: new Uint32Array(count),
      best: new Float32Array(count),
      total: new Float32Array(count),
      candidate: new Uint32Array(count),
    };
    const { stamp, best, total, candidate } = this.scratch;
    let candidateMark = 0;

    // Each word's expansions with their postings; the rarest word goes first, so the words after it only
    // have to confirm a small candidate set (AND), by probing their postings rather than walking them.
    const expanded = words.map((word) => {
      const terms: { postings: TermPostings; weight: number }[] = [];
      let size = 0;
      for (const [term, weight] of this.expansions(word)) {
        const postings = this.postings(term);
        if (!postings) continue;
        terms.push({ postings, weight });
        size += postings.ids.length;
      }
      return { terms, size };
    });
    expanded.sort((a, b) => a.size - b.size);
    if (expanded[0]!.size === 0) return none;

    let candidates: number[] = [];
    for (let w = 0; w < expanded.length; w++) {
      const mark = ++this.stamp;
      const touched: number[] = [];
      const offer = (id: number, score: number) => {
        if (stamp[id] !== mark) {
          stamp[id] = mark;
          best[id] = score;
          touched.push(id);
        } else if (score > best[id]!) best[id] = score;
      };
      for (const { postings, weight } of expanded[w]!.terms) {
        const { ids, scores } = postings;
        if (w === 0) {
          for (let i = 0; i < ids.length; i++) offer(ids[i]!, weight * scores[i]!);
        } else if (candidates.length * 16 < ids.length) {
          // Few candidates, long postings: find each candidate in the sorted ids.
          for (const id of candidates) {
            const at = binarySearch(ids, id);
            if (at >= 0) offer(id, weight * scores[at]!);
          }
        } else {
          for (let i = 0; i < ids.length; i++) {
            const id = ids[i]!;
            // Only documents that matched every earlier word count (AND).
            if (candidate[id] === candidateMark) offer(id, weight * scores[i]!);
          }
        }
      }
      for (const id of touched) total[id] = (w === 0 ? 0 : total[id]!) + best[id]!;
      // This word's matches are the next word's candidates; a fresh mark says so without clearing.
      candidateMark = ++this.stamp;
      for (const id of touched) candidate[id] = candidateMark;
      candidates = touched;
      if (touched.length === 0) break;
    }
    const ids = Uint32Array.from(candidates);
    const scores = new Float32Array(ids.length);
    for (let i = 0; i < ids.length; i++) scores[i] = total[ids[i]!]!;
    return { ids, scores };
  }
}

/** Position of `id` in the ascending `ids`, or -1. */
function binarySearch(ids: Uint32Array, id: number): number {
  let low = 0;
  let high = ids.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const value = ids[middle]!;
    if (value === id) return middle;
    if (value < id) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}
