/**
 * Test helpers: valid records with sensible defaults, and snapshots built from them in temp folders, each
 * removed once the test file that asked for it has finished (`temp.ts`).
 */
import path from 'node:path';
import { labelForScore, type ServerRecord, type Signals } from '../../src/model/schema.js';
import { writeSnapshot } from '../../src/snapshot-build/build.js';
import { makeTempDir } from './temp.js';

/** A valid record; `trust_label` follows `trust_score` unless given. */
export function makeRecord(overrides: Partial<ServerRecord> & { name: string }): ServerRecord {
  const trustScore = overrides.trust_score ?? 50;
  return {
    trust_score: trustScore,
    trust_label: labelForScore(trustScore),
    scores: { provenance: 50, maintenance: 50, popularity: 50, permissions: 50 },
    flags: [],
    badges: [],
    verified_publisher: false,
    targets: [],
    scored_at: '2026-02-21T22:49:33.106Z',
    install: { repo_url: null, version: null, package_types: [], transport_types: [] },
    ...overrides,
  };
}

/** Build a snapshot of `records` (and registry entries `registry`, pinned tools `tools`) in a fresh temp folder and return the folder. */
export async function buildTestSnapshot(
  records: readonly unknown[],
  registry?: readonly unknown[],
  tools?: unknown,
): Promise<string> {
  const dir = path.join(await makeTempDir('mts-snapshot-'), 'snapshot');
  const now = new Date('2026-03-01T00:00:00.000Z');
  await writeSnapshot(records, dir, {
    now,
    ...(registry === undefined ? {} : { registry }),
    ...(tools === undefined ? {} : { tools }),
  });
  return dir;
}

/** Signals with every field set, as the scoring pipeline records them: for records that use the whole schema. */
export const SIGNALS: Signals = {
  has_source_repo: true,
  repo_not_archived: true,
  has_license: true,
  has_installable_package: true,
  has_website_url: false,
  has_icon: false,
  namespace_matches_owner: true,
  has_security_md: false,
  has_code_of_conduct: false,
  unique_description: true,
  repo_age_over_90d: true,
  last_push_recency: 0.95,
  active_commit_weeks: 30,
  contributor_count: 5,
  version_count: 1,
  releases_past_year: 15,
  github_stars: 1234,
  github_forks: 56,
  github_watchers: 7,
  secret_env_var_count: 1,
  transport_type_risk: 25,
  credential_sensitivity: 15,
  package_type_risk: 15,
};
