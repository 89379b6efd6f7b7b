/**
 * The arithmetic of the method: each signal's points, each sub-score, the weighted trust score. It reads only
 * the 23 signals, so the pipeline (which makes the signals) and the explanation (which reads stored ones) share
 * it; the explanation keeps no copy. The pipeline passes the unrounded push recency, which the method scales
 * before it keeps the signal to 3 decimals.
 */
import type { Signals } from '../model/schema.js';
import {
  CONTRIBUTOR_TIERS,
  FORK_BRACKETS,
  MAINTENANCE_POINTS,
  POPULARITY_POINTS,
  PROVENANCE_POINTS,
  SECRET_POINTS,
  STAR_BRACKETS,
  VERSION_TIERS,
  WATCHER_BRACKETS,
  WEIGHTS,
  type Brackets,
  type SubScoreName,
} from './method.js';

/** One signal's share of a sub-score: unrounded points out of `max`. */
export interface SignalPoints {
  signal: keyof Signals;
  points: number;
  max: number;
}

export type SubScores = Record<SubScoreName, number>;

/** The first bracket the value reaches gives its result; an unknown value earns nothing. */
export function bracket(value: number | null, brackets: Brackets): number {
  if (value === null) return 0;
  for (const [threshold, result] of brackets) if (value >= threshold) return result;
  return 0;
}

/**
 * Python's round(): half to even on the exact double. The method is Python, so Math.round (half up) would
 * turn e.g. a weighted 58.5 into 59 where the method gives 58.
 */
export function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor; // exact for doubles in the score range
  if (diff < 0.5) return floor;
  if (diff > 0.5) return floor + 1;
  return floor % 2 === 0 ? floor : floor + 1;
}

export function provenancePoints(s: Signals): SignalPoints[] {
  return PROVENANCE_POINTS.map(([signal, max]) => ({ signal, points: s[signal] ? max : 0, max }));
}

/** `exactRecency`: the unrounded push recency when known (the pipeline); the stored signal otherwise. */
export function maintenancePoints(s: Signals, exactRecency: number | null = s.last_push_recency): SignalPoints[] {
  const weeks = s.active_commit_weeks ?? 0;
  const M = MAINTENANCE_POINTS;
  return [
    { signal: 'repo_age_over_90d', points: s.repo_age_over_90d ? M.repo_age_over_90d : 0, max: M.repo_age_over_90d },
    { signal: 'last_push_recency', points: (exactRecency ?? 0) * M.last_push_recency, max: M.last_push_recency },
    {
      signal: 'active_commit_weeks',
      points: weeks > 0 ? Math.min(weeks / 52, 1) * M.active_commit_weeks : 0,
      max: M.active_commit_weeks,
    },
    {
      signal: 'contributor_count',
      points: bracket(s.contributor_count, CONTRIBUTOR_TIERS) * M.contributor_count,
      max: M.contributor_count,
    },
    { signal: 'version_count', points: bracket(s.version_count, VERSION_TIERS), max: M.version_count },
    // Already points (0, 5, 10, 15) the method derives from active commit weeks.
    { signal: 'releases_past_year', points: Math.min(s.releases_past_year ?? 0, 15), max: M.releases_past_year },
  ];
}

export function popularityPoints(s: Signals): SignalPoints[] {
  const P = POPULARITY_POINTS;
  return [
    { signal: 'github_stars', points: bracket(s.github_stars, STAR_BRACKETS) * P.github_stars, max: P.github_stars },
    { signal: 'github_forks', points: bracket(s.github_forks, FORK_BRACKETS) * P.github_forks, max: P.github_forks },
    {
      signal: 'github_watchers',
      points: bracket(s.github_watchers, WATCHER_BRACKETS) * P.github_watchers,
      max: P.github_watchers,
    },
  ];
}

export function permissionsPoints(s: Signals): SignalPoints[] {
  // An unmeasured count earns nothing: absence of evidence is not evidence of safety.
  const secrets = s.secret_env_var_count === null ? 0 : (SECRET_POINTS[s.secret_env_var_count] ?? 0);
  // The last three signals are already the method's points (higher is safer).
  return [
    { signal: 'secret_env_var_count', points: secrets, max: 40 },
    { signal: 'transport_type_risk', points: s.transport_type_risk ?? 0, max: 25 },
    { signal: 'credential_sensitivity', points: s.credential_sensitivity ?? 0, max: 20 },
    { signal: 'package_type_risk', points: s.package_type_risk ?? 0, max: 15 },
  ];
}

/** A sub-score: the float sum of its points in the method's order, rounded half to even, capped at 100. */
export function subScoreTotal(parts: readonly SignalPoints[]): number {
  let sum = 0;
  for (const part of parts) sum += part.points;
  return Math.min(roundHalfEven(sum), 100);
}

/** Each sub-score's points per signal, in the method's order. */
export function subScorePoints(s: Signals, exactRecency?: number | null): Record<SubScoreName, SignalPoints[]> {
  return {
    provenance: provenancePoints(s),
    maintenance: maintenancePoints(s, exactRecency === undefined ? s.last_push_recency : exactRecency),
    popularity: popularityPoints(s),
    permissions: permissionsPoints(s),
  };
}

/** The weighted trust score: Python's sum() from 0, left to right in WEIGHTS order, then its rounding. */
export function weightedTrustScore(scores: SubScores): number {
  let weighted = 0;
  for (const [name, weight] of WEIGHTS) weighted += scores[name] * weight;
  return Math.min(roundHalfEven(weighted), 100);
}

/** The four sub-scores and the trust score the method gives these signals. */
export function scoreSignals(s: Signals, exactRecency?: number | null): { scores: SubScores; trust_score: number } {
  const points = subScorePoints(s, exactRecency);
  const scores: SubScores = {
    provenance: subScoreTotal(points.provenance),
    maintenance: subScoreTotal(points.maintenance),
    popularity: subScoreTotal(points.popularity),
    permissions: subScoreTotal(points.permissions),
  };
  return { scores, trust_score: weightedTrustScore(scores) };
}
