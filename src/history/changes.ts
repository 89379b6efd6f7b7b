/**
 * What changed between the snapshot being published and the one it replaces, and the guards that refuse
 * an implausible change. A nightly pipeline republishes with no one watching: a scorer that crashed
 * half-way (servers lost) or went haywire (every score moved) must not reach the public.
 */
import type { ServerRecord } from '../model/schema.js';

/**
 * What a snapshot's record says about trust: what the comparison of two snapshots looks at, and what a history
 * starts from when the previous snapshot's folder has none to carry on.
 */
export interface RecordSummary {
  name: string;
  trust_score: number;
  trust_label: string;
  flags: string[];
  /** Read too, so a history can start from a snapshot that has none. */
  scores?: ServerRecord['scores'];
  scored_at?: string;
}

export interface SnapshotDiff {
  previous: { snapshot_id: string; generated_at: string; record_count: number };
  counts: {
    previous: number;
    current: number;
    added: number;
    removed: number;
    score_changed: number;
    label_changed: number;
    flags_raised: number;
    flags_cleared: number;
  };
  added: string[];
  removed: string[];
  score_changes: { name: string; from: number; to: number }[];
  label_changes: { name: string; from: string; to: string }[];
  flags_raised: { name: string; flags: string[] }[];
  flags_cleared: { name: string; flags: string[] }[];
}

export interface RepublishGuards {
  /** Refuse when more than this share of the previous servers is gone (0 to 1). */
  maxRemovedShare: number;
  /** Refuse when the score of more than this share of the servers in both snapshots changed (0 to 1). */
  maxScoreChangedShare: number;
}

/**
 * Defaults: losing more than 10% of the servers in one night means a crawl or a scorer failed; a nightly
 * rescoring moves some maintenance and popularity sub-scores, but when more than half of all scores
 * change at once the scorer itself changed, which deserves a person's look (and `--force`).
 */
export const DEFAULT_GUARDS: RepublishGuards = { maxRemovedShare: 0.1, maxScoreChangedShare: 0.5 };

export function diffSnapshots(
  previous: { snapshot_id: string; generated_at: string; records: readonly RecordSummary[] },
  current: readonly RecordSummary[],
): SnapshotDiff {
  const before = new Map(previous.records.map((record) => [record.name.toLowerCase(), record]));
  const diff: SnapshotDiff = {
    previous: {
      snapshot_id: previous.snapshot_id,
      generated_at: previous.generated_at,
      record_count: previous.records.length,
    },
    counts: {
      previous: previous.records.length,
      current: current.length,
      added: 0,
      removed: 0,
      score_changed: 0,
      label_changed: 0,
      flags_raised: 0,
      flags_cleared: 0,
    },
    added: [],
    removed: [],
    score_changes: [],
    label_changes: [],
    flags_raised: [],
    flags_cleared: [],
  };
  const seen = new Set<string>();
  for (const record of current) {
    const key = record.name.toLowerCase();
    seen.add(key);
    const old = before.get(key);
    if (!old) {
      diff.added.push(record.name);
      continue;
    }
    if (old.trust_score !== record.trust_score)
      diff.score_changes.push({ name: record.name, from: old.trust_score, to: record.trust_score });
    if (old.trust_label !== record.trust_label)
      diff.label_changes.push({ name: record.name, from: old.trust_label, to: record.trust_label });
    const raised = record.flags.filter((flag) => !old.flags.includes(flag));
    const cleared = old.flags.filter((flag) => !record.flags.includes(flag));
    if (raised.length > 0) diff.flags_raised.push({ name: record.name, flags: raised });
    if (cleared.length > 0) diff.flags_cleared.push({ name: record.name, flags: cleared });
  }
  for (const record of previous.records) if (!seen.has(record.name.toLowerCase())) diff.removed.push(record.name);
  diff.counts.added = diff.added.length;
  diff.counts.removed = diff.removed.length;
  diff.counts.score_changed = diff.score_changes.length;
  diff.counts.label_changed = diff.label_changes.length;
  diff.counts.flags_raised = diff.flags_raised.length;
  diff.counts.flags_cleared = diff.flags_cleared.length;
  return diff;
}

/** The reasons to refuse publishing this change under `guards`; empty when it may be published. */
export function guardViolations(diff: SnapshotDiff, guards: RepublishGuards): string[] {
  const problems: string[] = [];
  const { previous, removed, score_changed: changed, current, added } = diff.counts;
  const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
  if (previous > 0 && removed / previous > guards.maxRemovedShare) {
    problems.push(
      `${removed} of ${previous} servers (${percent(removed / previous)}) would disappear; the limit is ${percent(guards.maxRemovedShare)}`,
    );
  }
  const common = current - added;
  if (common > 0 && changed / common > guards.maxScoreChangedShare) {
    problems.push(
      `the trust score of ${changed} of ${common} servers (${percent(changed / common)}) changed; the limit is ${percent(guards.maxScoreChangedShare)}`,
    );
  }
  return problems;
}

/** A few lines for the pipeline's log. */
export function summarizeDiff(diff: SnapshotDiff): string {
  const c = diff.counts;
  return [
    `compared with snapshot ${diff.previous.snapshot_id} (${diff.previous.generated_at}): ${c.previous} -> ${c.current} servers`,
    `  added ${c.added}, removed ${c.removed}, score changed ${c.score_changed}, label changed ${c.label_changed}, flags raised on ${c.flags_raised}, cleared on ${c.flags_cleared}`,
  ].join('\n');
}
