/**
 * Score history across snapshots, carried forward by each build made with `--previous`: per server, the
 * points where something changed (score, label, sub-scores, flags) over the last N snapshots, newest first,
 * and a removal when a server leaves the dataset. Changes between any kept snapshot and the current one
 * are computed from it (`changesSince`), so every republish's report stays answerable.
 */
import type { IndexedRecord, ServerRecord } from '../model/schema.js';
import type { RecordSummary } from './changes.js';
import type { Slicer } from '../format/slicer.js';

export const HISTORY_FILE = 'history.jsonl';
/** How many snapshots a history covers by default; the build's `--history N` sets more. */
export const DEFAULT_HISTORY_LENGTH = 90;

export interface SnapshotRef {
  snapshot_id: string;
  generated_at: string;
}

export interface ScoredPoint extends SnapshotRef {
  scored_at: string;
  trust_score: number;
  trust_label: string;
  scores: ServerRecord['scores'];
  flags: string[];
  /** The hash of the server's pinned tools (`src/model/tools.ts`), when it has any (since artifact version 8). */
  tools_hash?: string;
  /** The ids of the advisories its record keeps, in code-point order, when there are any (since version 8). */
  advisories?: string[];
}

/**
 * What a point records beyond the record's summary, which the build knows from its evidence files: the hash
 * of the server's pinned tools and the ids of its record's advisories (`tools_changed`, `advisories_added`).
 */
export interface PointExtras {
  tools_hash?: string | undefined;
  advisories?: readonly string[] | undefined;
}

/** A record's extras (none by default). */
export type ExtrasOf = (record: IndexedRecord) => PointExtras;
const NO_EXTRAS: ExtrasOf = () => ({});

export interface RemovedPoint extends SnapshotRef {
  removed: true;
}

export type HistoryPoint = ScoredPoint | RemovedPoint;

export interface HistoryArtifact {
  /** The snapshots covered, newest (the one this history belongs to) first. */
  snapshots: SnapshotRef[];
  /** Lower-cased name → the stored name and its points, newest first. */
  servers: Record<string, { name: string; points: HistoryPoint[] }>;
}

/**
 * What serving needs of a history: its snapshots, and each server's stored name and points. A build holds
 * the history as objects (`viewOf`); a server holds it compact (`compact-history.ts`).
 */
export interface HistoryView {
  readonly snapshots: readonly SnapshotRef[];
  /** The server filed under `key` (its lower-cased name). */
  server(key: string): { name: string; points: HistoryPoint[] } | undefined;
  /** Every server, in no particular order. */
  servers(): Iterable<{ name: string; points: HistoryPoint[] }>;
  /** `changesBetweenPairs`, answered by the view itself when it can do so without making every point. */
  changesBetweenPairs?(pairs: readonly SnapshotPair[]): ServerChange[][];
  /** The same, giving the event loop a turn between slices (a server's view of a large history). */
  changesBetweenPairsSliced?(
    pairs: readonly SnapshotPair[],
    slicer: Slicer,
    serversPerStep?: number,
  ): Promise<ServerChange[][]>;
}

/** Two kept snapshots by position (0 = newest): `[older, newer]`. */
export type SnapshotPair = readonly [number, number];

/** A history held as objects, seen as a HistoryView. */
export function viewOf(history: HistoryArtifact): HistoryView {
  return {
    snapshots: history.snapshots,
    server: (key) => (Object.hasOwn(history.servers, key) ? history.servers[key] : undefined),
    servers: () => Object.values(history.servers),
  };
}

const isRemoved = (point: HistoryPoint | undefined): point is RemovedPoint => point !== undefined && 'removed' in point;

function pointOf(record: RecordSummary, snapshot: SnapshotRef, extras: PointExtras = {}): ScoredPoint {
  const point: ScoredPoint = {
    snapshot_id: snapshot.snapshot_id,
    generated_at: snapshot.generated_at,
    scored_at: record.scored_at ?? snapshot.generated_at,
    trust_score: record.trust_score,
    trust_label: record.trust_label,
    scores: record.scores ?? { provenance: 0, maintenance: 0, popularity: 0, permissions: 0 },
    // Most records carry no flag or one: nothing to sort (a build makes a point for every server).
    flags: record.flags.length < 2 ? record.flags.slice() : [...record.flags].sort(),
  };
  // Written only when there are any, after the rest: a point without them keeps the compact shapes a server
  // holds most points in (`compact-history.ts`).
  if (extras.tools_hash !== undefined) point.tools_hash = extras.tools_hash;
  if (extras.advisories !== undefined && extras.advisories.length > 0) point.advisories = [...extras.advisories];
  return point;
}

