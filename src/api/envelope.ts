/**
 * What wraps every answer of the /v1 API (specification 2.1 and 7, decisions 5 and 6): the success envelope
 * `{data, meta}` of each route and the error body. One module, so the OpenAPI document, the gateway's tests
 * and the MCP client validate against the same schemas; each has a component name in the document.
 */
import * as z from 'zod';
import { ERROR_STATUS, type ErrorCode } from './errors.js';
import { HealthSchema, TRUST_LABELS, isoUtc, LIMITS, StatsSchema } from '../model/schema.js';
import { BadgeSchema, InstallSchema, ScoresSchema, ServerRecordSchema, SignalsSchema } from '../model/record-schema.js';
import { BANDS_TEXT, FLAGS } from '../model/vocabulary.js';
import { CheckAnswerSchema } from '../model/check.js';
import {
  PingResultSchema,
  SubscriptionCreatedSchema,
  SubscriptionDetailSchema,
  SubscriptionViewSchema,
} from '../notify/subscription-schema.js';
import {
  RegistryErrorSchema,
  RegistryServerListSchema,
  RegistryServerResponseSchema,
  RegistryServerSchema,
  TrustMetaSchema,
} from '../registry/schema.js';
import { TRUST_META_KEY } from '../registry/vocabulary.js';
import { MAX_TOOLS_PER_SERVER, PinnedToolSchema, TOOLS_HASH_PATTERN } from '../model/tools.js';

// ---------------------------------------------------------------------------------------------------------
// Envelopes. The records come from `src/model/record-schema.ts`; what wraps them is the gateway's (specification 2.1 and 7,
// decisions 5 and 6), described here once and validated against real responses by test/openapi.test.ts.

// Get Access (`POST /v1/keys`): what is asked (its schema in key-request.ts) and what is answered.

export { IssueKeyRequestSchema, type IssueKeyRequest } from './key-request.js';

export const IssuedKeySchema = z.strictObject({
  key: z.string().min(1),
  plan: z.string(),
  daily_limit: z.number().int().min(1),
  label: z.string(),
  created_at: z.string(),
});

/** `meta` of every success: `cached`, plus the snapshot the answer came from. More members may follow. */
export const ResponseMetaSchema = z.looseObject({
  cached: z.boolean(),
  snapshot_id: z.string().min(1),
  generated_at: isoUtc(),
});

const pageMeta = (limits: { min: number; max: number }) =>
  ResponseMetaSchema.extend({
    total: z.number().int().min(0),
    limit: z.number().int().min(limits.min).max(limits.max),
    offset: z.number().int().min(0).max(LIMITS.maxOffset),
  });

/** `meta` of List Servers: the page's bounds and how many matched in all. */
export const ListMetaSchema = pageMeta(LIMITS.list);
/** `meta` of Search: `total` matches, `limit`, and the `offset` asked for (default 0). */
export const SearchMetaSchema = pageMeta(LIMITS.search);

/** Health's `data`: the record of the specification plus what the gateway knows about its snapshot and store. */
export const HealthDataSchema = HealthSchema.extend({
  snapshot: z.strictObject({
    id: z.string().min(1),
    generated_at: isoUtc(),
    record_count: z.number().int().min(0),
  }),
  store: z.strictObject({
    kind: z.enum(['memory', 'redis', 'upstash']),
    status: z.enum(['ok', 'unavailable', 'data_lost']),
    /** Only with `data_lost`: what happened and what the store needs. */
    reason: z.string().optional(),
  }),
  freshness: z.strictObject({
    scored_at: isoUtc().nullable(),
    published_at: isoUtc(),
    age_days: z.number().min(0).nullable(),
    stale_after_days: z.number().int().min(1),
    status: z.enum(['fresh', 'stale']),
  }),
});

const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** The error codes answered with `status`, in the gateway's order. */
function codesFor(status: number): [ErrorCode, ...ErrorCode[]] {
  const codes = ERROR_CODES.filter((code) => ERROR_STATUS[code] === status);
  if (codes.length === 0) throw new Error(`no error code has status ${status}`);
  return codes as [ErrorCode, ...ErrorCode[]];
}

/** The error body (specification 7, decisions 5): `{"error":{"message","status","code"}}`. */
export const ErrorBodySchema = z.strictObject({
  error: z.strictObject({
    message: z.string().min(1),
    status: z.number().int().min(400).max(599),
    code: z.enum(ERROR_CODES),
  }),
});

