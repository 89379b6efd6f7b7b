/**
 * Word search, fast at any size, over a word artifact (`src/search/word-index-writer.ts`: the name index
 * `search.bin`, and the description index `descriptions.bin` in the same layout): every term's
 * record ids and static BM25 scores as typed arrays, made at build time from MiniSearch's index, and the
 * terms in code-unit order (`sorted-terms.ts`: binary searches for exact and prefix lookups, a trie in
 * typed arrays for typos). MiniSearch's own `search()` scores every matching document through Maps and
 * sorts them all; for a word found in most names (`mcp`, `github`) that costs tens of milliseconds at
 * 100,000 records. Here words are combined with AND in flat arrays (a common word's long lists as bit sets,
 * `dense-postings.ts`), and only the requested page is sorted.
 *
 * Relevance: for each query word, the best of its expansions (the word itself weight 1, and so its singular
 * when it is a plural, a longer word it begins `PREFIX_WEIGHT`, one within the typo distance `FUZZY_WEIGHT`),
 * summed over words; a term's score is BM25 over the id (boost 3) and namespace (boost 1) fields (the
 * description, boost 1, in the description index). A search over names and descriptions gives each query
 * word the expansions of both indexes, so each word may match either.
 */
import { decodeU32 } from '../format/binary.js';
import {
  KeyedPostings,
  PostingTable,
  type PostingTableRanges,
  StringTable,
  type StringTableRanges,
} from '../format/tables.js';
import {
  FUZZY_WEIGHT,
  fuzziness,
  NAMESPACE_MARK,
  nameWords,
  PREFIX_WEIGHT,
  singulars,
  writesNamespace,
} from './words.js';
import type { Slicer } from '../format/slicer.js';
import { DensePostings, inEvery } from './dense-postings.js';
import { binarySearch } from './sorted-ids.js';
import { SortedTerms } from './sorted-terms.js';

/** Words whose expansions are kept; past it the cache starts afresh (simpler than LRU, as good here). */
const EXPANSION_CACHE_SIZE = 10_000;
/** A longer query keeps its first 32 words (a name has far fewer). */
const MAX_QUERY_WORDS = 32;

/** One term's documents and their static scores, ids ascending. */
type TermPostings = WordMatches;

/** A term a query word matches: its number in the artifact, and the weight of the match. */
type Expansion = { at: number; weight: number };

/** A term a query word matches, with its postings, in the index that holds it. */
interface ExpandedTerm {
  postings: TermPostings;
  weight: number;
  at: number;
  index: WordIndex;
}
/** Each query word's terms, and how many ids their postings hold in all. */
type Expanded = { terms: ExpandedTerm[]; size: number }[];

export interface WordMatches {
  /** Matching record ids and their relevance, parallel arrays. */
  ids: Uint32Array;
  scores: Float32Array;
}

/**
 * Where a caller wants its matches written (views of these come back), so that a search allocates nothing
 * per query: a word in most names matches hundreds of thousands of records at a million, megabytes a query
 * that the collector would otherwise have to take back. Each holds `documentCount` entries.
 */
export interface MatchBuffers {
  ids: Uint32Array;
  scores: Float32Array;
}

export const matchBuffers = (documentCount: number): MatchBuffers => ({
  ids: new Uint32Array(documentCount),
  scores: new Float32Array(documentCount),
});

interface Directory {
  document_count: number;
  terms: StringTableRanges;
  term_postings: PostingTableRanges;
  exact: ConstructorParameters<typeof KeyedPostings>[1];
}

export class WordIndex {
  /** Per-document scratch, reused by every query; marks (generation numbers) avoid clearing it. */
  private scratch?: {
    stamp: Uint32Array;
    best: Float32Array;
    total: Float32Array;
    /** Bit `id` set when record `id` matched every word so far (a bit set stays in the processor's cache). */
    candidates: Uint32Array;
    /** The matches so far, and this word's (record ids, in the order found). */
    touched: Uint32Array;
    next: Uint32Array;
  };
  private stamp = 0;
  private expansionCache = new Map<string, Expansion[]>();
  /**
   * Long lists as bit sets (`dense-postings.ts`), by term number, made on first use: a list of at least
   * 1/64 of the records, each a quarter of a byte a record; at most `denseBudget` bytes, the first made
   * going first (8 MB: 320 lists at 100,000 records; 16 MB at a million, 64 lists).
   */
  private denseLists = new Map<number, DensePostings>();
  private denseBytes = 0;
  private readonly denseMinIds: number;
  private readonly denseBudget: number;

  private constructor(
    readonly documentCount: number,
    /** The terms in code-unit order, a term's position its number in the artifact. */
    private readonly terms: SortedTerms,
    private readonly termPostings: PostingTable,
    private readonly exactIds: KeyedPostings,
    denseListMinIds: number | undefined,
  ) {
    this.denseMinIds = denseListMinIds ?? Math.max(1024, Math.ceil(documentCount / 64));
    this.denseBudget = Math.max(8 * 1024 * 1024, documentCount * 16);
  }

