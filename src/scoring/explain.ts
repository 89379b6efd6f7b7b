/**
 * Explains a record's scores by recomputing them from its `signals` with the published method of the
 * pipeline the data comes from (gigabrainobserver/mcp-scorecard, at the version that wrote our dataset). The
 * arithmetic is the scoring module's (`src/scoring/`), the one the nightly pipeline scores with; this module
 * only puts it into words.
 *
 * The explanation never replaces the stored scores: when the recomputation disagrees, it says so and
 * shows the stored values, so a reader is never handed an invented breakdown as the pipeline's own.
 */
import type { ServerRecord, Signals } from '../model/schema.js';
import { signalWords } from '../model/signal-words.js';
import { explainMts2 } from './explain-mts2.js';
import type { Explanation, SignalContribution, SubScoreExplanation } from './explanation.js';

export type { Explanation, SignalContribution, SubScoreExplanation } from './explanation.js';
import { METHOD_VERSION, WEIGHTS, type SubScoreName } from './method.js';
import {
  maintenancePoints,
  permissionsPoints,
  popularityPoints,
  provenancePoints,
  roundHalfEven,
  subScoreTotal,
  weightedTrustScore,
  type SignalPoints,
} from './subscores.js';

export { roundHalfEven };
export const EXPLAIN_METHOD_VERSION = METHOD_VERSION;

/** Points to show: two decimals are enough for a reader; the sums use the unrounded values. */
const shown = (points: number): number => Math.round(points * 100) / 100;

/** The signal's value in words (never its field name), for the notes and the summary. */
function words(signal: keyof Signals, value: boolean | number | null): string {
  return signalWords(signal, value as never);
}

function contribution(
  signal: keyof Signals,
  value: boolean | number | null,
  points: number,
  max: number,
  why: string,
): SignalContribution {
  const said = words(signal, value);
  const label = `${said.charAt(0).toUpperCase()}${said.slice(1)}`;
  return { signal, value, points: shown(points), max, note: `${label}: ${shown(points)} of ${max} points${why}.` };
}

interface Category {
  total: number;
  contributions: SignalContribution[];
  /** Lowest and highest score the signals allow given how precisely the record keeps them. */
  range?: [number, number];
}

/** Why a signal earned what it did, beyond its value in words. */
const WHY: Partial<Record<keyof Signals, string>> = {
  last_push_recency: ' (full points within 30 days, none at 365)',
  active_commit_weeks: ' (weeks of 52)',
  releases_past_year: ' (points the pipeline derives from commit weeks, not a count of releases)',
  github_stars: ' (log brackets 1, 10, 100, 1000, 10000)',
  github_forks: ' (log brackets 1, 10, 50, 100, 1000)',
  github_watchers: ' (log brackets 1, 5, 20, 50, 100)',
  secret_env_var_count: ' (0 secrets 40, 1 30, 2 20, 3 10)',
  transport_type_risk: ' (stdio 25, mixed 15, remote 10, unknown 5)',
  credential_sensitivity: ' (none 20, API keys 15, sensitive 5)',
  package_type_risk: ' (npm or PyPI 15, OCI 10, none 5)',
};

/** A sub-score from the scoring module's points, with each signal's note. */
function category(s: Signals, parts: SignalPoints[]): Category {
  return {
    total: subScoreTotal(parts),
    contributions: parts.map((p) => contribution(p.signal, s[p.signal], p.points, p.max, WHY[p.signal] ?? '')),
  };
}

function maintenance(s: Signals): Category {
  // The pipeline scaled the unrounded recency; the record keeps it to 3 decimals, so this can be off by up to
  // 0.0125 points, which only matters when the total lands next to a .5. The range says what the unrounded
  // value (stored value +-0.0005) could have given, to tell a rounding miss apart.
  const at = (recency: number) => subScoreTotal(maintenancePoints(s, recency));
  const recency = s.last_push_recency;
  const range: [number, number] =
    recency === null ? [at(0), at(0)] : [at(Math.max(recency - 0.0005, 0)), at(Math.min(recency + 0.0005, 1))];
  return { ...category(s, maintenancePoints(s)), range };
}

