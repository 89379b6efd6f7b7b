/**
 * The naive oracle of search matching, for tests: every query word must equal, begin, or (from 4
 * characters) be within the typo distance of some word of the text searched.
 */
import { fuzziness, nameWords } from '../../src/search/words.js';

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
export function matchesAllWords(terms: readonly string[], query: string): boolean {
  const words = [...new Set(nameWords(query))];
  if (words.length === 0) return false;
  return words.every((word) =>
    terms.some((term) => {
      if (term === word || term.startsWith(word)) return true;
      const distance = fuzziness(word);
      return distance !== false && levenshtein(word, term) <= distance;
    }),
  );
}
