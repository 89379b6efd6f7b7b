/**
 * `mts-2`, this project's scoring method (docs/method.md gives every weight and why). It scores only what was
 * measured: each sub-score is the points its measured rules earned over the most those same rules could
 * earn, so a rule whose signal was not measured leaves the denominator instead of counting as 0. How much of
 * the method's weight rests on verified evidence is the confidence: a publisher's declarations (rules marked
 * `declared`) count only when a verified fact vouches for the server; below `CONFIDENCE_THRESHOLD` the record
 * carries INSUFFICIENT_EVIDENCE. A blocking finding (KNOWN_MALICIOUS, REGISTRY_TAKEDOWN) makes the trust score 0.
 *
 * The arithmetic reads rules and readings only: it never names a source, so a new source adds its module and
 * its rule table (`src/scoring/mts2-sources.ts`) and nothing here changes. A source lists every signal that
 * applies to the server, measured or missing with the reason; a signal it leaves out does not apply (a probe
 * of a stdio-only server) and takes no part in the score or the confidence.
 */
import type { SignalReading } from '../model/evidence.js';
import { labelForScore, type TrustLabel } from '../model/schema.js';
import { flagDefinition } from '../model/vocabulary.js';
import type { Finding, SignalRule, SourceReading } from './evidence-source.js';
import type { SubScoreName } from './method.js';
import { MTS2_METHOD } from './methods.js';

/** The sub-scores in the specification's order, with mts-2's weights (they sum to 1). */
export const MTS2_WEIGHTS: ReadonlyArray<readonly [SubScoreName, number]> = [
  ['provenance', 0.4],
  ['maintenance', 0.25],
  ['popularity', 0.1],
  ['permissions', 0.25],
];

/** Below this confidence (share of the method's weight verified, 0-100) a record is INSUFFICIENT_EVIDENCE. */
export const CONFIDENCE_THRESHOLD = 50;
export const INSUFFICIENT_EVIDENCE = 'INSUFFICIENT_EVIDENCE';

/**
 * What the unmeasured share of the method's weight counts as in the trust score: neither 0 (absence is not
 * evidence against a server) nor the measured score (absence is not evidence for it either, and scoring a
 * server on less evidence must never lift it above one scored on more). The trust score is the measured
 * score where everything was measured, and moves toward this value by the share that was not.
 */
export const UNMEASURED_SCORE = 40;

/** One rule applied: the reading of its signal, and the points it earned (null: not measured). */
export interface RuleOutcome {
  rule: SignalRule;
  reading: SignalReading | undefined;
  points: number | null;
}

export interface SubScoreOutcome {
  name: SubScoreName;
  weight: number;
  /** The integer sub-score (0 when nothing of it was measured: `measured` says which). */
  score: number;
  measured: boolean;
  earned: number;
  measuredMax: number;
  /** The part of `measuredMax` the confidence counts: verified rules, and declared ones when vouched for. */
  confidentMax: number;
  totalMax: number;
  rules: RuleOutcome[];
}

export interface Mts2Outcome {
  method: typeof MTS2_METHOD;
  trust_score: number;
  trust_label: TrustLabel;
  scores: Record<SubScoreName, number>;
  confidence: number;
  insufficient: boolean;
  findings: Finding[];
  /** The findings whose flag is blocking: when any, the trust score is 0. */
  blocking: Finding[];
  subscores: SubScoreOutcome[];
}

/** The rules of each sub-score, in the rule table's order: made once per table. */
const RULES_BY_SUBSCORE = new WeakMap<readonly SignalRule[], ReadonlyMap<SubScoreName, SignalRule[]>>();

function rulesBySubscore(rules: readonly SignalRule[]): ReadonlyMap<SubScoreName, SignalRule[]> {
  let grouped = RULES_BY_SUBSCORE.get(rules);
  if (grouped === undefined) {
    const made = new Map<SubScoreName, SignalRule[]>(MTS2_WEIGHTS.map(([name]) => [name, []]));
    for (const rule of rules) made.get(rule.subscore)?.push(rule);
    grouped = made;
    RULES_BY_SUBSCORE.set(rules, grouped);
  }
  return grouped;
}

