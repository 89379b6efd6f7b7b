/**
 * The events of a snapshot: what changed between the kept snapshot before it and it, read from the score
 * history the snapshot carries (the same history `/v1/changes` answers from). Each kind of change of a
 * server is its own event: a server whose score and label both moved gives a `score.changed` and a
 * `label.changed`. A server added gives none (nobody can have subscribed to it by name yet). A server's pinned
 * tools whose hash changed give `tools.changed`, and advisories its record keeps that it did not give
 * `advisory.added`.
 */
import { changesBetween, type HistoryPoint, type HistoryView, snapshotPositions } from '../history/history.js';
import type { EventType } from './subscription-schema.js';

export interface ServerState {
  trust_score: number;
  trust_label: string;
  flags: string[];
}

export interface ChangeEvent {
  type: EventType;
  server: string;
  /** Points the score moved (0 for other types), for `min_change`. */
  scoreMove: number;
  data: {
    server: string;
    snapshot: { before: string; after: string };
    trust_score: { old: number | null; new: number | null };
    trust_label: { old: string | null; new: string | null };
    flags: { old: string[]; new: string[] | null };
    flags_raised: string[];
    flags_cleared: string[];
    /** The hash of the server's pinned tools, before and after, when they changed (`tools.changed`); else null. */
    tools: { old: string; new: string } | null;
    /** Ids of the advisories its record keeps now and did not before (`advisory.added`). */
    advisories_added: string[];
    record_url: string;
  };
}

export interface SnapshotEvents {
  before: { snapshot_id: string; generated_at: string };
  after: { snapshot_id: string; generated_at: string };
  events: ChangeEvent[];
}

/** The state of a server at position `index` (0 = newest): its newest point not newer than that. */
function stateAt(
  points: readonly HistoryPoint[],
  order: ReadonlyMap<string, number>,
  index: number,
): ServerState | undefined {
  const point = points.find((candidate) => (order.get(candidate.snapshot_id) ?? Number.POSITIVE_INFINITY) >= index);
  if (point === undefined || 'removed' in point) return undefined;
  return { trust_score: point.trust_score, trust_label: point.trust_label, flags: point.flags };
}

/** The record's address: `<base>/v1/servers/<namespace>/<id>`, each part percent-encoded. */
export function recordUrl(base: string, name: string): string {
  const slash = name.indexOf('/');
  return `${base}/v1/servers/${encodeURIComponent(name.slice(0, slash))}/${encodeURIComponent(name.slice(slash + 1))}`;
}

/**
 * The events between the history's previous snapshot and its newest, or undefined when the history holds
 * only one snapshot (a first build has nothing to compare with).
 */
export function snapshotEvents(history: HistoryView, baseUrl: string): SnapshotEvents | undefined {
  const [after, before] = history.snapshots;
  if (after === undefined || before === undefined) return undefined;
  const order = snapshotPositions(history);
  const events: ChangeEvent[] = [];
  for (const change of changesBetween(history, 1, 0)) {
    if (change.added) continue;
    const points = history.server(change.name.toLowerCase())?.points ?? [];
    const old = stateAt(points, order, 1);
    const now = stateAt(points, order, 0);
    if (old === undefined) continue;
    const data: ChangeEvent['data'] = {
      server: change.name,
      snapshot: { before: before.snapshot_id, after: after.snapshot_id },
      trust_score: { old: old.trust_score, new: now?.trust_score ?? null },
      trust_label: { old: old.trust_label, new: now?.trust_label ?? null },
      flags: { old: old.flags, new: now?.flags ?? null },
      flags_raised: change.flags_raised,
      flags_cleared: change.flags_cleared,
      tools: change.tools_changed === null ? null : { old: change.tools_changed.from, new: change.tools_changed.to },
      advisories_added: change.advisories_added,
      record_url: recordUrl(baseUrl, change.name),
    };
    const event = (type: EventType, scoreMove = 0) => events.push({ type, server: change.name, scoreMove, data });
    if (change.removed) {
      event('server.removed');
      continue;
    }
    if (change.trust_score !== null) event('score.changed', Math.abs(change.trust_score.to - change.trust_score.from));
    if (change.trust_label !== null) event('label.changed');
    if (change.flags_raised.length > 0) event('flags.raised');
    if (change.flags_cleared.length > 0) event('flags.cleared');
    if (change.tools_changed !== null) event('tools.changed');
    if (change.advisories_added.length > 0) event('advisory.added');
  }
  return { before, after, events };
}
