/**
 * The naive oracle of search matching, for tests: every query word must equal, begin, be the plural of, or
 * (from 4 characters) be within the typo distance of some word of the text searched.
 */
import { splitName } from '../../src/model/schema.js';
import { queryReadings } from '../../src/search/readings.js';
import {
  fuzziness,
  NAMESPACE_MARK,
  namespaceWords,
  nameWords,
  singulars,
  writesNamespace,
} from '../../src/search/words.js';

export function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}

/** Whether every word of `query` matches one of `terms` (the words of a name, a description, or both). */
export function matchesAllWords(terms: readonly string[], query: string, prefixWords: readonly string[] = []): boolean {
  const words = [...new Set(nameWords(query))];
  if (words.length === 0) return false;
  const reachable = writesNamespace(query) ? prefixWords : [];
  return words.every(
    (word) =>
      reachable.some((term) => term.startsWith(word)) ||
      terms.some((term) => {
        if (term === word || term.startsWith(word) || singulars(word).includes(term)) return true;
        const distance = fuzziness(word);
        return distance !== false && levenshtein(word, term) <= distance;
      }),
  );
}

/**
 * What a name search matches a name by: the id's words and the publisher's (`terms`), and the namespace's
 * reverse-DNS prefix words (`prefix`, unmarked), which only a query that writes a namespace reaches, as
 * written or begun, never through a typo.
 */
export function nameTerms(name: string): { terms: string[]; prefix: string[] } {
  const { namespace, id } = splitName(name);
  const { publisher, prefix } = namespaceWords(namespace);
  return { terms: [...nameWords(id), ...publisher], prefix: prefix.map((word) => word.slice(NAMESPACE_MARK.length)) };
}

/** Whether a name search for `query` matches `name`. */
export function matchesName(name: string, query: string): boolean {
  const { terms, prefix } = nameTerms(name);
  return matchesAllWords(terms, query, prefix);
}

/**
 * The items that match `query` read as `src/search/readings.ts` reads it, by the terms `known` holds: the query
 * as written and its same-words readings (compounds such as `file system` → `filesystem`); only when those
 * match no item at all, its readings with fewer words (optional words left out, and their compounds).
 */
export function matchReadings<T>(
  items: readonly T[],
  query: string,
  known: ReadonlySet<string>,
  matches: (item: T, reading: string) => boolean,
): T[] {
  const { sameWords, fewerWords } = queryReadings(query, (word) => known.has(word));
  const written = items.filter((item) => [query, ...sameWords].some((reading) => matches(item, reading)));
  if (written.length > 0) return written;
  return items.filter((item) => fewerWords.some((reading) => matches(item, reading)));
}

/** Every term a name index of `names` holds, unmarked (the marked prefix words are never a reading). */
export function nameIndexTerms(names: readonly string[]): Set<string> {
  return new Set(names.flatMap((name) => nameTerms(name).terms));
}
