/**
 * `list` against a naive oracle (filter, sort with the tie-break, slice) on random datasets and random
 * queries: whatever path the engine takes (plain slice, walk of an order, sort by rank), the page and the
 * total must be exactly the oracle's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labelForScore, SORT_FIELDS, type ListParams, type ServerRecord } from '../../src/model/schema.js';
import { loadObjectEngine } from '../support/engine.js';
import { buildTestSnapshot, makeRecord } from '../support/records.js';

const FLAGS = ['NO_SOURCE', 'DEAD_ENTRY', 'SENSITIVE_CRED_REQUEST', 'REPO_ARCHIVED'];
const TARGETS = ['GitHub', 'Slack', 'PostgreSQL'];
const NAMESPACES = ['io.github.alice', 'IO.GitHub.Bob', 'com.acme', 'ai.zed', 'dev.é'];
const ID_CHARS = ['a', 'B', 'c', '-', '_', '.', '1', 'é', 'Z', '😀', '\uFFFD'];

/** Code-point order, written independently of the engine's comparison. */
function byCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}
const byName = (a: ServerRecord, b: ServerRecord) =>
  byCodePoints(a.name.toLowerCase(), b.name.toLowerCase()) || byCodePoints(a.name, b.name);

function sortKey(record: ServerRecord, field: ListParams['sort']): number | string {
  switch (field) {
    case 'trust_score':
      return record.trust_score;
    case 'name':
      return 0; // compared with byName below
    case 'namespace':
      return record.name.slice(0, record.name.indexOf('/')).toLowerCase();
    case 'scored_at':
      return Date.parse(record.scored_at);
    default:
      return record.scores[field];
  }
}

function oracle(records: ServerRecord[], params: ListParams): { names: string[]; total: number } {
  const wantedFlags =
    params.flags
      ?.split(',')
      .map((f) => f.trim().toLowerCase())
      .filter(Boolean) ?? [];
  const matches = records.filter(
    (r) =>
      (params.min_score === undefined || r.trust_score >= params.min_score) &&
      wantedFlags.every((f) => r.flags.some((g) => g.toLowerCase() === f)) &&
      (params.target === undefined || r.targets.some((t) => t.toLowerCase() === params.target!.trim().toLowerCase())) &&
      (params.namespace === undefined ||
        r.name.slice(0, r.name.indexOf('/')).toLowerCase() === params.namespace.trim().toLowerCase()),
  );
  matches.sort((a, b) => {
    const x = sortKey(a, params.sort);
    const y = sortKey(b, params.sort);
    const cmp =
      params.sort === 'name'
        ? byName(a, b)
        : typeof x === 'number' && typeof y === 'number'
          ? x - y
          : byCodePoints(String(x), String(y));
    return (params.order === 'asc' ? cmp : -cmp) || byName(a, b);
  });
  return {
    names: matches.slice(params.offset, params.offset + params.limit).map((r) => r.name),
    total: matches.length,
  };
}

const recordArbitrary = fc
  .record({
    namespace: fc.constantFrom(...NAMESPACES),
    id: fc.array(fc.constantFrom(...ID_CHARS), { minLength: 1, maxLength: 5 }).map((chars) => chars.join('')),
    trust: fc.integer({ min: 0, max: 100 }),
    sub: fc.tuple(
      fc.integer({ min: 0, max: 100 }),
      fc.integer({ min: 0, max: 100 }),
      fc.integer({ min: 0, max: 100 }),
      fc.integer({ min: 0, max: 100 }),
    ),
    flags: fc.subarray(FLAGS),
    targets: fc.subarray(TARGETS),
    day: fc.integer({ min: 1, max: 3 }),
  })
  .map((r) =>
    makeRecord({
      name: `${r.namespace}/${r.id}`,
      trust_score: r.trust,
      trust_label: labelForScore(r.trust),
      scores: { provenance: r.sub[0], maintenance: r.sub[1], popularity: r.sub[2], permissions: r.sub[3] },
      flags: r.flags,
      targets: r.targets,
      scored_at: `2026-01-0${r.day}T00:00:00${r.day === 2 ? '.500' : ''}Z`,
    }),
  );

const datasetArbitrary = fc.uniqueArray(recordArbitrary, {
  minLength: 0,
  maxLength: 60,
  selector: (record) => record.name.toLowerCase(),
});