const SCORERS: Record<SubScoreName, (s: Signals) => Category> = {
  provenance: (s) => category(s, provenancePoints(s)),
  maintenance,
  popularity: (s) => category(s, popularityPoints(s)),
  permissions: (s) => category(s, permissionsPoints(s)),
};

const plural = (n: number | null, word: string): string =>
  n === null ? `an unknown number of ${word}s` : `${n} ${word}${n === 1 ? '' : 's'}`;

/** Why the weakest sub-score is what it is, in words a person or an agent can act on. */
function weakestReason(sub: SubScoreExplanation, s: Signals): string {
  if (sub.name === 'popularity') {
    return (
      `popularity is ${sub.computed} because the repository has ${plural(s.github_stars, 'star')}, ` +
      `${plural(s.github_forks, 'fork')} and ${plural(s.github_watchers, 'watcher')}`
    );
  }
  const missing = sub.contributions
    .filter((c) => c.points < c.max)
    .sort((a, b) => b.max - b.points - (a.max - a.points))
    .slice(0, 3)
    .map((c) => `${words(c.signal as keyof Signals, c.value as boolean | number | null)} (${c.points} of ${c.max})`);
  return missing.length === 0
    ? `${sub.name} is ${sub.computed}, every signal at full points`
    : `${sub.name} is ${sub.computed}, held back mostly by ${missing.join(', ')}`;
}

function formula(parts: Array<{ name: string; weight: number; score: number }>): string {
  return parts.map((p) => `${Math.round(p.weight * 100)}% ${p.name} ${p.score}`).join(' + ');
}

/**
 * Recompute and explain a record's scores with the method that made them: mts-2 from its `evidence`
 * (`explain-mts2.ts`), the upstream method from its `signals`; `undefined` when the record carries neither
 * (nothing to explain from). `reproduced` is true only when all four sub-scores and the trust score match.
 */
export function explainRecord(record: ServerRecord): Explanation | undefined {
  return explainMts2(record) ?? explainUpstream(record);
}

/** The upstream method's explanation, from the record's `signals`. */
export function explainUpstream(record: ServerRecord): Explanation | undefined {
  const s = record.signals;
  if (s === undefined) return undefined;

  const roundingMisses = new Set<SubScoreName>();
  const subscores: SubScoreExplanation[] = WEIGHTS.map(([name, weight]) => {
    const { total, contributions, range } = SCORERS[name](s);
    const stored = record.scores[name];
    if (range !== undefined && total !== stored && stored >= range[0] && stored <= range[1]) roundingMisses.add(name);
    return { name, weight, computed: total, stored, reproduced: total === stored, contributions };
  });
  const computed = Object.fromEntries(subscores.map((sub) => [sub.name, sub.computed])) as Record<SubScoreName, number>;
  const computedTrust = weightedTrustScore(computed);
  const trust = { computed: computedTrust, stored: record.trust_score };
  const reproduced = trust.computed === trust.stored && subscores.every((sub) => sub.reproduced);

  let summary: string;
  if (reproduced) {
    const weakest = subscores.reduce((low, sub) => (sub.computed < low.computed ? sub : low));
    const terms = formula(subscores.map((sub) => ({ name: sub.name, weight: sub.weight, score: sub.computed })));
    summary = `Trust score ${trust.stored} = ${terms} (reproduced from the signals); ${weakestReason(weakest, s)}.`;
  } else {
    const differences = subscores
      .filter((sub) => !sub.reproduced)
      .map(
        (sub) =>
          `${sub.name} is ${sub.computed} here, ${sub.stored} stored` +
          (roundingMisses.has(sub.name)
            ? ' (the recency of the last push is kept to 3 decimals, and its unrounded value can give the stored score)'
            : ''),
      );
    if (trust.computed !== trust.stored) {
      differences.push(`trust score is ${trust.computed} here, ${trust.stored} stored`);
    }
    const stored = subscores.map((sub) => `${sub.name} ${sub.stored}`).join(', ');
    summary =
      `The stored scores could not be reproduced from the signals: ${differences.join('; ')}. ` +
      `Stored: trust score ${trust.stored}, ${stored}; the per-signal breakdown is our recomputation, not the pipeline's.`;
  }

  return { name: record.name, method: EXPLAIN_METHOD_VERSION, reproduced, trust_score: trust, subscores, summary };
}
