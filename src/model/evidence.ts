/**
 * What a record says was measured: its `evidence` member. For each source of facts (the registry entry, the
 * source repository, the package registries, a live probe of the remote, the advisory databases) whether it was
 * measured, when and by whom, or why not; and under each source the signals the method reads of it, each its
 * value or `null`, the reason it is missing said once (by the source when the whole source is missing). A
 * signal that was not measured is never 0 (house style 27).
 *
 * Additive to the specification's record: its fields stay as they are. Each source may add a member of its own
 * detail (`advisories`, `packages`, `probe`) through the optional members below; the method never reads them,
 * only the readings of `src/scoring/evidence-source.ts`.
 */
import * as z from 'zod';
import { isoUtc } from './fields.js';

/** The sources of evidence, in the order every report lists them. */
export const EVIDENCE_SOURCES = ['registry', 'repository', 'packages', 'probe', 'advisories'] as const;
export type EvidenceSourceName = (typeof EVIDENCE_SOURCES)[number];

/** Bound on every sentence of evidence: why something is missing, who measured it. */
export const MAX_EVIDENCE_TEXT = 200;
const EvidenceText = z.string().min(1).max(MAX_EVIDENCE_TEXT);

/**
 * One source's state for one server. `measured: false` always carries `missing` (why: "no repository in the
 * registry entry", "repository not read: the scoring run's GitHub quota ran out"); `by` names who measured
 * (this project's pipeline or a named third party) and `third_party` says which, so a client never takes
 * another's observation for ours. This is what a source module reports; the record publishes it with the
 * source's signals (`SourceEvidenceSchema`).
 */
export const SourceStateSchema = z
  .strictObject({
    measured: z.boolean(),
    at: isoUtc('evidence time must be an ISO 8601 UTC timestamp (ending in Z)').nullable(),
    by: EvidenceText.nullable(),
    third_party: z.boolean(),
    missing: EvidenceText.nullable(),
  })
  .refine((state) => state.measured === (state.missing === null), {
    error: 'a measured source has no missing reason, and an unmeasured one always has one',
  });
export type SourceState = z.infer<typeof SourceStateSchema>;

/** A measured signal's value; `null` when it was not measured. */
export const SignalValueSchema = z.union([z.boolean(), z.number(), z.string().max(MAX_EVIDENCE_TEXT)]).nullable();
export type SignalValue = z.infer<typeof SignalValueSchema>;

/**
 * A signal as a source module reads it: its value, or `null` with the reason it is missing. The record
 * publishes these grouped under their source (`SourceEvidenceSchema`), the reason stated once where the
 * whole source is missing.
 */
export interface SignalReading {
  source: EvidenceSourceName;
  value: Exclude<SignalValue, null> | null;
  missing: string | null;
}

export const SIGNAL_NAME_PATTERN = /^[a-z][a-z0-9_]*$/;
const SignalName = z.string().max(64).regex(SIGNAL_NAME_PATTERN);

/**
 * One source in a record's evidence: whether it was measured, and every signal of it that applies to the
 * server (one the source does not list does not apply, and takes no part in the score or the confidence), each
 * its value or `null` when it was not measured. A measured source says when (`at`, null when unknown) and by
 * whom (`by`, `third_party`); an unmeasured one says why (`missing`), and then every signal of it is `null`
 * for that reason, said once. A `null` signal of a measured source has its own reason in `missing_signals`.
 */
const MeasuredSourceSchema = z
  .strictObject({
    measured: z.literal(true),
    at: isoUtc('evidence time must be an ISO 8601 UTC timestamp (ending in Z)').nullable(),
    by: EvidenceText,
    third_party: z.boolean(),
    signals: z.record(SignalName, SignalValueSchema),
    missing_signals: z.record(SignalName, EvidenceText).optional(),
  })
  .refine(
    (state) => {
      const nulls = Object.keys(state.signals).filter((name) => state.signals[name] === null);
      const reasons = Object.keys(state.missing_signals ?? {});
      return reasons.length === nulls.length && nulls.every((name) => state.missing_signals?.[name] !== undefined);
    },
    { error: 'each null signal of a measured source has its reason in missing_signals, and only those' },
  );

const UnmeasuredSourceSchema = z.strictObject({
  measured: z.literal(false),
  missing: EvidenceText,
  signals: z.record(SignalName, z.null()),
});

export const SourceEvidenceSchema = z.discriminatedUnion('measured', [MeasuredSourceSchema, UnmeasuredSourceSchema]);
export type SourceEvidence = z.infer<typeof SourceEvidenceSchema>;

export const EvidenceSchema = z.strictObject({
  /** The method that made the record's scores from this evidence (`mts-2`, `msc-7bc729d`). */
  method: z.string().min(1).max(64),
  /** How much of the method's weight rests on measured evidence, 0 to 100. */
  confidence: z.number().int().min(0).max(100),
  sources: z.strictObject({
    registry: SourceEvidenceSchema,
    repository: SourceEvidenceSchema,
    packages: SourceEvidenceSchema,
    probe: SourceEvidenceSchema,
    advisories: SourceEvidenceSchema,
  }),
  // Each source's own detail, owned by the module that reads that source (absent when it has none).
  advisories: z.array(z.unknown()).max(64).optional(),
  packages: z.array(z.unknown()).max(64).optional(),
  probe: z.unknown().optional(),
});
export type Evidence = z.infer<typeof EvidenceSchema>;

/** A source's state and signals as the record publishes them: each missing reason said once. */
export function sourceEvidence(state: SourceState, readings: Readonly<Record<string, SignalReading>>): SourceEvidence {
  if (!state.measured) {
    // An unmeasured source's signals are all missing for the source's own reason: said once, by the source.
    const signals: Record<string, null> = {};
    for (const name of Object.keys(readings)) signals[name] = null;
    return { measured: false, missing: state.missing ?? 'not measured', signals };
  }
  const signals: Record<string, SignalValue> = {};
  let missingSignals: Record<string, string> | undefined;
  for (const name of Object.keys(readings)) {
    const reading = readings[name]!;
    signals[name] = reading.value;
    if (reading.value === null) (missingSignals ??= {})[name] = reading.missing ?? 'not measured';
  }
  const published: SourceEvidence = {
    measured: true,
    at: state.at,
    by: state.by ?? 'not stated',
    third_party: state.third_party,
    signals,
  };
  if (missingSignals !== undefined) published.missing_signals = missingSignals;
  return published;
}

/** A published source's state as a source module reports it. */
export function sourceState(state: SourceEvidence): SourceState {
  return state.measured
    ? { measured: true, at: state.at, by: state.by, third_party: state.third_party, missing: null }
    : { measured: false, at: null, by: null, third_party: false, missing: state.missing };
}

/** The readings a published source stands for: each signal with its value, or null and the reason. */
export function signalReadings(source: EvidenceSourceName, state: SourceEvidence): Record<string, SignalReading> {
  const readings: Record<string, SignalReading> = {};
  for (const name of Object.keys(state.signals)) {
    const value = state.signals[name] ?? null;
    const why = state.measured ? state.missing_signals?.[name] : state.missing;
    readings[name] =
      value === null ? { source, value: null, missing: why ?? 'not measured' } : { source, value, missing: null };
  }
  return readings;
}
