/**
 * Explains a record's scores by recomputing them from its `signals` with the published method of the
 * pipeline the data comes from: https://github.com/gigabrainobserver/mcp-scorecard, files
 * `src/mcp_scorecard/config.py` (weights, points, brackets, tiers), `src/mcp_scorecard/scoring/categories.py`
 * (how each signal turns into points) and `src/mcp_scorecard/scoring/calculator.py` (weighted sum, rounding),
 * read at commit 45a9edcc8aba82ff87e2c2059c134ea72163aa1d, the last change to them before commit
 * 7bc729d32417798a50c24bc4f5d5d9bb9cfa10f3 ("Enriched scan", 2026-02-21) that wrote our dataset. Only the
 * figures are carried over; the code is our own. Later upstream commits changed the method (e.g. half
 * points for non-permissive licences), so this module deliberately follows the dataset's version.
 *
 * The explanation never replaces the stored scores: when the recomputation disagrees, it says so and
 * shows the stored values, so a reader is never handed an invented breakdown as the pipeline's own.
 */
import type { ServerRecord, Signals } from '../model/schema.js';
import { signalWords } from '../model/signal-words.js';

export const EXPLAIN_METHOD_VERSION = 'mcp-scorecard@7bc729d32417798a50c24bc4f5d5d9bb9cfa10f3';

export interface SignalContribution {
  signal: keyof Signals;
  value: boolean | number | null;
  points: number;
  max: number;
  note: string;
}

type SubScoreName = 'provenance' | 'maintenance' | 'popularity' | 'permissions';

export interface SubScoreExplanation {
  name: SubScoreName;
  weight: number;
  computed: number;
  stored: number;
  reproduced: boolean;
  contributions: SignalContribution[];
}

export interface Explanation {
  name: string;
  method: string;
  reproduced: boolean;
  trust_score: { computed: number; stored: number };
  subscores: SubScoreExplanation[];
  summary: string;
}

/** The order matters: the pipeline sums the weighted sub-scores in this order, in floating point. */
const WEIGHTS: ReadonlyArray<readonly [SubScoreName, number]> = [
  ['provenance', 0.3],
  ['maintenance', 0.25],
  ['popularity', 0.2],
  ['permissions', 0.25],
];

type BooleanSignal = { [K in keyof Signals]: Signals[K] extends boolean ? K : never }[keyof Signals];

/** Provenance: all-or-nothing points per boolean signal (they sum to 100). */
const PROVENANCE: ReadonlyArray<readonly [BooleanSignal, number]> = [
  ['has_source_repo', 25],
  ['repo_not_archived', 10],
  ['has_license', 10],
  ['has_installable_package', 15],
  ['has_website_url', 5],
  ['has_icon', 5],
  ['namespace_matches_owner', 10],
  ['has_security_md', 10],
  ['has_code_of_conduct', 5],
  ['unique_description', 5],
];

/** First threshold the value reaches gives the fraction: [threshold, fraction], highest first. */
type Brackets = ReadonlyArray<readonly [number, number]>;
const CONTRIBUTOR_TIERS: Brackets = [
  [10, 1],
  [4, 0.75],
  [2, 0.5],
  [1, 0.25],
];
/** Version count tiers give points, not fractions: too many versions reads as churn. */
const VERSION_TIERS: Brackets = [
  [101, 5],
  [51, 10],
  [2, 15],
  [1, 5],
];
const STAR_BRACKETS: Brackets = [
  [10000, 1],
  [1000, 0.8],
  [100, 0.6],
  [10, 0.4],
  [1, 0.1],
];
const FORK_BRACKETS: Brackets = [
  [1000, 1],
  [100, 0.8],
  [50, 0.6],
  [10, 0.4],
  [1, 0.1],
];
const WATCHER_BRACKETS: Brackets = [
  [100, 1],
  [50, 0.8],
  [20, 0.6],
  [5, 0.4],
  [1, 0.1],
];
/** Secret environment variables: fewer is safer; four or more earn nothing. */
const SECRET_POINTS = [40, 30, 20, 10];

function bracket(value: number | null, brackets: Brackets): number {
  if (value === null) return 0;
  for (const [threshold, result] of brackets) if (value >= threshold) return result;
  return 0;
}

/**
 * Python's round(): half to even on the exact double. The pipeline is Python, so Math.round (half up)
 * would turn e.g. a weighted 58.5 into 59 where the pipeline stored 58.
 */
export function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor; // exact for doubles in the score range
  if (diff < 0.5) return floor;
  if (diff > 0.5) return floor + 1;
  return floor % 2 === 0 ? floor : floor + 1;
}

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

function provenance(s: Signals): Category {
  // Integer points, so the plain sum is the score (capped at 100 like the pipeline).
  let total = 0;
  const contributions = PROVENANCE.map(([signal, max]) => {
    const points = s[signal] ? max : 0;
    total += points;
    return contribution(signal, s[signal], points, max, '');
  });
  return { total: Math.min(total, 100), contributions };
}

