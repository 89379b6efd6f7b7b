/**
 * The build's scoring of each record before it is validated: with mts-2 (the default), every record of the
 * dataset is scored from the evidence of the registered sources (`evidence-sources.ts`) and carries its
 * `evidence`; with `msc-7bc729d`, the records keep the scores the dataset holds (the upstream method's, as
 * the import or `npm run rescore` wrote them). Both of the build's threads make the same scorer from the
 * same choice, so the schema check's worker sees exactly the records the build keeps.
 */
import { ServerRecordSchema } from '../model/record-schema.js';
import { MTS2_METHOD, UPSTREAM_METHOD, type MethodId } from '../scoring/methods.js';
import { scoreRecord } from '../scoring/score-record.js';
import { defaultSourceContext, loadEvidenceSources, UNREAD_SOURCES } from './evidence-sources.js';

/** Which method the build scores with, and where the committed evidence files are (plain data: a worker gets it). */
export interface ScoringChoice {
  method: MethodId;
  evidenceDir: string;
}

/** Records as the dataset holds them. */
export const AS_GIVEN: ScoringChoice = { method: UPSTREAM_METHOD, evidenceDir: '' };

export function mts2Scoring(cwd: string = process.cwd()): ScoringChoice {
  return { method: MTS2_METHOD, evidenceDir: defaultSourceContext(cwd).evidenceDir };
}

/** A raw record → the record to validate. A record the schema refuses is left as it is, for the validation to report. */
export type RecordScorer = (raw: unknown) => unknown;

export async function makeRecordScorer(choice: ScoringChoice): Promise<RecordScorer> {
  if (choice.method !== MTS2_METHOD) return (raw) => raw;
  const sources = await loadEvidenceSources({ evidenceDir: choice.evidenceDir });
  return (raw) => {
    const parsed = ServerRecordSchema.safeParse(raw);
    if (!parsed.success) return raw;
    return scoreRecord(parsed.data, sources, UNREAD_SOURCES).record;
  };
}
