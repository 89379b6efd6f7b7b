/**
 * Explains a record scored with mts-2 from its `evidence`: the method's rules (`src/scoring/mts2-sources.ts`)
 * applied to the signals the record carries, by the method's own arithmetic (`src/scoring/mts2.ts`). Every
 * sentence says only what was measured: a rule whose signal is missing says why it is missing and that it
 * left the score, never that the server has 0 of something.
 */
import { EVIDENCE_SOURCES, signalReadings, sourceState, type Evidence } from '../model/evidence.js';
import type { ServerRecord } from '../model/schema.js';
import { flagDefinition } from '../model/vocabulary.js';
import type { SourceReading } from './evidence-source.js';
import { CONFIDENCE_THRESHOLD, scoreReadings, UNMEASURED_SCORE, type SubScoreOutcome } from './mts2.js';
import { MTS2_RULES } from './mts2-sources.js';
import type { Explanation, SignalContribution } from './explanation.js';

const shown = (points: number): number => Math.round(points * 100) / 100;
const capital = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/** The record's evidence as the readings the method scores (its findings are the record's blocking flags). */
function readingsOf(record: ServerRecord, evidence: Evidence): SourceReading[] {
  const blocking = record.flags
    .filter((flag) => flagDefinition(flag)?.blocking === true)
    .map((flag) => ({ flag, detail: flagDefinition(flag)?.meaning ?? flag }));
  return EVIDENCE_SOURCES.map((source, index) => ({
    source,
    state: sourceState(evidence.sources[source]),
    signals: signalReadings(source, evidence.sources[source]),
    findings: index === 0 ? blocking : [],
  }));
}

/** Each rule of the sub-score that applies to this server (its source lists a reading for it), as a contribution. */
function contributions(sub: SubScoreOutcome): SignalContribution[] {
  const applied = sub.rules.filter((o) => o.reading !== undefined);
  return (applied.length > 0 ? applied : sub.rules).map(({ rule, reading, points }) => {
    if (points === null || reading === undefined || reading.value === null) {
      const why = reading?.missing ?? `no ${rule.source} evidence was read`;
      return {
        signal: rule.signal,
        value: null,
        points: 0,
        max: rule.max,
        measured: false,
        missing: why,
        note: `Not measured (${why}): its ${rule.max} points leave the sub-score instead of counting as 0.`,
      };
    }
    return {
      signal: rule.signal,
      value: reading.value,
      points: shown(points),
      max: rule.max,
      measured: true,
      missing: null,
      note: `${capital(rule.explain(reading.value))}: ${shown(points)} of ${rule.max} points.`,
    };
  });
}

/** Why a measured sub-score is not 100, from its measured rules only. */
function heldBack(sub: SubScoreOutcome): string {
  const short = sub.rules
    .filter(
      (outcome) =>
        outcome.points !== null &&
        outcome.points < outcome.rule.max &&
        outcome.reading?.value !== null &&
        outcome.reading?.value !== undefined,
    )
    .sort((a, b) => b.rule.max - (b.points ?? 0) - (a.rule.max - (a.points ?? 0)))
    .slice(0, 3)
    .map((o) => `${o.rule.explain(o.reading!.value!)} (${shown(o.points ?? 0)} of ${o.rule.max})`);
  return short.length === 0
    ? `${sub.name} is ${sub.score}, every measured signal at full points`
    : `${sub.name} is ${sub.score}, held back mostly by ${short.join(', ')}`;
}

/** The reasons the sources of an unmeasured sub-score give, once each. */
function missingReasons(sub: SubScoreOutcome): string {
  // A rule its source lists no reading for does not apply to this server (the packages of a server with
  // none): the method leaves it out, and so does the sentence, unless no rule of the sub-score applies.
  const applied = sub.rules.filter((o) => o.reading !== undefined);
  const reasons = new Set(
    (applied.length > 0 ? applied : sub.rules).map(
      (o) => o.reading?.missing ?? `no ${o.rule.source} evidence was read`,
    ),
  );
  return [...reasons].join('; ');
}

/** The explanation of an mts-2 record, or undefined when the record was not scored with mts-2. */
export function explainMts2(record: ServerRecord): Explanation | undefined {
  const evidence = record.evidence;
  if (evidence === undefined || evidence.method !== 'mts-2') return undefined;
  const outcome = scoreReadings(readingsOf(record, evidence), MTS2_RULES);
  const subscores = outcome.subscores.map((sub) => ({
    name: sub.name,
    weight: sub.weight,
    computed: sub.score,
    stored: record.scores[sub.name],
    reproduced: sub.score === record.scores[sub.name],
    measured: sub.measured,
    contributions: contributions(sub),
  }));
  const trust = { computed: outcome.trust_score, stored: record.trust_score };
  const reproduced =
    trust.computed === trust.stored &&
    subscores.every((sub) => sub.reproduced) &&
    outcome.confidence === evidence.confidence;
  const measured = outcome.subscores.filter((sub) => sub.measured);
  const unmeasured = outcome.subscores.filter((sub) => !sub.measured);
  let summary: string;
  if (!reproduced) {
    const stored = subscores.map((sub) => `${sub.name} ${sub.stored}`).join(', ');
    summary =
      `The stored scores could not be reproduced from the evidence with ${evidence.method} (computed trust score ` +
      `${trust.computed}, confidence ${outcome.confidence}). Stored: trust score ${trust.stored}, ${stored}, ` +
      `confidence ${evidence.confidence}; the per-signal breakdown is our recomputation.`;
  } else if (outcome.blocking.length > 0) {
    summary =
      `Trust score 0: ${outcome.blocking.map((f) => `${f.flag} (${f.detail})`).join('; ')}. ` +
      'A blocking finding overrides every other signal.';
  } else if (measured.length === 0) {
    summary = `Trust score 0 (${evidence.method}, confidence 0/100): nothing about this server was measured.`;
  } else {
    const weightSum = measured.reduce((sum, sub) => sum + sub.weight, 0);
    const terms = measured.map((sub) => `${Math.round((sub.weight / weightSum) * 100)}% ${sub.name} ${sub.score}`);
    const weighted = measured.reduce((sum, sub) => sum + sub.weight * sub.score, 0) / weightSum;
    const parts = [
      `Trust score ${trust.stored} (${evidence.method}, confidence ${outcome.confidence}/100): measured score ` +
        `${shown(weighted)} = ${terms.join(' + ')}`,
    ];
    if (outcome.confidence < 100) {
      parts.push(
        `moved toward ${UNMEASURED_SCORE} by the ${100 - outcome.confidence}% of the method's weight that was not measured`,
      );
    }
    for (const sub of unmeasured) parts.push(`${sub.name} was not measured (${missingReasons(sub)})`);
    const weakest = measured.reduce((low, sub) => (sub.score < low.score ? sub : low));
    parts.push(heldBack(weakest));
    if (outcome.insufficient) {
      parts.push(
        `too little was measured to rely on the score (confidence below ${CONFIDENCE_THRESHOLD}): INSUFFICIENT_EVIDENCE`,
      );
    }
    summary = `${parts.join('; ')}.`;
  }
  return {
    name: record.name,
    method: evidence.method,
    reproduced,
    confidence: outcome.confidence,
    trust_score: trust,
    subscores,
    summary,
  };
}