/** Whether the record differs from the point in what a history records (scored_at alone is no change). */
function changed(point: HistoryPoint | undefined, record: IndexedRecord, extras: PointExtras): boolean {
  if (point === undefined || isRemoved(point)) return true;
  const flags = [...record.flags].sort().join(',');
  return (
    point.tools_hash !== extras.tools_hash ||
    (point.advisories ?? []).join(',') !== (extras.advisories ?? []).join(',') ||
    point.trust_score !== record.trust_score ||
    point.trust_label !== record.trust_label ||
    point.flags.join(',') !== flags ||
    (Object.keys(record.scores) as (keyof ServerRecord['scores'])[]).some(
      (key) => point.scores[key] !== record.scores[key],
    )
  );
}

/** A history that starts from a previous snapshot's records (one point each). */
export function seedHistory(previous: SnapshotRef & { records: readonly RecordSummary[] }): HistoryArtifact {
  const ref = { snapshot_id: previous.snapshot_id, generated_at: previous.generated_at };
  const servers: HistoryArtifact['servers'] = {};
  for (const record of previous.records)
    servers[record.name.toLowerCase()] = { name: record.name, points: [pointOf(record, ref)] };
  return { snapshots: [ref], servers };
}

/**
 * The history of the snapshot `current`: the previous history (if any) with a point for every server that
 * changed, appeared or left, then cut to the last `keep` snapshots. A server keeps its newest point from
 * before the window too: it is its state at the oldest snapshot kept.
 */
export function nextHistory(
  previous: HistoryArtifact | undefined,
  records: readonly IndexedRecord[],
  current: SnapshotRef,
  keep: number = DEFAULT_HISTORY_LENGTH,
  extrasOf: ExtrasOf = NO_EXTRAS,
): HistoryArtifact {
  const ref = { snapshot_id: current.snapshot_id, generated_at: current.generated_at };
  const snapshots = [ref, ...(previous?.snapshots ?? []).filter((s) => s.snapshot_id !== ref.snapshot_id)].slice(
    0,
    keep,
  );
  const kept = new Set(snapshots.map((snapshot) => snapshot.snapshot_id));
  const servers: HistoryArtifact['servers'] = {};
  if (previous === undefined) {
    // A first history: one point each, all in the one snapshot kept, nothing to carry or cut.
    for (const record of records)
      servers[record.name.toLowerCase()] = { name: record.name, points: [pointOf(record, ref, extrasOf(record))] };
    return { snapshots, servers };
  }
  const present = new Set<string>();
  for (const record of records) {
    const key = record.name.toLowerCase();
    present.add(key);
    const before = previous.servers[key]?.points ?? [];
    const extras = extrasOf(record);
    const points = changed(before[0], record, extras) ? [pointOf(record, ref, extras), ...before] : [...before];
    servers[key] = { name: record.name, points };
  }
  for (const [key, entry] of Object.entries(previous.servers)) {
    if (present.has(key)) continue;
    const points = isRemoved(entry.points[0])
      ? [...entry.points]
      : [{ ...ref, removed: true as const }, ...entry.points];
    servers[key] = { name: entry.name, points };
  }
  for (const [key, entry] of Object.entries(servers)) {
    const inside = entry.points.filter((point) => kept.has(point.snapshot_id));
    const before = entry.points.find((point) => !kept.has(point.snapshot_id));
    const points = before === undefined ? inside : [...inside, before];
    // A server removed before the window began has nothing left to say.
    if (points.length === 0 || (inside.length === 0 && isRemoved(before))) delete servers[key];
    else entry.points = points;
  }
  return { snapshots, servers };
}

export interface ServerChange {
  name: string;
  added: boolean;
  removed: boolean;
  trust_score: { from: number; to: number } | null;
  trust_label: { from: string; to: string } | null;
  flags_raised: string[];
  flags_cleared: string[];
  /** The server's pinned tools' hash, when it had one at both snapshots and it differs (`tools_changed`). */
  tools_changed: { from: string; to: string } | null;
  /** Ids of the advisories its record keeps now and did not before (`advisory_added`), in code-point order. */
  advisories_added: string[];
}

/** The state of a server at snapshot position `index` (0 = newest): its newest point not newer than that. */
function stateAt(
  points: readonly HistoryPoint[],
  order: ReadonlyMap<string, number>,
  index: number,
): ScoredPoint | undefined {
  const point = points.find((candidate) => (order.get(candidate.snapshot_id) ?? Number.POSITIVE_INFINITY) >= index);
  return point === undefined || isRemoved(point) ? undefined : point;
}

/**
 * What changed for each server between the kept snapshot `since` and the newest one, by name; undefined when
 * `since` is not a snapshot this history holds.
 */
