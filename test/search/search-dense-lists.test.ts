/**
 * Search confirms candidates against long lists through their bit sets (`dense-postings.ts`), and tests
 * the first word's records against the later words' sets before scoring them: the same pages, in the same
 * order, with the same totals as walking and probing the lists, for names, descriptions and both, deep
 * pages included, whether every list has a set or only the longer ones (a word's terms mixed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateRecords } from '../../src/bench/synthetic.js';
import { splitName } from '../../src/model/schema.js';
import type { QueryEngine } from '../../src/query/types.js';
import { loadObjectEngine } from '../support/engine.js';
import { buildTestSnapshot } from '../support/records.js';

let lists: QueryEngine;
let bits: QueryEngine;
let someBits: QueryEngine;
let queries: string[];

beforeAll(async () => {
  const records = generateRecords(4000, 11);
  const dir = await buildTestSnapshot(records);
  // Every list a bit set, against none (the default needs 1,024 ids, which few lists here reach).
  lists = await loadObjectEngine(dir, { denseListMinIds: 1_000_000 });
  bits = await loadObjectEngine(dir, { denseListMinIds: 1 });
  // Lists of 300 ids or more as sets: a word's common terms beside its rarer typos and prefixes.
  someBits = await loadObjectEngine(dir, { denseListMinIds: 300 });
  const ids = records.map((record) => splitName(record.name).id);
  queries = [
    ...ids.filter((_, i) => i % 40 === 0),
    ...['mcp', 'server tools', 'github mcp', 'postgrse', 'slack tols', 'manage files', 'data api', 'aws'],
  ];
});

afterAll(() => {
  lists.close();
  bits.close();
  someBits.close();
});

describe('search through bit sets of long lists', () => {
  it('gives the pages that walking and probing give', () => {
    for (const q of queries) {
      for (const fields of [['name'], ['description'], ['name', 'description']] as const) {
        for (const [limit, offset] of [
          [10, 0],
          [50, 0],
          [20, 40],
        ] as const) {
          const expected = lists.searchIds(q, limit, { offset, in: [...fields] });
          expect(bits.searchIds(q, limit, { offset, in: [...fields] }), `${q} ${fields.join(',')}`).toEqual(expected);
          expect(someBits.searchIds(q, limit, { offset, in: [...fields] }), `${q} ${fields.join(',')}`).toEqual(
            expected,
          );
        }
      }
    }
    // The queries reach the bit sets' path with matches to confirm, not only empty pages.
    expect(queries.filter((q) => lists.searchIds(q, 10).total > 1).length).toBeGreaterThan(50);
  });
});
