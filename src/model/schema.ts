/**
 * The one schema of the service. The build validates the dataset with it, the gateway validates query
 * parameters with it, the OpenAPI document and the MCP tools are generated from it. Change it here only.
 */
import { z } from 'zod';
import { TRUST_BANDS, type TrustLabel } from './vocabulary.js';

export { TRUST_BANDS, type TrustLabel } from './vocabulary.js';

export const TRUST_LABELS = TRUST_BANDS.map((band) => band.label) as [TrustLabel, ...TrustLabel[]];

/** The label of the band that holds `score` (an integer 0 to 100). */
export function labelForScore(score: number): TrustLabel {
  for (const band of TRUST_BANDS) if (score >= band.min) return band.label;
  return 'Unknown/Suspicious';
}

/** Bounds on every string of a record: a dataset is input too. */
export const MAX_NAME_LENGTH = 200;
const MAX_TEXT = 500;

/**
 * What a name part may not hold: `/`, control characters (C0, DEL, C1) and white space, the set ECMAScript's
 * `[\s\p{Cc}]` means, spelled out. Published patterns use only syntax ECMAScript, Python's `re` and Go's
 * RE2 read alike (no `\p{...}`, no `\s` or `\d`, whose sets differ between them), with the Unicode spaces
 * written as the characters themselves (RE2 has no `\u` escape). U+2028 and U+2029 sit inside the range
 * U+2027-U+202F because a RegExp's `source` writes a line terminator as an escape however it was given; the
 * range also refuses the bidirectional embedding controls U+202A-U+202E, which have no place in a name.
 */
const NAME_EXCLUDED = '/\\x00-\\x20\\x7f-\\x9f\u00a0\u1680\u2000-\u200a\u2027-\u202f\u205f\u3000\ufeff';

/** `<namespace>/<id>`: exactly one slash, both parts non-empty, no white space or control characters. */
export const SERVER_NAME_PATTERN = new RegExp(`^[^${NAME_EXCLUDED}]+/[^${NAME_EXCLUDED}]+$`);

/** An ISO 8601 UTC timestamp (`2026-02-21T22:49:33.106Z`), in portable pattern syntax (`[0-9]`, not `\d`). */
export const ISO_UTC_PATTERN = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?Z$/;

/** A real instant in UTC, with a portable pattern: a day that does not exist (Feb 30) is refused too. */
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether text of ISO_UTC_PATTERN's form names a real instant: a month 1 to 12, a day that month has (29
 * February in leap years only), hours to 23, minutes and seconds to 59, exactly the texts that `Date`
 * reads and writes back unchanged. By arithmetic: a dataset has a timestamp per record, and making two
 * `Date` objects for each was a tenth of a build.
 */
export function isCalendarTime(text: string): boolean {
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(5, 7));
  const day = Number(text.slice(8, 10));
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
  return (
    days !== undefined &&
    day >= 1 &&
    day <= days &&
    Number(text.slice(11, 13)) <= 23 &&
    Number(text.slice(14, 16)) <= 59 &&
    Number(text.slice(17, 19)) <= 59
  );
}

export const isoUtc = (error = 'must be an ISO 8601 UTC timestamp (ending in Z)') =>
  z.string().regex(ISO_UTC_PATTERN, { error }).refine(isCalendarTime, { error }).meta({ format: 'date-time' });

/** A server name; `hint` follows the rule in the message (what the caller can do next). */
export const serverName = (hint = '') =>
  z
    .string()
    .max(MAX_NAME_LENGTH, { error: `name must be at most ${MAX_NAME_LENGTH} characters` })
    .regex(SERVER_NAME_PATTERN, { error: `name must be <namespace>/<id> with exactly one "/"${hint}` });

export const ServerNameSchema = serverName();

const Score = z.number().int().min(0).max(100);

export const FLAG_PATTERN = /^[A-Z][A-Z0-9_]*$/;
export const FlagSchema = z.string().max(64).regex(FLAG_PATTERN, { error: 'flag names are UPPER_SNAKE_CASE' });

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
  })
  .refine((record) => record.trust_label === labelForScore(record.trust_score), {
    error:
      'trust_label must be the band of trust_score (High Trust 80-100, Moderate 60-79, Low 40-59, Very Low 20-39, Unknown/Suspicious 0-19)',
    path: ['trust_label'],
  });
export type ServerRecord = z.infer<typeof ServerRecordSchema>;

/** Split a name into its namespace and id (the name is valid, so both exist). */
export function splitName(name: string): { namespace: string; id: string } {
  const slash = name.indexOf('/');
  return { namespace: name.slice(0, slash), id: name.slice(slash + 1) };
}

/** The statistics record of the specification (section 2.3). */
export const StatsSchema = z.strictObject({
  total_servers: z.number().int().min(0),
  average_score: z.number(),
  median_score: z.number(),
  score_distribution: z.record(z.string(), z.number().int().min(0)),
  flag_summary: z.record(z.string(), z.number().int().min(0)),
  verified_publishers: z.number().int().min(0),
  /** A documented extra: servers per platform target, most common first, so a client can learn the values. */
  target_summary: z.record(z.string(), z.number().int().min(0)).optional(),
});
export type Stats = z.infer<typeof StatsSchema>;

/** The health record of the specification (section 2.4). */
export const HealthSchema = z.object({
  status: z.string(),
  timestamp: z.string().optional(),
});