  /**
   * Read the search artifact (already checked against the manifest). The terms are read a slice at a time:
   * at a million records there are hundreds of thousands.
   */
  static async load(bytes: Buffer, slicer: Slicer, options: { denseListMinIds?: number } = {}): Promise<WordIndex> {
    const artifact = decodeU32(bytes);
    const directory = artifact.directory as Directory;
    if (typeof directory?.document_count !== 'number' || !directory.terms || !directory.exact) {
      throw new Error('not a search index');
    }
    const termText = new StringTable(artifact, directory.terms);
    const termPostings = new PostingTable(artifact, directory.term_postings);
    if (termPostings.length !== termText.length)
      throw new Error('a search index with terms and postings that disagree');
    const exact = new KeyedPostings(artifact, directory.exact);
    const terms = await SortedTerms.load(termText.length, (i) => termText.at(i), slicer);
    return new WordIndex(directory.document_count, terms, termPostings, exact, options.denseListMinIds);
  }

  /** Whether `word` is one of the index's terms, as written. */
  hasTerm(word: string): boolean {
    return this.terms.find(word) !== -1;
  }

  /** The records whose id has exactly the words of `key` (an `exactKey`), ascending. */
  exact(key: string): Uint32Array {
    return this.exactIds.get(key) ?? new Uint32Array(0);
  }

  private postings(at: number): TermPostings {
    return { ids: this.termPostings.idsAt(at), scores: this.termPostings.scoresAt(at) };
  }

  /** Term `at`'s list (`ids`) as a bit set, when it is long enough to be worth one. */
  private dense(at: number, ids: Uint32Array): DensePostings | undefined {
    if (ids.length < this.denseMinIds) return undefined;
    let dense = this.denseLists.get(at);
    if (dense === undefined) {
      dense = new DensePostings(ids, this.documentCount);
      this.denseLists.set(at, dense);
      this.denseBytes += dense.byteLength;
      for (const [oldest, list] of this.denseLists) {
        if (this.denseBytes <= this.denseBudget) break;
        this.denseLists.delete(oldest);
        this.denseBytes -= list.byteLength;
      }
    }
    return dense;
  }

  /**
   * The index's terms that a query word matches (their numbers in the artifact), with their weights (best
   * weight per term). The typo search is the costliest step of a word's first search, and a word's
   * expansions never change, so the last EXPANSION_CACHE_SIZE words' expansions are kept, with each term's
   * number, so a search does not look its terms up again.
   */
  private expansions(word: string): Expansion[] {
    const known = this.expansionCache.get(word);
    if (known) return known;
    const terms = this.expand(word);
    if (this.expansionCache.size >= EXPANSION_CACHE_SIZE) this.expansionCache.clear();
    this.expansionCache.set(word, terms);
    return terms;
  }

  private expand(word: string): Expansion[] {
    const terms = new Map<number, number>();
    const offer = (at: number, weight: number) => {
      if ((terms.get(at) ?? 0) < weight) terms.set(at, weight);
    };
    const exact = this.terms.find(word);
    if (exact !== -1) offer(exact, 1);
    // A plural matches its singular, the same word (`singulars`).
    if (!word.startsWith(NAMESPACE_MARK)) {
      for (const singular of singulars(word)) {
        const at = this.terms.find(singular);
        if (at !== -1) offer(at, 1);
      }
    }
    this.terms.withPrefix(word, (term, at) => {
      if (term !== word) offer(at, (PREFIX_WEIGHT * word.length) / term.length);
    });
    // A marked word (a namespace's prefix) is matched as written or as a prefix, with no typos.
    const distance = word.startsWith(NAMESPACE_MARK) ? false : fuzziness(word);
    if (distance !== false) {
      this.terms.withinDistance(word, distance, (term, at, edits) => {
        if (edits > 0) offer(at, (FUZZY_WEIGHT * term.length) / (term.length + edits));
      });
    }
    return Array.from(terms, ([at, weight]) => ({ at, weight }));
  }

  /**
   * For the words after the first (the rarest), each word whose every term has a bit set, as those sets: a
   * record the first word finds counts only if it is in one set of each. The later words would drop it
   * anyway, but only after its score had been read for each of them (a cache miss a word, in a list of
   * tens of thousands); tested first, only the few records that match every word are scored. The same
   * matches and scores: the later words still score the records that pass.
   */
  private laterWordSets(expanded: readonly { terms: readonly ExpandedTerm[] }[]): DensePostings[][] {
    const filters: DensePostings[][] = [];
    for (let w = 1; w < expanded.length; w++) {
      const { terms } = expanded[w]!;
      if (!terms.every(({ postings, index }) => postings.ids.length >= index.denseMinIds)) continue;
      filters.push(terms.map(({ postings, at, index }) => index.dense(at, postings.ids)!));
    }
    return filters;
  }

  /**
   * Every record that matches all words of `query`, with its relevance: in this index, or with `also`
   * (indexes over the same records), in any of them, word by word. Reading the words and matching them are
   * apart: queries and readings come as strings of several kinds (typed, joined, cut), each a deopt when
   * first met, which then recompiles the short function that reads them, not the matching's loops.
   */
  match(query: string, also: readonly WordIndex[] = [], into?: MatchBuffers): WordMatches {
    const expanded = this.expandWords(query, also);
    return expanded === undefined ? noMatches() : this.matchExpanded(expanded, into);
  }

