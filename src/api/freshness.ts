/**
 * How old the served data is, as health reports it: when the newest scores were made (the newest
 * `scored_at`), when the snapshot was published (its `generated_at`), and whether the data is older than the
 * deployment accepts (`STALE_AFTER_DAYS`). A nightly pipeline that stopped shows here first: the snapshot
 * keeps answering, and health turns `degraded` once its newest score is older than the bound.
 */
import type { SnapshotInfo } from '../query/types.js';

/** Days after its newest score at which the data is stale, unless `STALE_AFTER_DAYS` says otherwise. */
export const DEFAULT_STALE_AFTER_DAYS = 3;

/** The bounds of `STALE_AFTER_DAYS`: a day at least, ten years at most. */
export const STALE_AFTER_DAYS_RANGE = { min: 1, max: 3650 } as const;

const DAY_MS = 86_400_000;

/** Health's `freshness` member. */
export interface Freshness {
  /** The newest `scored_at` of the records; null for a snapshot without records. */
  scored_at: string | null;
  /** When the snapshot was built for publishing (the manifest's `generated_at`). */
  published_at: string;
  /** Days since `scored_at` (one decimal, never negative); null without records. */
  age_days: number | null;
  stale_after_days: number;
  /** `stale` when `age_days` is above `stale_after_days`; a snapshot without records is never stale. */
  status: 'fresh' | 'stale';
}

/** The freshness of `snapshot` at `nowMs`, with data stale after `staleAfterDays` days. */
export function freshnessOf(snapshot: SnapshotInfo, nowMs: number, staleAfterDays: number): Freshness {
  const scoredAt = snapshot.newestScoredAt;
  const ageMs = scoredAt === undefined ? undefined : Math.max(0, nowMs - Date.parse(scoredAt));
  return {
    scored_at: scoredAt ?? null,
    published_at: snapshot.generatedAt,
    age_days: ageMs === undefined ? null : Math.floor((ageMs / DAY_MS) * 10) / 10,
    stale_after_days: staleAfterDays,
    status: ageMs !== undefined && ageMs > staleAfterDays * DAY_MS ? 'stale' : 'fresh',
  };
}
