/**
 * The build's scoring of each record before it is validated: with mts-2 (the default), every record of the
 * dataset is scored from the evidence of the registered sources (`evidence-sources.ts`) and carries its
 * `evidence`; with `msc-7bc729d`, the records keep the scores the dataset holds (the upstream method's, as
 * the import or `npm run rescore` wrote them). Both of the build's threads make the same scorer from the
 * same choice, so the schema check's worker sees exactly the records the build keeps.
 */
import path from 'node:path';
import * as z from 'zod';
import { EvidenceSchema } from '../model/evidence.js';
import { ScoresSchema } from '../model/record-schema.js';
import { labelForScore, TRUST_LABELS, type ServerRecord } from '../model/schema.js';
import { MTS2_METHOD, UPSTREAM_METHOD, type MethodId } from '../scoring/methods.js';
import { scoreRecord } from '../scoring/score-record.js';
import { CatalogJoin } from '../dataset/catalog.js';
import { readCatalogFile } from './catalog-records.js';
import { defaultSourceContext, loadEvidenceSources, UNREAD_SOURCES } from './evidence-sources.js';

/** Which method the build scores with, and where the committed evidence files are (plain data: a worker gets it). */
export interface ScoringChoice {
  method: MethodId;
  evidenceDir: string;
  /**
   * The curators' catalog file joined into the records (`catalog-records.ts`), with mts-2 only: the upstream
   * method's scores are the dataset's own, and a catalog server has none.
   */
  catalog?: string | undefined;
}

/** Records as the dataset holds them. */
export const AS_GIVEN: ScoringChoice = { method: UPSTREAM_METHOD, evidenceDir: '' };

/** Scoring with mts-2 from the evidence folder `evidenceDir` (default `data/evidence` under `cwd`). */
export function mts2Scoring(cwd: string = process.cwd(), evidenceDir?: string): ScoringChoice {
  return { method: MTS2_METHOD, evidenceDir: path.resolve(evidenceDir ?? defaultSourceContext(cwd).evidenceDir) };
}

/**
 * A raw record → the record to validate. A record that cannot be scored is left as it is, for the validation to
 * report. With a catalog, `catalogRecords` gives, once every record of the dataset went through, the catalog
 * servers none of them was, scored.
 */
export interface RecordScorer {
  (raw: unknown): unknown;
  catalogRecords(): unknown[];
  /** The catalog file, for messages; undefined without one. */
  readonly catalogFile: string | undefined;
}

/**
 * What is checked before scoring, so a malformed record is left for the validation to report as it is: the
 * members every source reads, and those scoring replaces (the scores, the label and its band, the evidence),
 * which would otherwise hide a bad value the dataset holds. The rest is not checked here: the scored record
 * is validated whole afterwards, the evidence included, which is the build's one full check per record.
 */
const ScorableShape = z
  .looseObject({
    name: z.string().regex(/^[^/]+\/[^/]+$/),
    trust_score: z.number().int().min(0).max(100),
    trust_label: z.enum(TRUST_LABELS),
    scores: ScoresSchema,
    evidence: EvidenceSchema.optional(),
    flags: z.array(z.string()),
    scored_at: z.string(),
    install: z.looseObject({
      repo_url: z.string().nullable(),
      package_types: z.array(z.string()),
      transport_types: z.array(z.string()),
    }),
    signals: z.looseObject({}).optional(),
  })
  .refine((record) => record.trust_label === labelForScore(record.trust_score));

export async function makeRecordScorer(choice: ScoringChoice): Promise<RecordScorer> {
  if (choice.method !== MTS2_METHOD)
    return Object.assign((raw: unknown) => raw, { catalogRecords: () => [], catalogFile: undefined });
  const sources = await loadEvidenceSources({ evidenceDir: choice.evidenceDir });
  const join = choice.catalog === undefined ? undefined : new CatalogJoin(await readCatalogFile(choice.catalog));
  const score = (raw: unknown): unknown => {
    if (!ScorableShape.safeParse(raw).success) return raw;
    try {
      // Scored as the record it claims to be: whatever it breaks, the validation of the result reports.
      return scoreRecord(raw as ServerRecord, sources, UNREAD_SOURCES).record;
    } catch {
      return raw;
    }
  };
  return Object.assign((raw: unknown) => score(join === undefined ? raw : join.attach(raw)), {
    catalogRecords: () => (join === undefined ? [] : join.unjoined().map(score)),
    catalogFile: choice.catalog,
  });
}