export function changesSince(history: HistoryView, since: string): ServerChange[] | undefined {
  const index = history.snapshots.findIndex((snapshot) => snapshot.snapshot_id === since);
  return index === -1 ? undefined : changesBetween(history, index, 0);
}

/** What changed between the kept snapshots at positions `older` and `newer` (0 = newest), by name. */
export function changesBetween(history: HistoryView, older: number, newer: number): ServerChange[] {
  return changesBetweenPairs(history, [[older, newer]])[0]!;
}

/**
 * What changed between each pair of kept snapshots (`[older, newer]` positions), by name, in one pass over the
 * servers: a feed of the last 50 republishes costs one walk of a million servers, not fifty.
 */
export function changesBetweenPairs(history: HistoryView, pairs: readonly SnapshotPair[]): ServerChange[][] {
  if (history.changesBetweenPairs !== undefined) return history.changesBetweenPairs(pairs);
  const order = snapshotPositions(history);
  const results = pairs.map((): ServerChange[] => []);
  for (const server of history.servers()) addServerChanges(server, order, pairs, results);
  return results.map(byName);
}

/**
 * `changesBetweenPairs` a slice at a time where the view can (the compact history a server holds: a million
 * servers' walk would otherwise hold the event loop for a noticeable time per change list), in one go otherwise.
 */
export async function changesBetweenPairsSliced(
  history: HistoryView,
  pairs: readonly SnapshotPair[],
  slicer: Slicer,
  serversPerStep?: number,
): Promise<ServerChange[][]> {
  return history.changesBetweenPairsSliced !== undefined
    ? history.changesBetweenPairsSliced(pairs, slicer, serversPerStep)
    : changesBetweenPairs(history, pairs);
}

/** Each kept snapshot's position, by id. */
export const snapshotPositions = (history: Pick<HistoryView, 'snapshots'>): Map<string, number> =>
  new Map(history.snapshots.map((snapshot, index) => [snapshot.snapshot_id, index]));

/** Adds one server's change between each pair (when something changed) to that pair's list. */
export function addServerChanges(
  { name, points }: { name: string; points: readonly HistoryPoint[] },
  order: ReadonlyMap<string, number>,
  pairs: readonly SnapshotPair[],
  results: ServerChange[][],
): void {
  for (let i = 0; i < pairs.length; i++) {
    const [older, newer] = pairs[i]!;
    const change = changeOf(name, stateAt(points, order, older), stateAt(points, order, newer));
    if (change !== undefined) results[i]!.push(change);
  }
}

/** Changes in name order (lower-cased), as every change list is given. */
export function byName(changes: ServerChange[]): ServerChange[] {
  const key = (change: ServerChange) => change.name.toLowerCase();
  return changes.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** What a change compares of a server's state. */
export type ServerState = Pick<ScoredPoint, 'trust_score' | 'trust_label' | 'flags' | 'tools_hash' | 'advisories'>;

/** What changed for one server from `before` to `now` (its states), or undefined when nothing did. */
export function changeOf(
  name: string,
  before: ServerState | undefined,
  now: ServerState | undefined,
): ServerChange | undefined {
  if (before === undefined && now === undefined) return undefined;
  const flagsBefore = new Set(before?.flags ?? []);
  const flagsNow = new Set(now?.flags ?? []);
  const change: ServerChange = {
    name,
    added: before === undefined,
    removed: now === undefined,
    trust_score:
      before !== undefined && now !== undefined && before.trust_score !== now.trust_score
        ? { from: before.trust_score, to: now.trust_score }
        : null,
    trust_label:
      before !== undefined && now !== undefined && before.trust_label !== now.trust_label
        ? { from: before.trust_label, to: now.trust_label }
        : null,
    flags_raised:
      before === undefined || now === undefined ? [] : [...flagsNow].filter((flag) => !flagsBefore.has(flag)),
    flags_cleared:
      before === undefined || now === undefined ? [] : [...flagsBefore].filter((flag) => !flagsNow.has(flag)),
    // A first pinning is no change of tools, and a server's first advisories are added ones only once it was known.
    tools_changed:
      before?.tools_hash !== undefined && now?.tools_hash !== undefined && before.tools_hash !== now.tools_hash
        ? { from: before.tools_hash, to: now.tools_hash }
        : null,
    advisories_added:
      before === undefined || now === undefined
        ? []
        : (now.advisories ?? []).filter((id) => !(before.advisories ?? []).includes(id)),
  };
  const any =
    change.added ||
    change.removed ||
    change.trust_score ||
    change.trust_label ||
    change.flags_raised.length ||
    change.flags_cleared.length ||
    change.tools_changed ||
    change.advisories_added.length;
  return any ? change : undefined;
}