  /**
   * Each distinct word of `query` (the first MAX_QUERY_WORDS) with the terms it matches in each index, the
   * rarest first, so the words after it only confirm a small candidate set (AND) by probing their postings;
   * undefined when a word matches nothing.
   */
  private expandWords(query: string, also: readonly WordIndex[]): Expanded | undefined {
    const words = [...new Set(nameWords(query))].slice(0, MAX_QUERY_WORDS);
    // A namespace's prefix words (`io`, `github` of `io.github.`) only for a query that writes one.
    const forms = writesNamespace(query) ? 2 : 1;
    const expanded: Expanded = [];
    for (const word of words) {
      const terms: ExpandedTerm[] = [];
      let size = 0;
      for (let i = -1; i < also.length; i++) {
        const index = i < 0 ? this : also[i]!;
        for (let form = 0; form < forms; form++) {
          for (const { at, weight } of index.expansions(form === 0 ? word : NAMESPACE_MARK + word)) {
            const postings = index.postings(at);
            terms.push({ postings, weight, at, index });
            size += postings.ids.length;
          }
        }
      }
      expanded.push({ terms, size });
    }
    expanded.sort((a, b) => a.size - b.size);
    return expanded.length === 0 || expanded[0]!.size === 0 ? undefined : expanded;
  }

  /** The records that match every one of `expanded`'s words (see `match`), the rarest word first. */
  private matchExpanded(expanded: Expanded, into: MatchBuffers | undefined): WordMatches {
    const count = this.documentCount;
    this.scratch ??= {
      stamp: new Uint32Array(count),
      best: new Float32Array(count),
      total: new Float32Array(count),
      candidates: new Uint32Array(Math.ceil(count / 32)),
      touched: new Uint32Array(count),
      next: new Uint32Array(count),
    };
    const { stamp, best, total, candidates, touched, next } = this.scratch;
    const filters = this.laterWordSets(expanded);

    // The matches of the words so far, in `touched[0..matched)`; `candidates` holds them for the next word.
    let matched = 0;
    for (let w = 0; w < expanded.length; w++) {
      const mark = ++this.stamp;
      const previous = touched.subarray(0, matched);
      let found = 0;
      for (const { postings, weight, at: term, index } of expanded[w]!.terms) {
        const { ids, scores } = postings;
        const dense = w > 0 && matched < ids.length ? index.dense(term, ids) : undefined;
        if (dense !== undefined || (w > 0 && matched * 16 < ids.length)) {
          // Few candidates, a long list: each candidate looked up in it, through its bit set (its rank is
          // where its score is) or by a binary search of its sorted ids.
          for (let c = 0; c < matched; c++) {
            const id = previous[c]!;
            const at = dense !== undefined ? dense.positionOf(id) : binarySearch(ids, id);
            if (at < 0) continue;
            const score = weight * scores[at]!;
            if (stamp[id] !== mark) {
              stamp[id] = mark;
              best[id] = score;
              next[found++] = id;
            } else if (score > best[id]!) best[id] = score;
          }
          continue;
        }
        // Only documents that matched every earlier word count (AND); the first word takes every document
        // that is in each later word's bit sets, when it has them (`laterWordSets`).
        const everyone = w === 0;
        for (let i = 0; i < ids.length; i++) {
          const id = ids[i]!;
          if (everyone ? !inEvery(filters, id) : (candidates[id >>> 5]! & (1 << (id & 31))) === 0) continue;
          const score = weight * scores[i]!;
          if (stamp[id] !== mark) {
            stamp[id] = mark;
            best[id] = score;
            next[found++] = id;
          } else if (score > best[id]!) best[id] = score;
        }
      }
      // The bits of the candidates so far are cleared (a whole word of bits at a time: each set bit's word is
      // cleared by its own id), so the set is empty again when this search ends.
      for (let i = 0; i < matched; i++) candidates[touched[i]! >>> 5] = 0;
      if (w === expanded.length - 1 || found === 0) {
        // The last word: its matches are the answer, with the relevance summed over the words.
        const ids = into === undefined ? next.slice(0, found) : into.ids.subarray(0, found);
        if (into !== undefined) ids.set(next.subarray(0, found));
        const scores = into === undefined ? new Float32Array(found) : into.scores.subarray(0, found);
        for (let i = 0; i < found; i++) scores[i] = (w === 0 ? 0 : total[ids[i]!]!) + best[ids[i]!]!;
        return { ids, scores };
      }
      // This word's matches are the next word's candidates.
      for (let i = 0; i < found; i++) {
        const id = next[i]!;
        total[id] = (w === 0 ? 0 : total[id]!) + best[id]!;
        candidates[id >>> 5] = candidates[id >>> 5]! | (1 << (id & 31));
      }
      touched.set(next.subarray(0, found));
      matched = found;
    }
    return noMatches();
  }
}

const noMatches = (): WordMatches => ({ ids: new Uint32Array(0), scores: new Float32Array(0) });