function maintenance(s: Signals): Category {
  const recency = s.last_push_recency ?? 0;
  const weeks = s.active_commit_weeks ?? 0;
  const parts: Array<[keyof Signals, boolean | number | null, number, number, string]> = [
    ['repo_age_over_90d', s.repo_age_over_90d, s.repo_age_over_90d ? 10 : 0, 10, ''],
    // The pipeline scaled the unrounded fraction; the record keeps it to 3 decimals, so this can be off
    // by up to 0.0125 points, which only matters when the total lands next to a .5.
    ['last_push_recency', s.last_push_recency, recency * 25, 25, ' (full points within 30 days, none at 365)'],
    ['active_commit_weeks', s.active_commit_weeks, weeks > 0 ? Math.min(weeks / 52, 1) * 20 : 0, 20, ' (weeks of 52)'],
    ['contributor_count', s.contributor_count, bracket(s.contributor_count, CONTRIBUTOR_TIERS) * 15, 15, ''],
    // Pipeline v0.1 records one version for every server (a stub) and the tiers give it 5 points.
    ['version_count', s.version_count, bracket(s.version_count, VERSION_TIERS), 15, ''],
    // Already points (0, 5, 10, 15) the pipeline derived from active commit weeks, not a release count.
    [
      'releases_past_year',
      s.releases_past_year,
      Math.min(s.releases_past_year ?? 0, 15),
      15,
      ' (points the pipeline derives from commit weeks, not a count of releases)',
    ],
  ];
  // Same float sum, in the same order, as the pipeline, then its rounding.
  const sum = (recencyPoints: number): number => {
    let points = 0;
    for (const part of parts) points += part[0] === 'last_push_recency' ? recencyPoints : part[2];
    return Math.min(roundHalfEven(points), 100);
  };
  // What the unrounded recency (stored value +-0.0005) could have given, to tell a rounding miss apart.
  const range: [number, number] =
    s.last_push_recency === null
      ? [sum(0), sum(0)]
      : [sum(Math.max(recency - 0.0005, 0) * 25), sum(Math.min(recency + 0.0005, 1) * 25)];
  return { total: sum(recency * 25), contributions: parts.map((p) => contribution(...p)), range };
}

function popularity(s: Signals): Category {
  const stars = bracket(s.github_stars, STAR_BRACKETS) * 55;
  const forks = bracket(s.github_forks, FORK_BRACKETS) * 30;
  const watchers = bracket(s.github_watchers, WATCHER_BRACKETS) * 15;
  // v0.1 has no npm/PyPI downloads, so GitHub's three counts share all 100 points.
  return {
    total: Math.min(roundHalfEven(stars + forks + watchers), 100),
    contributions: [
      contribution('github_stars', s.github_stars, stars, 55, ' (log brackets 1, 10, 100, 1000, 10000)'),
      contribution('github_forks', s.github_forks, forks, 30, ' (log brackets 1, 10, 50, 100, 1000)'),
      contribution('github_watchers', s.github_watchers, watchers, 15, ' (log brackets 1, 5, 20, 50, 100)'),
    ],
  };
}

function permissions(s: Signals): Category {
  // An unmeasured count earns nothing: absence of evidence is not evidence of safety.
  const secrets = s.secret_env_var_count === null ? 0 : (SECRET_POINTS[s.secret_env_var_count] ?? 0);
  // The last three signals are already the pipeline's points (higher is safer).
  const transport = s.transport_type_risk ?? 0;
  const credentials = s.credential_sensitivity ?? 0;
  const packages = s.package_type_risk ?? 0;
  return {
    total: Math.min(secrets + transport + credentials + packages, 100),
    contributions: [
      contribution('secret_env_var_count', s.secret_env_var_count, secrets, 40, ' (0 secrets 40, 1 30, 2 20, 3 10)'),
      contribution(
        'transport_type_risk',
        s.transport_type_risk,
        transport,
        25,
        ' (stdio 25, mixed 15, remote 10, unknown 5)',
      ),
      contribution(
        'credential_sensitivity',
        s.credential_sensitivity,
        credentials,
        20,
        ' (none 20, API keys 15, sensitive 5)',
      ),
      contribution('package_type_risk', s.package_type_risk, packages, 15, ' (npm or PyPI 15, OCI 10, none 5)'),
    ],
  };
}

const SCORERS: Record<SubScoreName, (s: Signals) => Category> = { provenance, maintenance, popularity, permissions };

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
    .map((c) => `${words(c.signal, c.value)} (${c.points} of ${c.max})`);
  return missing.length === 0
    ? `${sub.name} is ${sub.computed}, every signal at full points`
    : `${sub.name} is ${sub.computed}, held back mostly by ${missing.join(', ')}`;
}

function formula(parts: Array<{ name: string; weight: number; score: number }>): string {
  return parts.map((p) => `${Math.round(p.weight * 100)}% ${p.name} ${p.score}`).join(' + ');
}

/**
 * Recompute and explain a record's scores, or `undefined` when the record carries no signals (nothing to
 * explain from). `reproduced` is true only when all four sub-scores and the trust score match exactly.
 */
export function explainRecord(record: ServerRecord): Explanation | undefined {
  const s = record.signals;
  if (s === undefined) return undefined;

  const roundingMisses = new Set<SubScoreName>();
  const subscores: SubScoreExplanation[] = WEIGHTS.map(([name, weight]) => {
    const { total, contributions, range } = SCORERS[name](s);
    const stored = record.scores[name];
    if (range !== undefined && total !== stored && stored >= range[0] && stored <= range[1]) roundingMisses.add(name);
    return { name, weight, computed: total, stored, reproduced: total === stored, contributions };
  });
  // Python's sum() starts from 0 and adds left to right; doing the same keeps the doubles identical.
  let weighted = 0;
  for (const sub of subscores) weighted += sub.computed * sub.weight;
  const computedTrust = Math.min(roundHalfEven(weighted), 100);
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
