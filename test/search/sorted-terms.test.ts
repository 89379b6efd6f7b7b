/**
 * The sorted terms answer as MiniSearch's radix tree (`SearchableMap`, which the word index used before)
 * answers: the same term, the same terms for a prefix, the same terms and distances within a typo distance,
 * for random vocabularies full of shared prefixes, non-ASCII and surrogate pairs included.
 */
import fc from 'fast-check';
import SearchableMap from 'minisearch/SearchableMap';
import { describe, expect, it } from 'vitest';
import { SortedTerms } from '../../src/search/sorted-terms.js';
import { createSlicer } from '../../src/format/slicer.js';
import { byCodeUnits } from '../../src/format/name-order.js';

/** The terms in the build's order, and the oracle holding the same terms with their numbers. */
async function both(words: readonly string[]) {
  const terms = [...new Set(words)].sort(byCodeUnits);
  const sorted = await SortedTerms.load(terms.length, (i) => terms[i]!, createSlicer());
  const oracle = new SearchableMap<number>();
  terms.forEach((term, i) => oracle.set(term, i));
  return { terms, sorted, oracle };
}

function prefixed(sorted: SortedTerms, word: string): [string, number][] {
  const found: [string, number][] = [];
  sorted.withPrefix(word, (term, at) => found.push([term, at]));
  return found;
}

function near(sorted: SortedTerms, word: string, distance: number): [string, number, number][] {
  const found: [string, number, number][] = [];
  sorted.withinDistance(word, distance, (term, at, edits) => found.push([term, at, edits]));
  return found;
}

const byTerm = <T extends [string, ...unknown[]]>(list: T[]) => list.sort((a, b) => byCodeUnits(a[0], b[0]));

// Few letters, so words share prefixes and fall within each other's distance; and a few wider characters.
const letter = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'é', '中', '😀', '1');
const word = fc.array(letter, { minLength: 1, maxLength: 10 }).map((letters) => letters.join(''));

describe('sorted terms', () => {
  it('find, prefix and typo searches agree with the radix tree', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(word, { minLength: 1, maxLength: 200 }),
        fc.array(word, { minLength: 1, maxLength: 20 }),
        async (vocabulary, queries) => {
          const { terms, sorted, oracle } = await both(vocabulary);
          expect(sorted.length).toBe(terms.length);
          // Asked for the terms themselves too, and for words one edit away from them.
          for (const query of [
            ...queries,
            ...vocabulary.slice(0, 10),
            ...vocabulary.slice(0, 10).map((w) => `${w}x`),
          ]) {
            expect(sorted.find(query)).toBe(oracle.get(query) ?? -1);
            const fromTree = [...oracle.atPrefix(query)].map(([term, at]): [string, number] => [term, at]);
            expect(prefixed(sorted, query)).toEqual(byTerm(fromTree));
            for (const distance of [1, 2]) {
              const fuzzy = [...oracle.fuzzyGet(query, distance)].map(
                ([term, [at, edits]]): [string, number, number] => [term, at, edits],
              );
              expect(near(sorted, query, distance)).toEqual(byTerm(fuzzy));
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('finds typos across a vocabulary of real words', async () => {
    const { sorted } = await both(['github', 'gitlab', 'postgres', 'postgresql', 'mysql', 'slack', 'stack', 'black']);
    expect(near(sorted, 'postgrse', 2).map(([term, , edits]) => [term, edits])).toEqual([['postgres', 2]]);
    expect(near(sorted, 'slakc', 2).map(([term]) => term)).toEqual(['slack']);
    expect(near(sorted, 'slacks', 1).map(([term]) => term)).toEqual(['slack']);
    expect(near(sorted, 'stacl', 2).map(([term]) => term)).toEqual(['slack', 'stack']);
    expect(prefixed(sorted, 'git').map(([term]) => term)).toEqual(['github', 'gitlab']);
    expect(sorted.find('mysql')).toBe(3);
    expect(sorted.find('mysq')).toBe(-1);
  });

  it('refuses terms out of order, which its binary searches could not search', async () => {
    const terms = ['b', 'a'];
    await expect(SortedTerms.load(2, (i) => terms[i]!, createSlicer())).rejects.toThrow(/out of order/);
    const repeated = ['a', 'a'];
    await expect(SortedTerms.load(2, (i) => repeated[i]!, createSlicer())).rejects.toThrow(/out of order/);
  });
});
