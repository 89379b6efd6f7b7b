/**
 * Small helpers every source module uses to write its reading: a measured signal, and a missing one with its
 * reason (both bounded as the evidence schema wants).
 */
import type { EvidenceSourceName, SignalReading } from '../../model/evidence.js';
import { MAX_EVIDENCE_TEXT } from '../../model/evidence.js';

export const measured = (source: EvidenceSourceName, value: boolean | number | string): SignalReading => ({
  source,
  value: typeof value === 'string' ? value.slice(0, MAX_EVIDENCE_TEXT) : value,
  missing: null,
});

export const missing = (source: EvidenceSourceName, reason: string): SignalReading => ({
  source,
  value: null,
  missing: reason.slice(0, MAX_EVIDENCE_TEXT),
});