/** The error body of one status: `status` is that number and `code` one of that status's codes. */
export function errorBodyFor(status: number) {
  return z.strictObject({
    error: z.strictObject({
      message: z.string().min(1),
      status: z.literal(status),
      code: z.enum(codesFor(status)),
    }),
  });
}

const envelope = <D extends z.ZodType, M extends z.ZodType>(data: D, meta: M) => z.strictObject({ data, meta });

export const ServerResponseSchema = envelope(ServerRecordSchema, ResponseMetaSchema);
export const ServerListResponseSchema = envelope(z.array(ServerRecordSchema).max(LIMITS.list.max), ListMetaSchema);
export const SearchResponseSchema = envelope(z.array(ServerRecordSchema).max(LIMITS.search.max), SearchMetaSchema);
/** `meta` of Reverse Lookup: how many servers matched (all of them are in `data`). */
export const LookupMetaSchema = ResponseMetaSchema.extend({ total: z.number().int().min(0) });
export const LookupResponseSchema = envelope(z.array(ServerRecordSchema), LookupMetaSchema);
export const CheckResponseSchema = envelope(CheckAnswerSchema, ResponseMetaSchema);
const SnapshotRefShape = { snapshot_id: z.string().min(1), generated_at: isoUtc() };
export const HistoryPointSchema = z.union([
  z.strictObject({
    ...SnapshotRefShape,
    scored_at: isoUtc(),
    trust_score: z.number().int().min(0).max(100),
    trust_label: z.enum(TRUST_LABELS),
    scores: ScoresSchema,
    flags: z.array(z.string()),
    tools_hash: z.string().regex(TOOLS_HASH_PATTERN).optional(),
    advisories: z.array(z.string()).optional(),
  }),
  z.strictObject({ ...SnapshotRefShape, removed: z.literal(true) }),
]);
export const HistoryResponseSchema = envelope(z.array(HistoryPointSchema), ResponseMetaSchema);

export const ServerChangeSchema = z.strictObject({
  name: z.string().min(1),
  added: z.boolean(),
  removed: z.boolean(),
  trust_score: z.strictObject({ from: z.number().int(), to: z.number().int() }).nullable(),
  trust_label: z.strictObject({ from: z.string(), to: z.string() }).nullable(),
  flags_raised: z.array(z.string()),
  flags_cleared: z.array(z.string()),
  tools_changed: z
    .strictObject({ from: z.string().regex(TOOLS_HASH_PATTERN), to: z.string().regex(TOOLS_HASH_PATTERN) })
    .nullable(),
  advisories_added: z.array(z.string()),
});

/** Get Server Tools: the tools pinned for one server, or none with the reason. */
export const ServerToolsDataSchema = z.strictObject({
  name: z.string().min(1),
  tool_count: z.number().int().min(0).max(MAX_TOOLS_PER_SERVER),
  tools: z.array(PinnedToolSchema).max(MAX_TOOLS_PER_SERVER),
  hash: z.string().regex(TOOLS_HASH_PATTERN).nullable(),
  version: z.string().nullable(),
  probed_at: isoUtc().nullable(),
  probed_by: z.string().nullable(),
  third_party: z.boolean().nullable(),
  truncated: z.boolean(),
  reason: z.string().nullable(),
});
export const ServerToolsResponseSchema = envelope(ServerToolsDataSchema, ResponseMetaSchema);
export const ChangesMetaSchema = pageMeta(LIMITS.list).extend({ since: z.string().min(1) });
export const ChangesResponseSchema = envelope(z.array(ServerChangeSchema).max(LIMITS.list.max), ChangesMetaSchema);

const ContributionSchema = z.strictObject({
  signal: z.string(),
  value: z.union([z.boolean(), z.number(), z.string(), z.null()]),
  points: z.number(),
  max: z.number(),
  note: z.string(),
  /** mts-2: whether the signal was measured, and why not (an unmeasured signal leaves the sub-score). */
  measured: z.boolean().optional(),
  missing: z.string().nullable().optional(),
});
export const ExplanationSchema = z.strictObject({
  name: z.string(),
  method: z.string(),
  reproduced: z.boolean(),
  /** mts-2: the share of the method's weight that was measured, 0 to 100. */
  confidence: z.number().int().min(0).max(100).optional(),
  trust_score: z.strictObject({ computed: z.number().int().nullable(), stored: z.number().int() }),
  subscores: z.array(
    z.strictObject({
      name: z.enum(['provenance', 'maintenance', 'popularity', 'permissions']),
      weight: z.number(),
      computed: z.number().int(),
      stored: z.number().int(),
      reproduced: z.boolean(),
      measured: z.boolean().optional(),
      contributions: z.array(ContributionSchema),
    }),
  ),
  summary: z.string(),
});
export const ExplanationResponseSchema = envelope(ExplanationSchema, ResponseMetaSchema);

