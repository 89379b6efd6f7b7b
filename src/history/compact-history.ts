/**
 * The history as a server holds it: columns of small numbers instead of an object per point. Decoded into
 * objects, a million servers' history filled much of the heap, and a full garbage collection of it held the
 * event loop for a long while (docs/performance.md, "Figures behind the code"). Here a point is a few bytes:
 * its snapshot, the codes of its `scored_at`, label and flags in dictionaries, its scores as bytes, and the codes
 * of its tools hash and advisory ids when it has them (columns a history without any does not keep); a
 * server is the range of its points, found by the record id of its name (the names table's binary search)
 * or, for a server no longer in the snapshot, by a small map. Points are made back into objects, with their
 * keys in the order they were written, only when a route asks for a server or for the changes.
 *
 * A point of any other shape than the three the build writes (scored with or without sub-scores, removed)
 * keeps its server as the objects read, so nothing the file holds is lost or altered.
 */
import {
  addServerChanges,
  byName,
  changeOf,
  type HistoryPoint,
  type HistoryView,
  type ServerChange,
  type SnapshotPair,
  type SnapshotRef,
  snapshotPositions,
} from './history.js';
import { forEachJsonLine } from '../format/json-lines.js';
import { findName, type NameTable } from '../format/name-lookup.js';
import { nextSlice, type Slicer } from '../format/slicer.js';
import { Dictionary, ExtrasColumns, withoutExtras } from './compact-extras.js';

type Server = { name: string; points: HistoryPoint[] };

const WITH_SCORES = 0;
const WITHOUT_SCORES = 1;
const REMOVED = 2;
const SHAPES = [
  'snapshot_id,generated_at,scored_at,trust_score,trust_label,scores,flags',
  'snapshot_id,generated_at,scored_at,trust_score,trust_label,flags',
  'snapshot_id,generated_at,removed',
];
const SCORE_KEYS = ['provenance', 'maintenance', 'popularity', 'permissions'] as const;
const isByte = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 255;

/** The shape code of `point` when every value fits the columns, or -1. */
function shapeOf(point: unknown): number {
  if (typeof point !== 'object' || point === null || Array.isArray(point)) return -1;
  const p = point as Record<string, unknown>;
  const keys = withoutExtras(p);
  const shape = keys === undefined ? -1 : SHAPES.indexOf(keys);
  if (shape === -1 || typeof p.snapshot_id !== 'string' || typeof p.generated_at !== 'string') return -1;
  if (shape === REMOVED) return p.removed === true ? REMOVED : -1;
  if (typeof p.scored_at !== 'string' || !isByte(p.trust_score) || typeof p.trust_label !== 'string') return -1;
  if (!Array.isArray(p.flags) || !p.flags.every((flag) => typeof flag === 'string')) return -1;
  if (shape === WITH_SCORES) {
    const scores = p.scores as Record<string, unknown> | null;
    if (typeof scores !== 'object' || scores === null || Object.keys(scores).join(',') !== SCORE_KEYS.join(','))
      return -1;
    if (!SCORE_KEYS.every((key) => isByte(scores[key]))) return -1;
  }
  return shape;
}

/**
 * Read `bytes` (the history artifact, already checked against the manifest) into its compact form, a slice
 * at a time. `names` is the snapshot's names table, by which a current server's points are found.
 */
