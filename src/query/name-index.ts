/**
 * Name search over the MiniSearch index, fast at any size.
 *
 * MiniSearch's own `search()` scores every matching document through Maps and sorts them all; for a word
 * found in most names (`mcp`, `github`) that costs tens of milliseconds at 100,000 records. This subclass
 * keeps MiniSearch's index, its serialization and its radix tree (for exact, prefix and fuzzy term lookup)
 * and replaces only the scoring: each term's postings are turned once into typed arrays of record ids and
 * static BM25 scores, words are combined with AND in flat arrays, and only the requested page is sorted.
 *
 * Relevance: for each query word, the best of its expansions (the word itself weight 1, a longer word it
 * is a prefix of `PREFIX_WEIGHT`, a word within the typo distance `FUZZY_WEIGHT`), summed over words; a
 * term's score is BM25 over the id (boost 3) and namespace (boost 1) fields.
 */
import MiniSearch from 'minisearch';
import { fuzziness, MINISEARCH_OPTIONS, nameWords, type NameDocument } from './search-index.js';

const PREFIX_WEIGHT = 0.5;
const FUZZY_WEIGHT = 0.35;
const BM25 = { k1: 1.2, b: 0.7 };
const FIELD_BOOST: Record<string, number> = { server: 3, namespace: 1 };
/** AND is tracked in a 32-bit mask; a longer query keeps its first 32 words. */
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

export class NameIndex extends MiniSearch<NameDocument> {
  private postingsCache = new Map<string, TermPostings>();
  private scratch?: { wordStamp: Uint32Array; wordBest: Float32Array; mask: Uint32Array; total: Float32Array; queryStamp: Uint32Array };
  private stamp = 0;

  /** Load a serialized index with the shared options. */
  static fromJS(js: unknown): NameIndex {
    const loaded = MiniSearch.loadJS<NameDocument>(js as Parameters<typeof MiniSearch.loadJS>[0], MINISEARCH_OPTIONS);
    // MiniSearch.loadJS always makes a plain MiniSearch; adopt its state (plain own properties) into ours.
    return Object.assign(new NameIndex(MINISEARCH_OPTIONS), loaded);
  }

  /** Turn every term's postings into typed arrays now, so no query pays for it later. */
  precompute(): void {
    for (const term of this._index.keys()) this.postings(term);
  }

  private postings(term: string): TermPostings | undefined {
    const cached = this.postingsCache.get(term);
    if (cached) return cached;
    const fields = this._index.get(term);
    if (!fields) return undefined;
    const byDoc = new Map<number, number>();
    const documentCount = this._documentCount;
    for (const [fieldName, fieldId] of Object.entries(this._fieldIds)) {
      const docs = fields.get(fieldId);
      if (!docs || docs.size === 0) continue;
      const boost = FIELD_BOOST[fieldName] ?? 1;
      const idf = Math.log(1 + (documentCount - docs.size + 0.5) / (docs.size + 0.5));
      const average = this._avgFieldLength[fieldId] || 1;
      for (const [shortId, frequency] of docs) {
        const length = this._fieldLength.get(shortId)?.[fieldId] ?? average;
        const tf = (frequency * (BM25.k1 + 1)) / (frequency + BM25.k1 * (1 - BM25.b + (BM25.b * length) / average));
        byDoc.set(shortId, (byDoc.get(shortId) ?? 0) + boost * idf * tf);
      }
    }
    const shortIds = [...byDoc.keys()].sort((a, b) => a - b);
    const ids = new Uint32Array(shortIds.length);
    const scores = new Float32Array(shortIds.length);
    shortIds.forEach((shortId, i) => {
      // Documents were added with ids 0..n-1 in order, but map through MiniSearch's table to be exact.
      ids[i] = this._documentIds.get(shortId) as number;
      scores[i] = byDoc.get(shortId)!;
    });
    const postings = { ids, scores };
    this.postingsCache.set(term, postings);
    return postings;
  }

  /** The index's terms that a query word matches, with their weights (best weight per term). */
  private expansions(word: string): Map<string, number> {
    const terms = new Map<string, number>();
    const offer = (term: string, weight: number) => {
      if ((terms.get(term) ?? 0) < weight) terms.set(term, weight);
    };
    if (this._index.has(word)) offer(word, 1);
    for (const term of this._index.atPrefix(word).keys()) {
      if (term !== word) offer(term, (PREFIX_WEIGHT * word.length) / term.length);
    }
    const distance = fuzziness(word);
    if (distance !== false) {
      for (const [term, [, edits]] of this._index.fuzzyGet(word, distance)) {
        if (edits > 0) offer(term, (FUZZY_WEIGHT * term.length) / (term.length + edits));
      }
    }
    return terms;
  }

  /** Every record whose name matches all words of `query`, with its relevance. */
  match(query: string): NameMatches {
    const words = [...new Set(nameWords(query))].slice(0, MAX_QUERY_WORDS);
    if (words.length === 0) return { ids: new Uint32Array(0), scores: new Float32Array(0) };
    const count = this._documentCount;
    this.scratch ??= {
      wordStamp: new Uint32Array(count),
      wordBest: new Float32Array(count),
      mask: new Uint32Array(count),
      total: new Float32Array(count),
      queryStamp: new Uint32Array(count),
    };
    const { wordStamp, wordBest, mask, total, queryStamp } = this.scratch;
    const queryMark = ++this.stamp;
    let candidates: number[] = [];

    for (let w = 0; w < words.length; w++) {
      const wordMark = ++this.stamp;
      const touched: number[] = [];
      for (const [term, weight] of this.expansions(words[w]!)) {
        const postings = this.postings(term);
        if (!postings) continue;
        const { ids, scores } = postings;
        for (let i = 0; i < ids.length; i++) {
          const id = ids[i]!;
          // AND: from the second word on, only documents that matched every earlier word count.
          if (w > 0 && (queryStamp[id] !== queryMark || mask[id] !== (1 << w) - 1 >>> 0)) continue;
          const score = weight * scores[i]!;
          if (wordStamp[id] !== wordMark) {
            wordStamp[id] = wordMark;
            wordBest[id] = score;
            touched.push(id);
          } else if (score > wordBest[id]!) wordBest[id] = score;
        }
      }
      for (const id of touched) {
        if (w === 0) {
          queryStamp[id] = queryMark;
          mask[id] = 1;
          total[id] = wordBest[id]!;
        } else {
          mask[id] = (mask[id]! | (1 << w)) >>> 0;
          total[id] = total[id]! + wordBest[id]!;
        }
      }
      candidates = touched;
      if (touched.length === 0) break;
    }
    const ids = Uint32Array.from(candidates);
    const scores = new Float32Array(ids.length);
    for (let i = 0; i < ids.length; i++) scores[i] = total[ids[i]!]!;
    return { ids, scores };
  }
}
