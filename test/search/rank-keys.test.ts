/**
 * The packed-number ranking of deep search pages (`src/search/rank-keys.ts`), and the insertion ranking of a
 * few matches, against the comparison they stand for: exact id matches first, then relevance, then trust
 * score, then record id.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FEW_RANKED, rankByKeys, rankFew } from '../../src/search/rank-keys.js';

interface Match {
  id: number;
  score: number;
  trust: number;
  exact: boolean;
}

const matchesArbitrary = fc
  .uniqueArray(
    fc.record({
      id: fc.nat(5000),
      // Few distinct scores and trust values, so that ties decide often; float32 as the index stores them.
      score: fc.constantFrom(0.5, 1, 1.25, 3.75, 7, Math.fround(0.1), Math.fround(2.3)),
      trust: fc.integer({ min: 0, max: 100 }),
      exact: fc.boolean(),
    }),
    { selector: (match) => match.id, maxLength: 300 },
  )
  .map((matches): Match[] => matches);

function naive(matches: Match[], items: number[], k: number, withExact: boolean): number[] {
  return items
    .map((item) => matches[item]!)
    .sort(
      (a, b) =>
        (withExact ? Number(b.exact) - Number(a.exact) : 0) || b.score - a.score || b.trust - a.trust || a.id - b.id,
    )
    .slice(0, k)
    .map((match) => match.id);
}

function inputs(matches: Match[]) {
  const ids = Uint32Array.from(matches, (match) => match.id);
  const scores = Float32Array.from(matches, (match) => match.score);
  const trustScore = new Uint32Array(5001);
  const exactIds = new Set<number>();
  for (const match of matches) {
    trustScore[match.id] = match.trust;
    if (match.exact) exactIds.add(match.id);
  }
  return { ids, scores, trustScore, exact: (id: number) => exactIds.has(id) };
}

describe('rankByKeys', () => {
  it('orders as the comparison does, with and without exact matches, for any subset and any k', () => {
    fc.assert(
      fc.property(matchesArbitrary, fc.nat(400), fc.boolean(), fc.boolean(), (matches, k, withExact, subset) => {
        const { ids, scores, trustScore, exact } = inputs(matches);
        const items = matches.map((_, item) => item).filter((item) => !subset || item % 3 !== 1);
        const ranked = rankByKeys(items, k, ids, scores, trustScore, withExact ? exact : undefined);
        expect(ranked).toEqual(naive(matches, items, k, withExact));
      }),
    );
  });

  it('declines ids past 2^24, which the packed number cannot hold, so the caller compares instead', () => {
    const ids = Uint32Array.from([3, 2 ** 24]);
    expect(rankByKeys([0, 1], 2, ids, Float32Array.from([1, 2]), new Uint32Array(4))).toBeUndefined();
  });
});

describe('rankFew', () => {
  it('orders as the comparison does, with and without exact matches, for pages up to FEW_RANKED', () => {
    fc.assert(
      fc.property(matchesArbitrary, fc.nat(FEW_RANKED), fc.boolean(), (matches, k, withExact) => {
        const { ids, scores, trustScore, exact } = inputs(matches);
        const ranked = rankFew(ids, k, scores, trustScore, withExact ? exact : undefined);
        expect(ranked).toEqual(naive(matches, Array.from(matches.keys()), k, withExact));
      }),
      { numRuns: 500 },
    );
  });
});
