/**
 * What a record says was measured: its `evidence` member. For each source of facts (the registry entry, the
 * source repository, the package registries, a live probe of the remote, the advisory databases) whether it was
 * measured, when and by whom, or why not; and for each signal the method reads, its value or `null` with the
 * reason it is missing. A signal that was not measured is never 0 (house style 27).
 *
 * Additive to the specification's record: its fields stay as they are. Each source may add a member of its own
 * detail (`advisories`, `packages`, `probe`) through the optional members below; the method never reads them,
 * only the readings of `src/scoring/evidence-source.ts`.
 */
import { z } from 'zod';
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
 * another's observation for ours.
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

/** A signal's value as measured, or `null` with the reason it is missing. */
export const SignalReadingSchema = z
  .strictObject({
    source: z.enum(EVIDENCE_SOURCES),
    value: z.union([z.boolean(), z.number(), z.string().max(MAX_EVIDENCE_TEXT)]).nullable(),
    missing: EvidenceText.nullable(),
  })
  .refine((reading) => (reading.value === null) === (reading.missing !== null), {
    error: 'a signal has a value or a missing reason, never both and never neither',
  });
export type SignalReading = z.infer<typeof SignalReadingSchema>;

export const SIGNAL_NAME_PATTERN = /^[a-z][a-z0-9_]*$/;

export const EvidenceSchema = z.strictObject({
  /** The method that made the record's scores from this evidence (`mts-2`, `msc-7bc729d`). */
  method: z.string().min(1).max(64),
  /** How much of the method's weight rests on measured evidence, 0 to 100. */
  confidence: z.number().int().min(0).max(100),
  sources: z.strictObject({
    registry: SourceStateSchema,
    repository: SourceStateSchema,
    packages: SourceStateSchema,
    probe: SourceStateSchema,
    advisories: SourceStateSchema,
  }),
  signals: z.record(z.string().max(64).regex(SIGNAL_NAME_PATTERN), SignalReadingSchema),
  // Each source's own detail, owned by the module that reads that source (absent when it has none).
  advisories: z.array(z.unknown()).max(64).optional(),
  packages: z.array(z.unknown()).max(64).optional(),
  probe: z.unknown().optional(),
});
export type Evidence = z.infer<typeof EvidenceSchema>;
