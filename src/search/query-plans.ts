/**
 * What a search works out from a query's text alone (issue 43), kept by that text as it was asked: the query
 * trimmed and its `exactKey`, its readings in each combination of indexes (`readings.ts`), and in the name
 * index the records filed under its key (the exact id matches) and its publisher's own servers. None of it
 * changes while the indexes do not, so a query asked again is one lookup before the matching: no split of its
 * words for its key (which the search before issue 43 did every time), no readings, no publisher lookup. At
 * most PLANS_KEPT queries, afresh past it, like the kept one-word rankings (`search.ts`).
 */
import { exactKey, ownerKeyOfQuery } from './words.js';
import { contentWords, domainReading, fewerWordsReadings, officialReading, sameWordsReadings } from './readings.js';
import type { WordIndex } from './word-index.js';

const PLANS_KEPT = 2000;
/** What most plans hold (no exact id match, no publisher's own, no other reading): shared, not one each. */
const NO_IDS = new Uint32Array(0);
const NO_READINGS: readonly Reading[] = [];
const idsOrNone = (ids: Uint32Array) => (ids.length > 0 ? ids : NO_IDS);

/** A reading of a query, limited for `official`'s to the publisher's own servers (ascending). */
export interface Reading {
  reading: string;
  only: Uint32Array | undefined;
}

/** The indexes a search looks in: names, descriptions, or both (each word may match either). */
export type Combination = 'names' | 'descriptions' | 'both';

/** A query's readings in one combination of indexes. */
export interface Readings {
  sameWords: readonly Reading[];
  /** Worked out when the query first matches nothing as written (most never do). */
  fewerWords: readonly Reading[] | undefined;
}

const termOf = (index: WordIndex, also: readonly WordIndex[]) => (word: string) =>
  index.hasTerm(word) || also.some((other) => other.hasTerm(word));

export class QueryPlan {
  /** The query as searched: trimmed. */
  readonly query: string;
  /** Its `exactKey`: the exact id matches are filed under it, one-word rankings kept by it. */
  readonly key: string;
  /** Whether the query has one distinct word, so its best matches may be kept by `key`. */
  readonly oneWord: boolean;
  private firstClass: { exact: Uint32Array; own: Uint32Array } | undefined = undefined;
  private readonly readings: Record<Combination, Readings | undefined> = {
    names: undefined,
    descriptions: undefined,
    both: undefined,
  };

  constructor(text: string) {
    this.query = text.trim();
    this.key = exactKey(this.query);
    this.oneWord = new Set(this.key.split(' ')).size === 1;
  }

  /** In the name index: the records filed under `key` (the exact id matches) and the publisher's own servers. */
  firstClassIn(nameIndex: WordIndex): { exact: Uint32Array; own: Uint32Array } {
    return (this.firstClass ??= {
      exact: idsOrNone(nameIndex.exact(this.key)),
      own: idsOrNone(nameIndex.exact(ownerKeyOfQuery(contentWords(this.query).join(' ')))),
    });
  }

  /** The query's same-words readings in `index` with `also`, the indexes `combination` names. */
  readingsIn(combination: Combination, index: WordIndex, also: readonly WordIndex[]): Readings {
    return (this.readings[combination] ??= {
      sameWords: readingsOf(sameWordsReadings(this.query, termOf(index, also))),
      fewerWords: undefined,
    });
  }

  /**
   * The readings with fewer words of `readings`' query (`fewerWordsReadings`, `official`'s, and a domain
   * written as words), once.
   */
  fewerWordsIn(readings: Readings, index: WordIndex, also: readonly WordIndex[]): readonly Reading[] {
    if (readings.fewerWords !== undefined) return readings.fewerWords;
    const isTerm = termOf(index, also);
    const fewer = fewerWordsReadings(this.query, isTerm).map((reading): Reading => ({ reading, only: undefined }));
    const official = officialReading(this.query);
    if (official !== undefined) {
      const own = index.exact(ownerKeyOfQuery(official));
      if (own.length > 0)
        for (const reading of [official, ...sameWordsReadings(official, isTerm)]) fewer.push({ reading, only: own });
    }
    const domain = domainReading(this.query);
    if (domain !== undefined) {
      const own = index.exact(ownerKeyOfQuery(domain.publisher));
      if (own.length > 0) fewer.push({ reading: domain.reading, only: own });
    }
    return (readings.fewerWords = fewer.length > 0 ? fewer : NO_READINGS);
  }
}

const readingsOf = (readings: string[]): readonly Reading[] =>
  readings.length > 0 ? readings.map((reading) => ({ reading, only: undefined })) : NO_READINGS;

/** The plan of a query by its text as asked, kept (at most PLANS_KEPT, afresh past it). */
export function createQueryPlans(): (text: string) => QueryPlan {
  const kept = new Map<string, QueryPlan>();
  return (text) => {
    let plan = kept.get(text);
    if (plan === undefined) {
      plan = new QueryPlan(text);
      if (kept.size >= PLANS_KEPT) kept.clear();
      kept.set(text, plan);
    }
    return plan;
  };
}
