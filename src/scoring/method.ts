/**
 * The figures of the published scoring method of MCP Scorecard (https://github.com/gigabrainobserver/mcp-scorecard),
 * at the version that wrote the committed dataset: files `src/mcp_scorecard/config.py`,
 * `scoring/categories.py`, `scoring/calculator.py`, `scoring/flags.py`, `collectors/registry.py` and
 * `enrichers/github.py`, read at commit 45a9edcc8aba82ff87e2c2059c134ea72163aa1d, the last change to them before
 * commit 7bc729d32417798a50c24bc4f5d5d9bb9cfa10f3 ("Enriched scan", 2026-02-21) that wrote our dataset. Only the
 * figures are carried over; the code is our own. Later upstream commits changed the method (e.g. a licence
 * classification), so this module deliberately follows the dataset's version.
 */
import type { Signals } from '../model/schema.js';

/** The method version every score made here follows: the upstream commit that wrote the committed dataset. */
export const METHOD_VERSION = 'mcp-scorecard@7bc729d32417798a50c24bc4f5d5d9bb9cfa10f3';

export type SubScoreName = 'provenance' | 'maintenance' | 'popularity' | 'permissions';

/** The order matters: the pipeline sums the weighted sub-scores in this order, in floating point. */
export const WEIGHTS: ReadonlyArray<readonly [SubScoreName, number]> = [
  ['provenance', 0.3],
  ['maintenance', 0.25],
  ['popularity', 0.2],
  ['permissions', 0.25],
];

export type BooleanSignal = { [K in keyof Signals]: Signals[K] extends boolean ? K : never }[keyof Signals];

/** Provenance: all-or-nothing points per boolean signal (they sum to 100). */
export const PROVENANCE_POINTS: ReadonlyArray<readonly [BooleanSignal, number]> = [
  ['has_source_repo', 25],
  ['repo_not_archived', 10],
  ['has_license', 10],
  ['has_installable_package', 15],
  ['has_website_url', 5],
  ['has_icon', 5],
  ['namespace_matches_owner', 10],
  ['has_security_md', 10],
  ['has_code_of_conduct', 5],
  ['unique_description', 5],
];

/** First threshold the value reaches gives the fraction (or points): [threshold, result], highest first. */
export type Brackets = ReadonlyArray<readonly [number, number]>;
export const CONTRIBUTOR_TIERS: Brackets = [
  [10, 1],
  [4, 0.75],
  [2, 0.5],
  [1, 0.25],
];
/** Version count tiers give points, not fractions: too many versions reads as churn. */
export const VERSION_TIERS: Brackets = [
  [101, 5],
  [51, 10],
  [2, 15],
  [1, 5],
];
/** This version of the method records one version for every server (a stub). */
export const VERSION_COUNT_STUB = 1;
export const STAR_BRACKETS: Brackets = [
  [10000, 1],
  [1000, 0.8],
  [100, 0.6],
  [10, 0.4],
  [1, 0.1],
];
export const FORK_BRACKETS: Brackets = [
  [1000, 1],
  [100, 0.8],
  [50, 0.6],
  [10, 0.4],
  [1, 0.1],
];
export const WATCHER_BRACKETS: Brackets = [
  [100, 1],
  [50, 0.8],
  [20, 0.6],
  [5, 0.4],
  [1, 0.1],
];
/** Popularity without npm/PyPI downloads: GitHub's three counts share all 100 points. */
export const POPULARITY_POINTS = { github_stars: 55, github_forks: 30, github_watchers: 15 } as const;

/** Maintenance points and scales. */
export const MAINTENANCE_POINTS = {
  repo_age_over_90d: 10,
  last_push_recency: 25,
  active_commit_weeks: 20,
  contributor_count: 15,
  version_count: 15,
  releases_past_year: 15,
} as const;
export const REPO_AGE_DAYS = 90;
export const PUSH_RECENCY_FULL_DAYS = 30;
export const PUSH_RECENCY_MAX_DAYS = 365;
export const WEEKS_PER_YEAR = 52;
/** Release points the method derives from active commit weeks: more than [weeks] gives [points]. */
export const RELEASE_POINTS_BY_WEEKS: Brackets = [
  [27, 15],
  [14, 10],
  [5, 5],
];

/** Secret environment variables: fewer is safer; four or more earn nothing. */
export const SECRET_POINTS = [40, 30, 20, 10];
export const TRANSPORT_RISK: Readonly<Record<string, number>> = { stdio: 25, sse: 10, 'streamable-http': 10 };
export const TRANSPORT_RISK_DEFAULT = 5;
export const TRANSPORT_RISK_MIXED = 15;
export const PACKAGE_TYPE_RISK: Readonly<Record<string, number>> = { npm: 15, pypi: 15, oci: 10 };
export const PACKAGE_TYPE_RISK_DEFAULT = 5;
export const CREDENTIAL_POINTS = { none: 20, apiKey: 15, sensitive: 5 } as const;

/** Substrings of a lower-cased environment variable name that ask for a sensitive credential. */
export const SENSITIVE_CREDENTIAL_PATTERNS = [
  'wallet',
  'private_key',
  'secret_key',
  'master_key',
  'db_password',
  'database_password',
  'db_pass',
  'root_password',
  'admin_password',
  'seed_phrase',
  'mnemonic',
  'ssh_key',
  'ssl_cert',
];
/** Substrings of a lower-cased environment variable name that ask for an API key or token. */
export const API_KEY_PATTERNS = [
  'api_key',
  'api_token',
  'access_token',
  'auth_token',
  'bearer',
  'secret',
  'token',
  'key',
  'password',
  'credential',
];

/** A lower-cased, trimmed description that starts with one of these is a template. */
export const TEMPLATE_DESCRIPTIONS = [
  'a model context protocol server',
  'an mcp server',
  'mcp server for',
  'a mcp server',
  'model context protocol server',
  'this is an mcp server',
  'this is a mcp server',
  'my mcp server',
  'test mcp server',
  'example mcp server',
  'sample mcp server',
  'hello world mcp server',
];

/** Substrings of a lower-cased name or server id that mark a staging or test entry. */
export const STAGING_PATTERNS = [
  'test-',
  '-test',
  'staging-',
  '-staging',
  'dev-',
  '-dev',
  'example-',
  '-example',
  'demo-',
  '-demo',
  'sample-',
  '-sample',
  'temp-',
  '-temp',
  'tmp-',
  '-tmp',
];

/** HIGH_SECRET_DEMAND: this many secret environment variables or more. */
export const HIGH_SECRET_DEMAND_AT = 5;
/** DESCRIPTION_DUPLICATE: the same description published under this many namespaces or more. */
export const DUPLICATE_NAMESPACES_AT = 3;

/** The flags this version of the method raises, in the order it raises them. */
export const FLAG_NAMES = [
  'DEAD_ENTRY',
  'TEMPLATE_DESCRIPTION',
  'STAGING_ARTIFACT',
  'HIGH_SECRET_DEMAND',
  'SENSITIVE_CRED_REQUEST',
  'REPO_ARCHIVED',
  'NO_SOURCE',
  'DESCRIPTION_DUPLICATE',
] as const;
export type FlagName = (typeof FLAG_NAMES)[number];
