/**
 * The server record of the specification (section 2.2) and its parts: what the build validates every record
 * of the dataset with. A module of its own so a process that only serves a built snapshot (which checks its
 * artifacts by their hashes) never constructs these validators at start; `schema.ts` re-exports the types.
 */
import * as z from 'zod';
import { ListingSchema } from './catalog.js';
import { EvidenceSchema } from './evidence.js';
import { FlagSchema, isoUtc, labelForScore, MAX_TEXT, ServerNameSchema, TRUST_LABELS } from './fields.js';
import { repositoryKey } from './identifiers.js';

const Score = z.number().int().min(0).max(100);

export const BadgeSchema = z.strictObject({
  /** Stable machine id, kebab-case, e.g. `security-policy`. */
  id: z
    .string()
    .max(64)
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/),
  /** Short human label, e.g. `Security policy`. */
  label: z.string().min(1).max(80),
  /** The signal (and value) the badge was derived from, in words. */
  evidence: z.string().max(MAX_TEXT),
});
export type Badge = z.infer<typeof BadgeSchema>;

/**
 * The evidence behind the scores, as the scoring pipeline recorded it. Optional on a record; where present
 * every field is required so a reader never has to guess what a missing one means (`null` = not measured).
 */
const Count = z.number().int().min(0).nullable();
export const SignalsSchema = z.strictObject({
  has_source_repo: z.boolean(),
  repo_not_archived: z.boolean(),
  has_license: z.boolean(),
  has_installable_package: z.boolean(),
  has_website_url: z.boolean(),
  has_icon: z.boolean(),
  namespace_matches_owner: z.boolean(),
  has_security_md: z.boolean(),
  has_code_of_conduct: z.boolean(),
  unique_description: z.boolean(),
  repo_age_over_90d: z.boolean(),
  /** 0 (stale) to 1 (pushed recently). */
  last_push_recency: z.number().min(0).max(1).nullable(),
  active_commit_weeks: Count,
  contributor_count: Count,
  version_count: Count,
  releases_past_year: Count,
  github_stars: Count,
  github_forks: Count,
  github_watchers: Count,
  secret_env_var_count: Count,
  /** Points 0 to 100 from the scoring pipeline, where higher is safer (see data/README.md). */
  transport_type_risk: z.number().min(0).max(100).nullable(),
  credential_sensitivity: z.number().min(0).max(100).nullable(),
  package_type_risk: z.number().min(0).max(100).nullable(),
});
export type Signals = z.infer<typeof SignalsSchema>;

/** A version string; an unknown version is `null`, never an empty string (nothing is invented). */
const VersionText = z
  .string()
  .min(1, { error: 'version must not be empty: write null when the version is unknown' })
  .max(MAX_TEXT);
const UniqueStrings = (item: z.ZodString) =>
  z
    .array(item)
    .max(64)
    // Most lists hold one item or none: nothing to compare, and nothing allocated per record.
    .refine((items) => items.length < 2 || new Set(items.map((s) => s.toLowerCase())).size === items.length, {
      error: 'items must be unique (case-insensitively)',
    });

export const InstallSchema = z.strictObject({
  repo_url: z
    .url({ protocol: /^https?$/, error: 'repo_url must be an http(s) URL or null' })
    .max(MAX_TEXT)
    .nullable(),
  version: VersionText.nullable(),
  package_types: UniqueStrings(z.string().min(1).max(64)),
  transport_types: UniqueStrings(z.string().min(1).max(64)),
});
export type Install = z.infer<typeof InstallSchema>;

export const ScoresSchema = z.strictObject({
  provenance: Score,
  maintenance: Score,
  popularity: Score,
  permissions: Score,
});

/** A package of the server as the registry lists it: where (`npm`, `pypi`, `oci`, ...), what, which version. */
export const PackageRefSchema = z.strictObject({
  registry_type: z.string().min(1).max(64),
  identifier: z.string().min(1).max(MAX_TEXT),
  version: VersionText.nullable(),
});
export type PackageRef = z.infer<typeof PackageRefSchema>;

/** A remote endpoint of the server as the registry lists it: its transport and URL. */
export const RemoteRefSchema = z.strictObject({
  type: z.string().min(1).max(64),
  url: z.string().min(1).max(MAX_TEXT),
});
export type RemoteRef = z.infer<typeof RemoteRefSchema>;

/** The server record of the specification (section 2.2), plus the documented `signals`. */
export const ServerRecordSchema = z
  .strictObject({
    name: ServerNameSchema,
    trust_score: Score,
    trust_label: z.enum(TRUST_LABELS),
    scores: ScoresSchema,
    flags: UniqueStrings(FlagSchema),
    badges: z.array(BadgeSchema).max(64),
    verified_publisher: z.boolean(),
    targets: UniqueStrings(z.string().min(1).max(64)),
    scored_at: isoUtc('scored_at must be an ISO 8601 UTC timestamp (ending in Z)'),
    install: InstallSchema,
    signals: SignalsSchema.optional(),
    // Documented extras from the registry (data/README.md): absent in older datasets, never invented.
    description: z.string().min(1).max(MAX_TEXT).nullable().optional(),
    packages: z.array(PackageRefSchema).max(64).optional(),
    remotes: z.array(RemoteRefSchema).max(64).optional(),
    // The curators' catalogs that list the server, with what each declares (`catalog.ts`): never measured.
    listings: z.array(ListingSchema).max(16).optional(),
    // What was measured and by whom, per source and per signal, and the method that scored it (`evidence.ts`).
    evidence: EvidenceSchema.optional(),
  })
  .refine((record) => record.trust_label === labelForScore(record.trust_score), {
    error:
      'trust_label must be the band of trust_score (High Trust 80-100, Moderate 60-79, Low 40-59, Very Low 20-39, Unknown/Suspicious 0-19)',
    path: ['trust_label'],
  });
export type ServerRecord = z.infer<typeof ServerRecordSchema>;

/**
 * What the build's indexes, statistics and history read of a record: all of it but the evidence (badges,
 * install, signals, evidence), which only the records file carries. The build holds a summary per record and the
 * record itself as text (`src/snapshot-build/record-texts.ts`), which at a million records halves its memory.
 */
export type IndexedRecord = Omit<ServerRecord, 'badges' | 'install' | 'signals' | 'evidence'> & {
  /** The source repository's key (`repositoryKey` of `install.repo_url`), for lookup by repository. */
  repository_key?: string;
};

export function indexedPartOf(record: ServerRecord): IndexedRecord {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- what is left out is the point
  const { badges, install, signals, evidence, ...summary } = record;
  const repository = install.repo_url === null ? undefined : repositoryKey(install.repo_url);
  return repository === undefined ? summary : { ...summary, repository_key: repository };
}
