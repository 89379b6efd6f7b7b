/**
 * A record scored with mts-2: its scores, label and flags from the readings of every registered source, and
 * its `evidence` member saying what each source measured. The upstream `signals`, badges and registry extras
 * are kept as they are: they are the evidence the upstream method scored, and data/servers.json stays the
 * upstream import.
 */
import {
  EVIDENCE_SOURCES,
  sourceEvidence,
  type Evidence,
  type EvidenceSourceName,
  type SourceEvidence,
} from '../model/evidence.js';
import type { ServerRecord } from '../model/schema.js';
import type { EvidenceSource, SignalRule, SourceReading } from './evidence-source.js';
import { INSUFFICIENT_EVIDENCE, scoreReadings, type Mts2Outcome } from './mts2.js';

/** The sources a build reads and the rules of each. */
export interface RegisteredSource {
  source: EvidenceSource;
  rules: readonly SignalRule[];
}

const DETAIL_MEMBERS = new Set<EvidenceSourceName>(['advisories', 'packages', 'probe']);

/** Why a source no build module reads is unmeasured. */
export type UnreadReasons = Readonly<Record<EvidenceSourceName, string>>;

export interface ScoredRecord {
  record: ServerRecord;
  outcome: Mts2Outcome;
}

/** Read every registered source for `record` and score it; a source that throws is unmeasured, never fatal. */
export function scoreRecord(
  record: ServerRecord,
  registered: readonly RegisteredSource[],
  unread: UnreadReasons,
): ScoredRecord {
  const readings: SourceReading[] = [];
  const failed = new Map<EvidenceSourceName, string>();
  for (const { source } of registered) {
    try {
      readings.push(source.read({ record }));
    } catch (error) {
      failed.set(
        source.name,
        `reading this source failed: ${String((error as Error)?.message ?? error).slice(0, 120)}`,
      );
    }
  }
  const outcome = scoreReadings(
    readings,
    registered.filter(({ source }) => !failed.has(source.name)).flatMap(({ rules }) => rules),
  );
  const sources = Object.fromEntries(
    EVIDENCE_SOURCES.map((name): [EvidenceSourceName, SourceEvidence] => {
      const reading = readings.find((r) => r.source === name);
      if (reading !== undefined) return [name, sourceEvidence(reading.state, reading.signals)];
      const why = failed.get(name) ?? unread[name];
      return [name, { measured: false, missing: why, signals: {} }];
    }),
  ) as Evidence['sources'];
  const evidence: Evidence = { method: outcome.method, confidence: outcome.confidence, sources };
  for (const reading of readings) {
    if (reading.detail === undefined || !DETAIL_MEMBERS.has(reading.source)) continue;
    (evidence as Record<string, unknown>)[reading.source] = reading.detail;
  }
  const flags = record.flags.filter((flag) => flag !== INSUFFICIENT_EVIDENCE);
  for (const finding of outcome.findings) if (!flags.includes(finding.flag)) flags.push(finding.flag);
  if (outcome.insufficient) flags.push(INSUFFICIENT_EVIDENCE);
  const scored: ServerRecord = {
    ...record,
    trust_score: outcome.trust_score,
    trust_label: outcome.trust_label,
    scores: outcome.scores,
    flags,
    evidence,
  };
  return { record: scored, outcome };
}