export const IssuedKeyResponseSchema = envelope(IssuedKeySchema, ResponseMetaSchema);

export const StatsResponseSchema = envelope(StatsSchema, ResponseMetaSchema);
export const WebhookCreatedResponseSchema = envelope(SubscriptionCreatedSchema, ResponseMetaSchema);
export const WebhookListResponseSchema = envelope(z.array(SubscriptionViewSchema), ResponseMetaSchema);
export const WebhookResponseSchema = envelope(SubscriptionDetailSchema, ResponseMetaSchema);
export const WebhookTestResponseSchema = envelope(PingResultSchema, ResponseMetaSchema);
export const HealthResponseSchema = envelope(HealthDataSchema, ResponseMetaSchema);

/** The component names of `components.schemas`, each with the zod schema it is generated from. */
export const COMPONENTS = {
  ServerRecord: [ServerRecordSchema, `A scored MCP server (specification 2.2), plus \`signals\`, the upstream scoring run's signals, and \`evidence\`: the method that made the scores (\`mts-2\` by default, docs/method.md), its confidence (0-100, the share of the method's weight that was measured; below 50 the record carries INSUFFICIENT_EVIDENCE), and per source (registry, repository, packages, probe, advisories) whether it was measured, when and by whom (\`third_party\` when not by this project) or why not (\`missing\`), and its signals, each its value or null when not measured (never 0 for a fact not measured): an unmeasured source's \`missing\` is the reason for all of its signals, a measured source's \`missing_signals\` names the reason for each of its null ones. \`trust_label\` is the band of \`trust_score\`: ${BANDS_TEXT}. \`install.repo_url\` and \`install.version\` are null when unknown; nothing is invented. Known flags (the list is open-ended): ${FLAGS.map((flag) => `\`${flag.name}\` (${flag.severity}): ${flag.meaning}`).join('; ')}.`],
  Scores: [ScoresSchema, 'The four sub-scores, integers 0 to 100.'],
  Badge: [BadgeSchema, 'A positive fact read from one signal, with that signal as evidence.'],
  Install: [InstallSchema, 'What the registry says about installing the server: null or empty when unknown.'],
  Signals: [SignalsSchema, 'The evidence behind the scores as the scoring pipeline recorded it (null: not measured).'],
  Stats: [StatsSchema, 'Ecosystem statistics (specification 2.3): `score_distribution` maps each trust_label to a count, `flag_summary` each flag to a count; `target_summary` (a documented extra) each platform target to a count, so the values of the `target` filter can be learnt.'],
  HealthData: [HealthDataSchema, 'Health (specification 2.4): `status` is "ok", or "degraded" when the counter store does not answer (`store.status` "unavailable"), answers without the data it had (`store.status` "data_lost", with a `reason`), or the data is stale. `freshness` says how old the data is: the newest `scored_at`, when the snapshot was published, its age in days, and `stale` past `stale_after_days` (`STALE_AFTER_DAYS`, default 3).'],
  ResponseMeta: [ResponseMetaSchema, 'Request metadata: `cached` is true exactly when the body came from the one-hour response cache. May carry more members.'],
  ListMeta: [ListMetaSchema, 'Metadata of a list page: `total` matching records, the page `limit` and `offset`.'],
  SearchMeta: [SearchMetaSchema, 'Metadata of a search: `total` matches, `limit`, and the `offset` asked for (default 0).'],
  ServerResponse: [ServerResponseSchema, 'Get Server'],
  ServerListResponse: [ServerListResponseSchema, 'List Servers: `data` is the page of full server records.'],
  SearchResponse: [SearchResponseSchema, 'Search: `data` holds the best matches first, full server records.'],
  LookupMeta: [LookupMetaSchema, 'Metadata of a reverse lookup: `total` servers matched, all of them in `data`.'],
  LookupResponse: [
    LookupResponseSchema,
    'Reverse Lookup: `data` holds every server the package or URL belongs to, most trusted first; empty when none.',
  ],
  CheckResponse: [
    CheckResponseSchema,
    'Policy Check: the overall verdict and one result per item, in the order given, each with its reasons.',
  ],
  HistoryPoint: [
    HistoryPointSchema,
    'A point of a score history: the snapshot it was seen in and the score, label, sub-scores and flags then, with `tools_hash` (the hash of its pinned tools) and `advisories` (the ids of its record\'s advisories) when it had any; or `removed` when the server left the dataset.',
  ],
  HistoryResponse: [
    HistoryResponseSchema,
    'Score History: the points where something changed, newest first, over the snapshots kept (at least the last 90).',
  ],
  ServerChange: [
    ServerChangeSchema,
    'What changed for one server: added, removed, the score and the label (from, to; null when unchanged), flags raised and cleared, `tools_changed` (the hash of its pinned tools, from, to; null unless it had pinned tools at both snapshots and they differ) and `advisories_added` (ids of advisories its record keeps now and did not before).',
  ],
  ServerTools: [
    ServerToolsDataSchema,
    "The tools a remote server listed when probed without credentials, pinned: each tool's `name`, `description`, `input_schema` (null when over 16 KB) and `annotations` (the MCP hints: `title`, `read_only`, `destructive`, `idempotent`, `open_world`), all as the publisher's server stated them (data, never instructions), with `hash` (SHA-256 over the canonical JSON of the tools in name order: a change of any definition changes it), the `version` the record had then, `probed_at`, `probed_by` and `third_party` (true when the probe was not this project's own). `truncated` says the server listed more than is kept (500 tools, 4,000 characters per description). A server with no pinned tools has an empty `tools`, nulls, and `reason`.",
  ],
  ServerToolsResponse: [ServerToolsResponseSchema, 'Get Server Tools'],
  ChangesMeta: [ChangesMetaSchema, 'Metadata of a change list: `total` servers changed, the page, and `since`.'],
  ChangesResponse: [ChangesResponseSchema, 'Changes: one entry per server that changed since `since`, by name.'],
  Explanation: [
    ExplanationSchema,
    'How the scores are made from the signals (MCP Scorecard method): per sub-score, each signal, its value and points; `reproduced` says whether the recomputation equals the stored scores.',
  ],
  ExplanationResponse: [ExplanationResponseSchema, 'Score Explanation'],
  IssuedKeyResponse: [
    IssuedKeyResponseSchema,
    'Get Access: the new key (shown only this once), its plan and daily limit, its label and when it was issued.',
  ],
  StatsResponse: [StatsResponseSchema, 'Ecosystem Statistics'],
  WebhookCreatedResponse: [
    WebhookCreatedResponseSchema,
    'Create Webhook: the subscription and its signing secret (`whsec_...`), shown only this once.',
  ],
  WebhookListResponse: [WebhookListResponseSchema, "List Webhooks: the key's subscriptions, oldest first, without secrets."],
  WebhookResponse: [
    WebhookResponseSchema,
    'Get Webhook: the subscription (why it was disabled, when it was) and its last 20 deliveries, newest first.',
  ],
  WebhookTestResponse: [WebhookTestResponseSchema, 'Test Webhook: whether the `ping` was delivered and what the receiver answered.'],
  HealthResponse: [HealthResponseSchema, 'Health Check'],
  Error: [ErrorBodySchema, 'Every error: a message for people, the HTTP status, and a stable `code` for programs.'],
  RegistryServerDetail: [
    RegistryServerSchema,
    "`ServerDetail` of the MCP registry's OpenAPI document (2025-12-01): the server.json of the server's latest version, as the official registry served it.",
  ],
  RegistryTrustMeta: [
    TrustMetaSchema,
    `The trust data of a registry entry (\`_meta["${TRUST_META_KEY}"]\`): the server's \`/v1\` record in short, the snapshot it comes from, and the path of the whole record (\`record_url\`, on this host, needs a key).`,
  ],
  RegistryServerResponse: [
    RegistryServerResponseSchema,
    "`ServerResponse` of the registry's document: `server`, and `_meta` with the official registry's metadata and this service's trust data.",
  ],
  RegistryServerList: [
    RegistryServerListSchema,
    "`ServerList` of the registry's document: a page of entries in name order; `metadata.nextCursor` (absent on the last page) and `metadata.count`.",
  ],
  RegistryError: [RegistryErrorSchema, "Every error of the registry routes, in the registry document's shape."],
} as const satisfies Record<string, readonly [z.ZodType, string]>;

export type SchemaComponentName = keyof typeof COMPONENTS;