// ---------------------------------------------------------------------------------------------------------
// Query parameters. These are the typed values; the gateway turns query-string text into them and the MCP
// tools take them directly as JSON, so the bounds below are the only copy of the API's limits.

export const SORT_FIELDS = [
  'trust_score',
  'name',
  'namespace',
  'provenance',
  'maintenance',
  'popularity',
  'permissions',
  'scored_at',
] as const;
export type SortField = (typeof SORT_FIELDS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export const LIMITS = {
  list: { min: 1, max: 200, default: 50 },
  search: { min: 1, max: 200, default: 20 },
  /** Past any real dataset; bounds the work an offset can ask for and keeps it a safe integer. */
  maxOffset: 100_000_000,
  minQuery: 2,
  maxQuery: 200,
  /** A filter value longer than any flag, target or namespace a record may hold matches nothing anyway. */
  maxFilter: MAX_NAME_LENGTH,
  /** A package reference or a remote URL to look up. */
  maxLookup: 500,
} as const;

const intIn = (name: string, min: number, max: number) =>
  z
    .number({ error: `${name} must be an integer from ${min} to ${max}` })
    .int({ error: `${name} must be an integer from ${min} to ${max}` })
    .min(min, { error: `${name} must be an integer from ${min} to ${max}` })
    .max(max, { error: `${name} must be an integer from ${min} to ${max}` });

const filterText = (name: string) =>
  z
    .string({ error: `${name} must be a string` })
    .trim()
    .min(1, { error: `${name} must not be empty` })
    .max(LIMITS.maxFilter, { error: `${name} must be at most ${LIMITS.maxFilter} characters` });

export const ListParamsSchema = z.strictObject({
  limit: intIn('limit', LIMITS.list.min, LIMITS.list.max).default(LIMITS.list.default),
  offset: intIn('offset', 0, LIMITS.maxOffset).default(0),
  sort: z.enum(SORT_FIELDS, { error: `sort must be one of: ${SORT_FIELDS.join(', ')}` }).default('trust_score'),
  order: z.enum(SORT_ORDERS, { error: 'order must be asc or desc' }).default('desc'),
  min_score: intIn('min_score', 0, 100).optional(),
  /** One flag name, or several separated by commas: the server must carry all of them. */
  flags: filterText('flags')
    .refine((text) => text.split(',').every((flag) => flag.trim() !== ''), {
      error: 'flags must be one flag name or several separated by commas, with no empty name',
    })
    .optional(),
  target: filterText('target').optional(),
  namespace: filterText('namespace').optional(),
});
export type ListParams = z.infer<typeof ListParamsSchema>;

/** Changes since a snapshot: which one (`since`, a snapshot id), and the page. */
export const ChangesParamsSchema = z.strictObject({
  since: z
    .string({ error: 'since is required: a snapshot id, as meta.snapshot_id and /v1/health give it' })
    .regex(/^[0-9a-f]{16,64}$/, { error: 'since must be a snapshot id (16 to 64 lower-case hex characters)' }),
  limit: intIn('limit', LIMITS.list.min, LIMITS.list.max).default(LIMITS.list.default),
  offset: intIn('offset', 0, LIMITS.maxOffset).default(0),
});
export type ChangesParams = z.infer<typeof ChangesParamsSchema>;

/** Reverse lookup: exactly one of `package` (`<registry_type>:<identifier>`) or `url` (a remote's URL). */
export const LookupParamsSchema = z.strictObject({
  package: z
    .string({ error: 'package must be a string' })
    .trim()
    .min(3, { error: 'package must be <registry_type>:<identifier>' })
    .max(LIMITS.maxLookup, { error: `package must be at most ${LIMITS.maxLookup} characters` })
    .optional(),
  url: z
    .string({ error: 'url must be a string' })
    .trim()
    .min(1, { error: 'url must not be empty' })
    .max(LIMITS.maxLookup, { error: `url must be at most ${LIMITS.maxLookup} characters` })
    .optional(),
});
export type LookupParams = z.infer<typeof LookupParamsSchema>;

/** Search words, with messages that name the parameter as the caller knows it (`q` here, `query` in MCP). */
export const searchWords = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .min(LIMITS.minQuery, { error: `${name} must be at least ${LIMITS.minQuery} characters` })
    .max(LIMITS.maxQuery, { error: `${name} must be at most ${LIMITS.maxQuery} characters` });

/** Where a search looks, as `in` spells it: names (the default), descriptions, or both (comma-separated). */
export const SEARCH_IN = ['name', 'description'] as const;

export const SearchParamsSchema = z.strictObject({
  q: searchWords('q'),
  limit: intIn('limit', LIMITS.search.min, LIMITS.search.max).default(LIMITS.search.default),
  offset: intIn('offset', 0, LIMITS.maxOffset).default(0),
  in: z
    .string({ error: 'in must be a string' })
    .regex(/^(name|description)(,(name|description))?$/, {
      error: 'in must be name, description, or both separated by a comma (name,description)',
    })
    .default('name'),
});
export type SearchParams = z.infer<typeof SearchParamsSchema>;

/** Get Server's path parameters. */
export const ServerPathSchema = z.strictObject({
  namespace: z.string().min(1).max(MAX_NAME_LENGTH),
  id: z.string().min(1).max(MAX_NAME_LENGTH),
});
