/**
 * A word's best matches are kept in rank order when it has more than a page can hold (`search.ts`): every
 * page asked afterwards, in any order and letter case, is the page a fresh engine ranks for it, totals
 * included; pages past the kept matches and other queries are ranked as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateRecords } from '../../src/bench/synthetic.js';
import type { QueryEngine } from '../../src/query/types.js';
import { loadObjectEngine } from '../support/engine.js';
import { buildTestSnapshot } from '../support/records.js';

let dir: string;
let warm: QueryEngine;

beforeAll(async () => {
  dir = await buildTestSnapshot(generateRecords(5000, 3));
  warm = await loadObjectEngine(dir);
});

afterAll(() => warm.close());

/** The page a fresh engine gives: nothing kept from an earlier search. */
async function fresh(q: string, limit: number, offset: number) {
  const engine = await loadObjectEngine(dir);
  try {
    return engine.searchIds(q, limit, { offset });
  } finally {
    engine.close();
  }
}

describe('a common word searched again', () => {
  it('gives the pages a fresh engine ranks, in any order', async () => {
    // Words with more than 1,000 matches (a page can go past the kept ones) and with 201 to 1,000 (all kept).
    const totals = ['mcp', 'server', 'tools', 'connector', 'bridge', 'github', 'slack'].map(
      (word) => [word, (warm.searchIds(word, 1) as { total: number }).total] as const,
    );
    const common = totals.filter(([, total]) => total > 200).map(([word]) => word);
    expect(totals.some(([, total]) => total > 1000)).toBe(true);
    expect(totals.some(([, total]) => total > 200 && total <= 1000)).toBe(true);
    for (const word of common) {
      const total = warm.searchIds(word, 1).total;
      const asked: [string, number, number][] = [
        [word, 10, 0],
        [word.toUpperCase(), 20, 40],
        [word, 50, 950], // the last page within the kept matches
        [word, 20, 990], // past them: ranked as before
        [`  ${word} `, 10, 500],
        [word, 100, 0],
        [word, 20, total - 5], // the last page
        [word, 20, total + 10], // past the end: empty
      ];
      for (const [q, limit, offset] of asked) {
        expect(warm.searchIds(q, limit, { offset }), `${q} ${limit} ${offset}`).toEqual(await fresh(q, limit, offset));
      }
    }
    for (const q of ['kubernetes', 'mcp server', 'mcp mcp']) {
      expect(warm.searchIds(q, 20, { offset: 10 })).toEqual(await fresh(q, 20, 10));
    }
  });
});