export async function decodeCompactHistory(bytes: Buffer, slicer: Slicer, names: NameTable): Promise<HistoryView> {
  let snapshots: SnapshotRef[] = [];
  const snapshotPairs = new Dictionary();
  const scoredAts = new Dictionary();
  const labels = new Dictionary();
  const flagNames = new Dictionary();
  // Per point (plain arrays while reading, typed once read).
  const shape: number[] = [];
  const pair: number[] = [];
  const scoredAt: number[] = [];
  const trust: number[] = [];
  const label: number[] = [];
  const scores: number[] = [];
  const flagsEnd: number[] = [];
  const flagCodes: number[] = [];
  const extras = new ExtrasColumns();
  // Per server: where its points end, its stored name when it differs from the record's, and the rest.
  const pointsEnd: number[] = [];
  const serverOfRecord = new Int32Array(names.length).fill(-1);
  const others = new Map<string, number>();
  const storedNames = new Map<number, string>();
  const verbatim = new Map<number, Server>();
  let cursor = 0;

  function addServer(key: string, server: Server): void {
    const index = pointsEnd.length;
    // Servers are written in name order, as the records are: the next record is the usual match.
    let id: number | undefined = cursor < names.length && names.at(cursor).toLowerCase() === key ? cursor : undefined;
    id ??= findName(names, key);
    if (id !== undefined && names.at(id).toLowerCase() === key && serverOfRecord[id] === -1) {
      serverOfRecord[id] = index;
      cursor = id + 1;
      if (server.name !== names.at(id)) storedNames.set(index, server.name);
    } else {
      others.set(key, index);
      storedNames.set(index, server.name);
    }
    const points = Array.isArray(server.points) ? server.points : [];
    const shapes = points.map(shapeOf);
    if (!Array.isArray(server.points) || shapes.includes(-1) || typeof server.name !== 'string') {
      verbatim.set(index, server);
      pointsEnd.push(shape.length);
      return;
    }
    points.forEach((point, n) => {
      shape.push(shapes[n]!);
      pair.push(snapshotPairs.code(`${point.snapshot_id}\n${point.generated_at}`));
      if (!('removed' in point)) {
        scoredAt.push(scoredAts.code(point.scored_at));
        trust.push(point.trust_score);
        label.push(labels.code(point.trust_label));
        for (const key of SCORE_KEYS) scores.push(shapes[n] === WITH_SCORES ? point.scores[key] : 0);
        for (const flag of point.flags) flagCodes.push(flagNames.code(flag));
        extras.add(point);
      } else {
        extras.add(undefined);
        scoredAt.push(0);
        trust.push(0);
        label.push(0);
        scores.push(0, 0, 0, 0);
      }
      flagsEnd.push(flagCodes.length);
    });
    pointsEnd.push(shape.length);
  }

  await forEachJsonLine(bytes, slicer, (line) => {
    if (line.name === 'snapshots') {
      if ('value' in line) snapshots = line.value as SnapshotRef[];
      else if ('items' in line) snapshots.push(...(line.items as SnapshotRef[]));
    } else if (line.name === 'servers') {
      const entries = 'entries' in line ? line.entries : Object.entries((line as { value: object }).value ?? {});
      for (const [key, server] of entries) addServer(key, server as Server);
    }
  });

  const columns = {
    shape: Uint8Array.from(shape),
    pair: Uint32Array.from(pair),
    scoredAt: Uint32Array.from(scoredAt),
    trust: Uint8Array.from(trust),
    label: Uint32Array.from(label),
    scores: Uint8Array.from(scores),
    flagsEnd: Uint32Array.from(flagsEnd),
    flagCodes: Uint32Array.from(flagCodes),
    pointsEnd: Uint32Array.from(pointsEnd),
  };
  extras.finish();
  const pairs = snapshotPairs.values.map((text) => text.split('\n') as [string, string]);

  function pointAt(p: number): HistoryPoint {
    const [snapshot_id, generated_at] = pairs[columns.pair[p]!]!;
    const kind = columns.shape[p]!;
    if (kind === REMOVED) return { snapshot_id, generated_at, removed: true };
    const flags = Array.from(
      columns.flagCodes.subarray(p === 0 ? 0 : columns.flagsEnd[p - 1]!, columns.flagsEnd[p]!),
      (code) => flagNames.values[code]!,
    );
    const scored_at = scoredAts.values[columns.scoredAt[p]!]!;
    const trust_score = columns.trust[p]!;
    const trust_label = labels.values[columns.label[p]!]!;
    if (kind === WITHOUT_SCORES)
      return { snapshot_id, generated_at, scored_at, trust_score, trust_label, flags, ...extras.of(p) } as HistoryPoint;
    const [provenance, maintenance, popularity, permissions] = columns.scores.subarray(p * 4, p * 4 + 4);
    return {
      snapshot_id,
      generated_at,
      scored_at,
      trust_score,
      trust_label,
      scores: {
        provenance: provenance!,
        maintenance: maintenance!,
        popularity: popularity!,
        permissions: permissions!,
      },
      flags,
      ...extras.of(p),
    };
  }

  function serverAt(index: number, recordId: number | undefined): Server {
    const kept = verbatim.get(index);
    if (kept !== undefined) return kept;
    const points: HistoryPoint[] = [];
    for (let p = index === 0 ? 0 : columns.pointsEnd[index - 1]!; p < columns.pointsEnd[index]!; p++)
      points.push(pointAt(p));
    return { name: nameOf(index, recordId), points };
  }

  const nameOf = (index: number, recordId: number | undefined) => storedNames.get(index) ?? names.at(recordId!);
  const flagsOf = (p: number) =>
    columns.flagCodes.subarray(p === 0 ? 0 : columns.flagsEnd[p - 1]!, columns.flagsEnd[p]!);
  const sameFlags = (a: number, b: number) => {
    if (a === b) return true;
    const { flagCodes, flagsEnd } = columns;
    const x = a === 0 ? 0 : flagsEnd[a - 1]!;
    const y = b === 0 ? 0 : flagsEnd[b - 1]!;
    const length = flagsEnd[a]! - x;
    if (length !== flagsEnd[b]! - y) return false;
    for (let i = 0; i < length; i++) if (flagCodes[x + i] !== flagCodes[y + i]) return false;
    return true;
  };
  /** What a change compares of point `p`, or undefined for none or a removal. */
  const stateOf = (p: number) =>
    p === -1
      ? undefined
      : {
          trust_score: columns.trust[p]!,
          trust_label: labels.values[columns.label[p]!]!,
          flags: Array.from(flagsOf(p), (code) => flagNames.values[code]!),
          ...extras.of(p),
        };

  /**
   * Every pair's changes from the columns: a server's state at a snapshot is a point found by its position,
   * and only a server whose score, label or flags differ is made into objects (`changeOf` decides, as for
   * the object form). A million servers cost one walk of small numbers, which `step` takes a number of
   * servers at a time.
   */
  function changeWalk(pairs: readonly SnapshotPair[]) {
    const order = snapshotPositions({ snapshots });
    // Each point's snapshot (id and time) → its position among the kept snapshots (unknown: oldest of all).
    const position = Float64Array.from(
      snapshotPairs.values,
      (text) => order.get(text.slice(0, text.indexOf('\n'))) ?? Infinity,
    );
    const results = pairs.map((): ServerChange[] => []);
    const visit = (index: number, recordId: number | undefined) => {
      const kept = verbatim.get(index);
      if (kept !== undefined) return addServerChanges(kept, order, pairs, results);
      const start = index === 0 ? 0 : columns.pointsEnd[index - 1]!;
      const end = columns.pointsEnd[index]!;
      // The newest point not newer than snapshot `at`; -1 for none, or when it is a removal.
      const stateAt = (at: number) => {
        for (let p = start; p < end; p++)
          if (position[columns.pair[p]!]! >= at) return columns.shape[p] === REMOVED ? -1 : p;
        return -1;
      };
      for (let i = 0; i < pairs.length; i++) {
        const before = stateAt(pairs[i]![0]);
        const now = stateAt(pairs[i]![1]);
        if (before === -1 && now === -1) continue;
        const unchanged =
          before === now ||
          (before !== -1 &&
            now !== -1 &&
            columns.trust[before] === columns.trust[now] &&
            columns.label[before] === columns.label[now] &&
            sameFlags(before, now) &&
            extras.same(before, now));
        if (unchanged) continue;
        const change = changeOf(nameOf(index, recordId), stateOf(before), stateOf(now));
        if (change !== undefined) results[i]!.push(change);
      }
    };
    // Current servers by record id, then the others.
    const rest = [...others.values()];
    let id = 0;
    let other = 0;
    return {
      /** Walks up to `count` more servers; true once every server is walked. */
      step(count: number): boolean {
        for (let walked = 0; walked < count;) {
          if (id < serverOfRecord.length) {
            const index = serverOfRecord[id]!;
            if (index !== -1) {
              visit(index, id);
              walked++;
            }
            id++;
          } else if (other < rest.length) {
            visit(rest[other++]!, undefined);
            walked++;
          } else return true;
        }
        return id >= serverOfRecord.length && other >= rest.length;
      },
      results: () => results.map(byName),
    };
  }

  function changesBetweenPairs(pairs: readonly SnapshotPair[]): ServerChange[][] {
    const walk = changeWalk(pairs);
    walk.step(Infinity);
    return walk.results();
  }

  /** `serversPerStep` servers are walked between checks of the slicer's budget. */
  async function changesBetweenPairsSliced(
    pairs: readonly SnapshotPair[],
    slicer: Slicer,
    serversPerStep = 1024,
  ): Promise<ServerChange[][]> {
    const walk = changeWalk(pairs);
    while (!walk.step(serversPerStep)) await nextSlice(slicer);
    return walk.results();
  }

  return {
    snapshots,
    changesBetweenPairs,
    changesBetweenPairsSliced,
    server(key) {
      const id = findName(names, key);
      if (id !== undefined && names.at(id).toLowerCase() === key && serverOfRecord[id] !== -1)
        return serverAt(serverOfRecord[id]!, id);
      const other = others.get(key);
      return other === undefined ? undefined : serverAt(other, undefined);
    },
    *servers() {
      for (let id = 0; id < serverOfRecord.length; id++)
        if (serverOfRecord[id] !== -1) yield serverAt(serverOfRecord[id]!, id);
      for (const index of others.values()) yield serverAt(index, undefined);
    },
  };
}