/** Points of a measured value, kept within 0..max whatever a rule's function returns. */
function pointsOf(rule: SignalRule, value: boolean | number | string): number {
  const points = rule.points(value);
  return Number.isFinite(points) ? Math.min(Math.max(points, 0), rule.max) : 0;
}

/** Score the readings of one server by the rules of every registered source. */
export function scoreReadings(readings: readonly SourceReading[], rules: readonly SignalRule[]): Mts2Outcome {
  const grouped = rulesBySubscore(rules);
  const bySource = new Map(readings.map((reading) => [reading.source, reading]));
  const applied: RuleOutcome[][] = MTS2_WEIGHTS.map(([name]) =>
    (grouped.get(name) ?? []).map((rule) => {
      const reading = bySource.get(rule.source)?.signals[rule.signal];
      const value = reading?.value ?? null;
      return { rule, reading, points: value === null ? null : pointsOf(rule, value) };
    }),
  );
  // Declared evidence (the publisher's own word) counts toward the confidence only when some measured,
  // verified fact vouches for the server: otherwise a self-published entry that no one checked would look
  // as well measured as a read repository.
  const vouched = applied.some((outcomes) =>
    outcomes.some(
      ({ rule, reading }) =>
        rule.declared !== true &&
        reading?.value !== null &&
        reading?.value !== undefined &&
        (rule.vouches?.(reading.value) ?? true),
    ),
  );
  const subscores: SubScoreOutcome[] = MTS2_WEIGHTS.map(([name, weight], index) => {
    const outcomes = applied[index]!;
    let earned = 0;
    let measuredMax = 0;
    let confidentMax = 0;
    let totalMax = 0;
    for (const outcome of outcomes) {
      // A signal its source does not list does not apply to this server (a probe of a server with no
      // remote): it takes no part. A signal listed as missing is unmeasured: it lowers the confidence.
      if (outcome.reading === undefined) continue;
      totalMax += outcome.rule.max;
      if (outcome.points === null) continue;
      earned += outcome.points;
      measuredMax += outcome.rule.max;
      if (outcome.rule.declared !== true || vouched) confidentMax += outcome.rule.max;
    }
    const measured = measuredMax > 0;
    const score = measured ? Math.round((100 * earned) / measuredMax) : 0;
    return { name, weight, score, measured, earned, measuredMax, confidentMax, totalMax, rules: outcomes };
  });

  // The weight of every sub-score some rule counts in, the share of it that rests on measured rules (which
  // moves the score), and the share that rests on verified or vouched-for evidence (the confidence).
  let ruledWeight = 0;
  let measuredWeight = 0;
  let confidentWeight = 0;
  let weightedScore = 0;
  let scoredWeight = 0;
  for (const sub of subscores) {
    if (sub.totalMax === 0) continue;
    ruledWeight += sub.weight;
    measuredWeight += (sub.weight * sub.measuredMax) / sub.totalMax;
    confidentWeight += (sub.weight * sub.confidentMax) / sub.totalMax;
    if (sub.measured) {
      weightedScore += sub.weight * sub.score;
      scoredWeight += sub.weight;
    }
  }
  const confidence = ruledWeight === 0 ? 0 : Math.round((100 * confidentWeight) / ruledWeight);
  const findings = readings.flatMap((reading) => reading.findings);
  const blocking = findings.filter((finding) => flagDefinition(finding.flag)?.blocking === true);
  // Nothing measured is no score at all, not the prior: such a record carries INSUFFICIENT_EVIDENCE at 0.
  const share = ruledWeight === 0 ? 0 : measuredWeight / ruledWeight;
  const measuredScore =
    scoredWeight === 0 ? 0 : Math.round(share * (weightedScore / scoredWeight) + (1 - share) * UNMEASURED_SCORE);
  const trust_score = blocking.length > 0 ? 0 : Math.min(Math.max(measuredScore, 0), 100);
  const scores = Object.fromEntries(subscores.map((sub) => [sub.name, sub.score])) as Record<SubScoreName, number>;
  return {
    method: MTS2_METHOD,
    trust_score,
    trust_label: labelForScore(trust_score),
    scores,
    confidence,
    insufficient: confidence < CONFIDENCE_THRESHOLD,
    findings,
    blocking,
    subscores,
  };
}
