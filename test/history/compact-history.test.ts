/**
 * The history as a server holds it (`src/history/compact-history.ts`) against the history as objects: for
 * random histories written as the build writes them, every server's name and points come back equal, their
 * JSON text identical, and the changes between any two kept snapshots the same; points of another shape
 * keep their server as read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCompactHistory } from '../../src/history/compact-history.js';
import { decodeNames, encodeNames } from '../../src/format/index-layout.js';
import { encodeHistory } from '../../src/history/history-layout.js';
import {
  changesBetween,
  changesBetweenPairs,
  changesBetweenPairsSliced,
  type HistoryArtifact,
  type HistoryPoint,
  type HistoryView,
  viewOf,
} from '../../src/history/history.js';
import { createSlicer } from '../../src/format/slicer.js';

/** Code-point order of the lower-cased names, then of the names: the records' order, written independently. */
function byName(a: string, b: string): number {
  const points = (text: string) => Array.from(text, (c) => c.codePointAt(0)!);
  const compare = (x: number[], y: number[]) => {
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
    return x.length - y.length;
  };
  return compare(points(a.toLowerCase()), points(b.toLowerCase())) || compare(points(a), points(b));
}

const SNAPSHOTS = Array.from({ length: 4 }, (_, i) => ({
  snapshot_id: `snap${i}`,
  generated_at: `2026-03-0${4 - i}T00:00:00.000Z`,
}));

const pointArbitrary: fc.Arbitrary<HistoryPoint> = fc.oneof(
  fc
    .record({
      snapshot: fc.constantFrom(...SNAPSHOTS),
      scored_at: fc.constantFrom('2026-01-01T00:00:00Z', '2026-02-02T12:30:00.123456Z'),
      // Few scores, so that a label or the flags often change alone.
      trust_score: fc.oneof(fc.constantFrom(40, 60), fc.integer({ min: 0, max: 100 })),
      trust_label: fc.constantFrom('High Trust', 'Low Trust', 'Unverified'),
      scores: fc.option(fc.tuple(fc.nat(100), fc.nat(100), fc.nat(100), fc.nat(100)), { nil: undefined }),
      flags: fc.uniqueArray(fc.constantFrom('NO_SOURCE', 'DEAD_ENTRY', 'STALE'), { maxLength: 3 }),
      // The extras of artifact version 8, present or not, each alone or both.
      tools_hash: fc.option(fc.constantFrom(`sha256:${'a'.repeat(64)}`, `sha256:${'b'.repeat(64)}`), {
        nil: undefined,
      }),
      advisories: fc.option(fc.uniqueArray(fc.constantFrom('GHSA-1', 'MAL-2'), { minLength: 1, maxLength: 2 }), {
        nil: undefined,
      }),
    })
    .map(({ snapshot, scores, tools_hash, advisories, ...rest }) => {
      const extras = {
        ...(tools_hash === undefined ? {} : { tools_hash }),
        ...(advisories === undefined ? {} : { advisories }),
      };
      const point = {
        ...snapshot,
        scored_at: rest.scored_at,
        trust_score: rest.trust_score,
        trust_label: rest.trust_label,
      };
      return (
        scores === undefined
          ? { ...point, flags: rest.flags, ...extras }
          : {
              ...point,
              scores: { provenance: scores[0], maintenance: scores[1], popularity: scores[2], permissions: scores[3] },
              flags: rest.flags,
              ...extras,
            }
      ) as HistoryPoint;
    }),
  fc.constantFrom(...SNAPSHOTS).map((snapshot) => ({ ...snapshot, removed: true as const })),
  // A shape the build does not write: its server must come back exactly as read.
  fc.constantFrom(...SNAPSHOTS).map((snapshot) => ({ ...snapshot, removed: false }) as unknown as HistoryPoint),
  fc
    .constantFrom(...SNAPSHOTS)
    .map((snapshot) => ({ ...snapshot, trust_score: 300, note: 'older tool' }) as unknown as HistoryPoint),
  // Extras out of order, or an empty list the build never writes: kept as read too.
  fc.constantFrom(...SNAPSHOTS).map(
    (snapshot) =>
      ({
        ...snapshot,
        scored_at: '2026-01-01T00:00:00Z',
        trust_score: 50,
        trust_label: 'Low Trust',
        flags: [],
        advisories: [],
      }) as unknown as HistoryPoint,
  ),
);

