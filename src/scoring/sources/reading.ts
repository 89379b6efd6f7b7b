/**
 * Small helpers every source module uses to write its reading: a measured signal, a missing one with its
 * reason, and the fields of a record a source may read (bounded, checked with zod: a dataset is input).
 */
import { z } from 'zod';
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

/** The upstream signals a record may carry, loosely: each is read only when it has the expected type. */
const Flag = z.boolean().nullish().catch(null);
const Num = z.number().nullish().catch(null);
export const UpstreamSignalsSchema = z.looseObject({
  has_source_repo: Flag,
  repo_not_archived: Flag,
  has_license: Flag,
  has_website_url: Flag,
  has_icon: Flag,
  namespace_matches_owner: Flag,
  repo_age_over_90d: Flag,
  last_push_recency: Num,
  active_commit_weeks: Num,
  contributor_count: Num,
  github_stars: Num,
  github_forks: Num,
  github_watchers: Num,
  secret_env_var_count: Num,
  credential_sensitivity: Num,
});
export type UpstreamSignals = z.infer<typeof UpstreamSignalsSchema>;
