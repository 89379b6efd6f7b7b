/**
 * The one schema of the service, with the server record's in `record-schema.ts`. The build validates the
 * dataset with them, the gateway validates query parameters with this one, the OpenAPI document and the MCP
 * tools are generated from both. Change them there only.
 */
import * as z from 'zod';

export { TRUST_BANDS, type TrustLabel } from './vocabulary.js';
export type { Badge, Install, PackageRef, IndexedRecord, RemoteRef, ServerRecord, Signals } from './record-schema.js';
export {
  TRUST_LABELS,
  labelForScore,
  MAX_NAME_LENGTH,
  MAX_TEXT,
  SERVER_NAME_PATTERN,
  ISO_UTC_PATTERN,
  isCalendarTime,
  isoUtc,
  serverName,
  ServerNameSchema,
  FLAG_PATTERN,
  FlagSchema,
  splitName,
  isFetchableName,
} from './fields.js';
import { MAX_NAME_LENGTH } from './fields.js';

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
  /**
   * A documented extra: the servers only a curator's catalog lists (`catalog:<curator>/<id>`), counted apart and
   * in none of the members above. Nothing of them is measured until a night reads them, so their scores would
   * only pull the average, the median and the lowest band down with servers nobody has looked at yet.
   */
  catalog_only_servers: z.number().int().min(0).optional(),
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
  purl: z
    .string({ error: 'purl must be a string' })
    .trim()
    .min(5, { error: 'purl must be a package URL, pkg:<type>/<name>' })
    .max(LIMITS.maxLookup, { error: `purl must be at most ${LIMITS.maxLookup} characters` })
    .optional(),
  repo: z
    .string({ error: 'repo must be a string' })
    .trim()
    .min(1, { error: 'repo must not be empty' })
    .max(LIMITS.maxLookup, { error: `repo must be at most ${LIMITS.maxLookup} characters` })
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