const historyArbitrary = fc
  .record({
    // The snapshot's records (some servers of the history are among them, in another letter case too).
    records: fc.uniqueArray(fc.stringMatching(/^[a-cA-C]{1,2}\/[a-c]{1,2}$/), {
      selector: (name) => name.toLowerCase(),
      maxLength: 12,
    }),
    servers: fc.uniqueArray(
      fc.record({
        name: fc.stringMatching(/^[a-cA-C]{1,2}\/[a-c]{1,2}$/),
        points: fc.array(pointArbitrary, { maxLength: 4 }),
      }),
      { selector: (server) => server.name.toLowerCase(), maxLength: 12 },
    ),
    snapshotCount: fc.integer({ min: 1, max: 4 }),
  })
  .map(({ records, servers, snapshotCount }) => {
    const history: HistoryArtifact = { snapshots: SNAPSHOTS.slice(0, snapshotCount), servers: {} };
    // Written in name order, as the build writes them.
    for (const server of [...servers].sort((a, b) => byName(a.name, b.name)))
      history.servers[server.name.toLowerCase()] = server;
    return { history, names: [...records, ...servers.slice(0, 4).map((server) => server.name)].sort(byName) };
  })
  .filter(({ names }) => new Set(names.map((name) => name.toLowerCase())).size === names.length);

async function compact(history: HistoryArtifact, names: string[]): Promise<HistoryView> {
  return decodeCompactHistory(
    Buffer.from(encodeHistory(history)),
    createSlicer(Infinity),
    decodeNames(encodeNames(names)),
  );
}

describe('the compact history', () => {
  it('gives back every server, its points and the changes exactly as the objects do', async () => {
    await fc.assert(
      fc.asyncProperty(historyArbitrary, async ({ history, names }) => {
        const view = await compact(history, names);
        const objects = viewOf(history);
        expect(view.snapshots).toEqual(history.snapshots);
        for (const [key, server] of Object.entries(history.servers)) {
          expect(view.server(key)).toEqual(server);
          expect(JSON.stringify(view.server(key)?.points)).toBe(JSON.stringify(server.points));
        }
        expect(view.server('zz/none')).toBeUndefined();
        const all = (v: HistoryView) => [...v.servers()].map((server) => JSON.stringify(server)).sort();
        expect(all(view)).toEqual(all(objects));
        const pairs: [number, number][] = [];
        for (let older = 0; older < history.snapshots.length; older++)
          for (let newer = 0; newer <= older; newer++) {
            expect(changesBetween(view, older, newer)).toEqual(changesBetween(objects, older, newer));
            pairs.push([older, newer]);
          }
        // Every pair in one pass (a feed's entries) gives what each pair gives alone, in one go or a
        // server at a time between turns of the event loop.
        const expected = pairs.map(([older, newer]) => changesBetween(objects, older, newer));
        expect(changesBetweenPairs(view, pairs)).toEqual(expected);
        expect(await changesBetweenPairsSliced(view, pairs, createSlicer(0), 1)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('finds a current server by its record however its letters are cased, and keeps its stored name', async () => {
    const history: HistoryArtifact = {
      snapshots: SNAPSHOTS.slice(0, 1),
      servers: { 'io.a/one': { name: 'io.A/One', points: [{ ...SNAPSHOTS[0]!, removed: true }] } },
    };
    const view = await compact(history, ['io.a/ONE', 'io.b/two']);
    expect(view.server('io.a/one')).toEqual(history.servers['io.a/one']);
  });

  it('reports a change of the label alone, of the flags alone, and not a reordering of the same flags', async () => {
    const scored = (snapshot: number, trust_label: string, flags: string[]) =>
      ({
        ...SNAPSHOTS[snapshot]!,
        scored_at: '2026-01-01T00:00:00Z',
        trust_score: 60,
        trust_label,
        flags,
      }) as HistoryPoint;
    const history: HistoryArtifact = {
      snapshots: SNAPSHOTS.slice(0, 2),
      servers: {
        'a/label': { name: 'a/label', points: [scored(0, 'High Trust', ['X']), scored(1, 'Low Trust', ['X'])] },
        'a/flags': { name: 'a/flags', points: [scored(0, 'Low Trust', ['X', 'Y']), scored(1, 'Low Trust', ['X'])] },
        'a/order': {
          name: 'a/order',
          points: [scored(0, 'Low Trust', ['Y', 'X']), scored(1, 'Low Trust', ['X', 'Y'])],
        },
        'a/swap': { name: 'a/swap', points: [scored(0, 'Low Trust', ['Y']), scored(1, 'Low Trust', ['X'])] },
      },
    };
    const view = await compact(history, ['a/flags', 'a/label', 'a/order', 'a/swap']);
    const changes = changesBetween(view, 1, 0);
    expect(changes).toEqual(changesBetween(viewOf(history), 1, 0));
    expect(changes.map((change) => [change.name, change.trust_label, change.flags_raised])).toEqual([
      ['a/flags', null, ['Y']],
      ['a/label', { from: 'Low Trust', to: 'High Trust' }, []],
      ['a/swap', null, ['Y']],
    ]);
  });
});