const paramsArbitrary = fc.record(
  {
    limit: fc.integer({ min: 1, max: 200 }),
    offset: fc.oneof(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 100 })),
    sort: fc.constantFrom(...SORT_FIELDS),
    order: fc.constantFrom('asc' as const, 'desc' as const),
    min_score: fc.integer({ min: 0, max: 100 }),
    flags: fc
      .subarray([...FLAGS, 'UNKNOWN_FLAG'], { minLength: 1, maxLength: 2 })
      .chain((flags) => fc.constantFrom(flags.join(','), flags.join(' , ').toLowerCase())),
    target: fc.constantFrom(...TARGETS, 'slack', 'Nowhere'),
    namespace: fc.constantFrom(...NAMESPACES, 'io.github.ALICE', 'none.such'),
  },
  { requiredKeys: ['limit', 'offset', 'sort', 'order'] },
) as fc.Arbitrary<ListParams>;

describe('list agrees with a naive oracle', () => {
  it('returns the oracle page and total for random datasets and random queries', async () => {
    await fc.assert(
      fc.asyncProperty(
        datasetArbitrary,
        fc.array(paramsArbitrary, { minLength: 1, maxLength: 25 }),
        async (records, queries) => {
          const dir = await buildTestSnapshot(records);
          // As served, and with every filter list in its dense form (bit set and score counts).
          for (const engine of [await loadObjectEngine(dir), await loadObjectEngine(dir, { denseFilterMinSize: 1 })]) {
            for (const params of queries) {
              const expected = oracle(records, params);
              const page = engine.list(params);
              expect({ names: page.items.map((r) => r.name), total: page.total }).toEqual(expected);
              const json = engine.listJson(params);
              expect(json.total).toBe(expected.total);
              expect((JSON.parse(json.json) as ServerRecord[]).map((r) => r.name)).toEqual(expected.names);
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('agrees on a larger dataset where filtered pages take the walk and the rank-sort paths', async () => {
    const records: ServerRecord[] = [];
    const seen = new Set<string>();
    for (const record of fc.sample(recordArbitrary, { numRuns: 6000, seed: 7 })) {
      const key = record.name.toLowerCase();
      if (!seen.has(key)) {
        seen.add(key);
        records.push(record);
      }
    }
    const dir = await buildTestSnapshot(records);
    const engine = await loadObjectEngine(dir);
    for (const params of fc.sample(paramsArbitrary, { numRuns: 400, seed: 11 })) {
      const expected = oracle(records, params);
      const page = engine.list(params);
      expect({ names: page.items.map((r) => r.name), total: page.total }).toEqual(expected);
    }
    // One filter a large share of the records carry (a flag: about 1,850 of the 4,055 here), with and
    // without min_score, shallow and deep: as served, and with such lists in their dense form (the bit-set
    // walk from the block its page starts in, by the filter's block counts, or the rank sort).
    const dense = await loadObjectEngine(dir, { denseFilterMinSize: 1024 }); // the same snapshot, served so
    const single = fc.record({
      sort: fc.constantFrom(...SORT_FIELDS),
      order: fc.constantFrom('asc' as const, 'desc' as const),
      flags: fc.constantFrom(...FLAGS),
      min_score: fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
      offset: fc.oneof(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: records.length })),
      limit: fc.integer({ min: 1, max: 200 }),
    });
    for (const params of fc.sample(single, { numRuns: 300, seed: 17 })) {
      const expected = oracle(records, params);
      for (const served of [engine, dense]) {
        const page = served.list(params);
        expect({ names: page.items.map((r) => r.name), total: page.total }).toEqual(expected);
      }
    }
    // Deep pages of a min_score filter alone skip whole blocks of 1,024 positions of the order by their
    // counts: every page boundary, near one and past the end.
    const deep = fc.record({
      sort: fc.constantFrom(...SORT_FIELDS),
      order: fc.constantFrom('asc' as const, 'desc' as const),
      min_score: fc.integer({ min: 0, max: 100 }),
      offset: fc.oneof(
        fc.integer({ min: 0, max: records.length }),
        fc.constantFrom(1023, 1024, 1025, 2047, 2048, 4096),
      ),
      limit: fc.integer({ min: 1, max: 200 }),
    });
    for (const params of fc.sample(deep, { numRuns: 300, seed: 13 })) {
      const page = engine.list(params);
      expect({ names: page.items.map((r) => r.name), total: page.total }).toEqual(oracle(records, params));
    }
  }, 60_000); // 17 to 28 s on a busy two-core host, a few hundred oracle pages over 4,055 records
});
