/**
 * The OpenAPI 3.1 document of the /v1 interface, generated from the zod schemas the build and the gateway
 * validate with (`src/schema.ts`), so the document cannot state a limit the service does not enforce.
 *
 * `z.toJSONSchema` with a registry turns every named schema into one entry of `components.schemas`, with
 * `$ref`s between them. OpenAPI 3.1 schema objects are JSON Schema draft 2020-12, zod's default target (the
 * `openapi-3.0` target is for the older dialect). Responses are described as zod outputs (`io: 'output'`,
 * what the service sends); query parameters as zod inputs (`io: 'input'`, what a client may send, so a
 * parameter with a default is optional).
 *
 * Platform-free and deterministic: the same schemas always give the same document. `scripts/openapi.ts`
 * writes it to `public/openapi.json`; a test keeps the committed file equal to what this makes.
 */
import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from './gateway/errors.js';
import { PLANS } from './keys/plans.js';
import {
  BadgeSchema,
  HealthSchema,
  InstallSchema,
  LIMITS,
  ListParamsSchema,
  type ListParams,
  ScoresSchema,
  SearchParamsSchema,
  type SearchParams,
  ServerPathSchema,
  ServerRecordSchema,
  SignalsSchema,
  StatsSchema,
} from './schema.js';

/** The version of the document (of the interface it describes), not of the package. */
export const OPENAPI_DOCUMENT_VERSION = '1.0.0';
const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';
const SCHEMA_REF = '#/components/schemas/';

// ---------------------------------------------------------------------------------------------------------
// Envelopes. The records come from src/schema.ts; what wraps them is the gateway's (specification 2.1 and 7,
// decisions 5 and 6), described here once and validated against real responses by test/openapi.test.ts.

/** `meta` of every success: `cached`, plus the snapshot the answer came from. More members may follow. */
export const ResponseMetaSchema = z.looseObject({
  cached: z.boolean(),
  snapshot_id: z.string().min(1),
  generated_at: z.iso.datetime(),
});

const pageMeta = (limits: { min: number; max: number }) =>
  ResponseMetaSchema.extend({
    total: z.number().int().min(0),
    limit: z.number().int().min(limits.min).max(limits.max),
    offset: z.number().int().min(0).max(LIMITS.maxOffset),
  });

/** `meta` of List Servers: the page's bounds and how many matched in all. */
export const ListMetaSchema = pageMeta(LIMITS.list);
/** `meta` of Search: `offset` is always 0 (search has no paging, only `limit`). */
export const SearchMetaSchema = pageMeta(LIMITS.search);

/** Health's `data`: the record of the specification plus what the gateway knows about its snapshot and store. */
export const HealthDataSchema = HealthSchema.extend({
  snapshot: z.strictObject({
    id: z.string().min(1),
    generated_at: z.iso.datetime(),
    record_count: z.number().int().min(0),
  }),
  store: z.strictObject({
    kind: z.enum(['memory', 'redis', 'upstash']),
    status: z.enum(['ok', 'unavailable']),
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
function errorBodyFor(status: number) {
  return z.strictObject({
    error: z.strictObject({
      message: z.string().min(1),
      status: z.literal(status),
      code: z.enum(codesFor(status)),
    }),
  });
}

const envelope = (data: z.ZodType, meta: z.ZodType) => z.strictObject({ data, meta });

export const ServerResponseSchema = envelope(ServerRecordSchema, ResponseMetaSchema);
export const ServerListResponseSchema = envelope(z.array(ServerRecordSchema).max(LIMITS.list.max), ListMetaSchema);
export const SearchResponseSchema = envelope(z.array(ServerRecordSchema).max(LIMITS.search.max), SearchMetaSchema);
export const StatsResponseSchema = envelope(StatsSchema, ResponseMetaSchema);
export const HealthResponseSchema = envelope(HealthDataSchema, ResponseMetaSchema);

/** The component names of `components.schemas`, each with the zod schema it is generated from. */
const COMPONENTS = {
  ServerRecord: [ServerRecordSchema, 'A scored MCP server (specification 2.2), plus `signals`, the evidence behind the scores. `trust_label` is the band of `trust_score`: High Trust 80-100, Moderate Trust 60-79, Low Trust 40-59, Very Low Trust 20-39, Unknown/Suspicious 0-19. `install.repo_url` and `install.version` are null when unknown; nothing is invented.'],
  Scores: [ScoresSchema, 'The four sub-scores, integers 0 to 100.'],
  Badge: [BadgeSchema, 'A positive fact read from one signal, with that signal as evidence.'],
  Install: [InstallSchema, 'What the registry says about installing the server: null or empty when unknown.'],
  Signals: [SignalsSchema, 'The evidence behind the scores as the scoring pipeline recorded it (null: not measured).'],
  Stats: [StatsSchema, 'Ecosystem statistics (specification 2.3): `score_distribution` maps each trust_label to a count, `flag_summary` each flag to a count.'],
  HealthData: [HealthDataSchema, 'Health (specification 2.4): `status` is "ok", or "degraded" when the counter store does not answer.'],
  ResponseMeta: [ResponseMetaSchema, 'Request metadata: `cached` is true exactly when the body came from the one-hour response cache. May carry more members.'],
  ListMeta: [ListMetaSchema, 'Metadata of a list page: `total` matching records, the page `limit` and `offset`.'],
  SearchMeta: [SearchMetaSchema, 'Metadata of a search: `total` matches, `limit`; `offset` is 0.'],
  ServerResponse: [ServerResponseSchema, 'Get Server'],
  ServerListResponse: [ServerListResponseSchema, 'List Servers: `data` is the page of full server records.'],
  SearchResponse: [SearchResponseSchema, 'Search: `data` holds the best matches first, full server records.'],
  StatsResponse: [StatsResponseSchema, 'Ecosystem Statistics'],
  HealthResponse: [HealthResponseSchema, 'Health Check'],
  Error: [ErrorBodySchema, 'Every error: a message for people, the HTTP status, and a stable `code` for programs.'],
} as const satisfies Record<string, readonly [z.ZodType, string]>;

export type SchemaComponentName = keyof typeof COMPONENTS;

type JsonObject = Record<string, unknown>;

/** A JSON Schema as OpenAPI 3.1 embeds it: the dialect is the document's, so no `$schema` or `$id`. */
function embedded(schema: JsonObject): JsonObject {
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  return rest;
}

function componentSchemas(): Record<SchemaComponentName, JsonObject> {
  const registry = z.registry<{ id: string; description: string }>();
  for (const [id, [schema, description]] of Object.entries(COMPONENTS)) registry.add(schema, { id, description });
  const { schemas } = z.toJSONSchema(registry, { io: 'output', uri: (id) => `${SCHEMA_REF}${id}` });
  const out = {} as Record<SchemaComponentName, JsonObject>;
  for (const id of Object.keys(COMPONENTS) as SchemaComponentName[]) {
    const schema = schemas[id];
    if (schema === undefined) throw new Error(`toJSONSchema gave no schema for ${id}`);
    out[id] = embedded(schema as JsonObject);
  }
  return out;
}

const ref = (name: SchemaComponentName) => ({ $ref: `${SCHEMA_REF}${name}` });

// ---------------------------------------------------------------------------------------------------------
// Parameters: one entry per member of the params schemas, so a new parameter cannot be left undocumented
// (the description maps are typed by the schemas' keys).

const LIST_PARAM_DESCRIPTIONS: Record<keyof ListParams, string> = {
  limit: 'Results per page.',
  offset: 'How many records to skip. An offset past the end gives an empty page with the true `meta.total`.',
  sort: 'Sort field. Ties are always broken by name ascending, so pages never overlap or skip a record; `namespace` sorts by namespace, then name.',
  order: 'Sort order of the sort field (accepted in any case); ties stay name ascending.',
  min_score: 'Only servers whose trust score is at least this.',
  flags: 'Only servers carrying this flag; several flags separated by commas mean all of them. Case-insensitive.',
  target: 'Only servers with this platform target (for example `GitHub`, `PostgreSQL`). Case-insensitive.',
  namespace: 'Only servers of this publisher namespace (the part of the name before `/`). Case-insensitive.',
};

const SEARCH_PARAM_DESCRIPTIONS: Record<keyof SearchParams, string> = {
  q: 'Words to find in server names (at least 2 characters after trimming). Prefix matching (`postg` finds `postgres`), typo tolerance for words of 4 or more characters; several words must all match; the id weighs more than the namespace.',
  limit: 'Maximum number of results.',
};

const PATH_PARAM_DESCRIPTIONS: Record<keyof z.infer<typeof ServerPathSchema>, string> = {
  namespace: 'Publisher namespace, the part of the name before `/` (matched case-insensitively), percent-encoded.',
  id: 'Server id, the part of the name after `/` (matched case-insensitively), percent-encoded.',
};

/** OpenAPI parameter objects for the members of `schema`, from its JSON Schema (`required` included). */
function parametersOf(
  schema: z.ZodObject,
  location: 'query' | 'path',
  descriptions: Record<string, string>,
): JsonObject[] {
  const json = z.toJSONSchema(schema, { io: 'input' }) as { properties?: JsonObject; required?: string[] };
  const required = new Set(json.required ?? []);
  return Object.keys(schema.shape).map((name) => {
    const property = json.properties?.[name];
    if (property === undefined) throw new Error(`no JSON Schema for parameter ${name}`);
    const description = descriptions[name];
    if (description === undefined) throw new Error(`parameter ${name} has no description`);
    return {
      name,
      in: location,
      description,
      required: location === 'path' || required.has(name),
      schema: property,
    };
  });
}

// ---------------------------------------------------------------------------------------------------------
// Headers and responses.

const HEADERS = {
  'X-RateLimit-Limit': {
    description: "The key's daily limit (the free plan's when the response is not tied to a valid key).",
    schema: { type: 'integer', minimum: 1 },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left today after this one (the full limit when the response is not tied to a valid key).',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Reset': {
    description: 'The next UTC midnight, when the daily counters reset, in epoch seconds.',
    schema: { type: 'integer', minimum: 0 },
  },
  'Retry-After': {
    description: 'Whole seconds until the daily limit resets (at least 1).',
    schema: { type: 'integer', minimum: 1 },
  },
  ETag: {
    description: 'Weak validator of this answer, derived from the snapshot and the request; send it back in `If-None-Match`.',
    schema: { type: 'string' },
  },
  'Cache-Control': {
    description: '`private` on keyed answers (a shared cache must never answer for another key); `no-store` on health and errors.',
    schema: { type: 'string' },
  },
  Allow: {
    description: 'The methods the route answers.',
    schema: { type: 'string', const: 'GET, HEAD, OPTIONS' },
  },
} as const;

type HeaderName = keyof typeof HEADERS;
const RATE_LIMIT_HEADERS: HeaderName[] = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

const headerRefs = (names: HeaderName[]) =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

const jsonContent = (schema: JsonObject) => ({ 'application/json': { schema } });

/** The error statuses, each a reusable response with its own body schema (its codes only) and headers. */
const ERROR_RESPONSES = {
  BadRequest: { status: 400, description: 'Missing or invalid parameters: the message names each parameter and what is allowed (also an unknown or repeated parameter).' },
  Unauthorized: { status: 401, description: 'Missing or invalid API key (`X-API-Key`).' },
  NotFound: { status: 404, description: 'No server has this name (the message suggests the search endpoint); an unknown route also answers 404.' },
  MethodNotAllowed: { status: 405, description: 'A method other than GET, HEAD or OPTIONS; `Allow` lists them.', headers: ['Allow'] },
  UriTooLong: { status: 414, description: 'The URL (path and query) is longer than 2,048 bytes; checked before anything else and not counted.' },
  TooManyRequests: { status: 429, description: "The key's daily limit is used up; `Retry-After` says when it resets (next UTC midnight).", headers: ['Retry-After'] },
  InternalError: { status: 500, description: 'An unexpected failure of the service.' },
  BadGateway: { status: 502, description: 'The upstream data store (keys and daily counters) cannot be reached within about a second; nothing was served and nothing counted.' },
} as const satisfies Record<string, { status: number; description: string; headers?: HeaderName[] }>;

type ErrorResponseName = keyof typeof ERROR_RESPONSES;

function errorResponses(): Record<ErrorResponseName, JsonObject> {
  const out = {} as Record<ErrorResponseName, JsonObject>;
  for (const [name, spec] of Object.entries(ERROR_RESPONSES) as [ErrorResponseName, (typeof ERROR_RESPONSES)[ErrorResponseName]][]) {
    const extra: HeaderName[] = 'headers' in spec ? [...spec.headers] : [];
    out[name] = {
      description: spec.description,
      headers: headerRefs([...RATE_LIMIT_HEADERS, 'Cache-Control', ...extra]),
      content: jsonContent(embedded(z.toJSONSchema(errorBodyFor(spec.status), { io: 'output' }) as JsonObject)),
    };
  }
  return out;
}

const responseRef = (name: ErrorResponseName | 'NotModified') => ({ $ref: `#/components/responses/${name}` });

interface OperationSpec {
  operationId: string;
  summary: string;
  description: string;
  tag: 'Service' | 'Servers';
  body: SchemaComponentName;
  parameters: JsonObject[];
  keyed: boolean;
  notFound?: boolean;
}

function operation(spec: OperationSpec): JsonObject {
  const success = {
    description: 'Success: the envelope `{data, meta}`.',
    headers: headerRefs(spec.keyed ? [...RATE_LIMIT_HEADERS, 'ETag', 'Cache-Control'] : [...RATE_LIMIT_HEADERS, 'Cache-Control']),
    content: jsonContent(ref(spec.body)),
  };
  const responses: JsonObject = { '200': success };
  if (spec.keyed) responses['304'] = responseRef('NotModified');
  responses['400'] = responseRef('BadRequest');
  if (spec.keyed) responses['401'] = responseRef('Unauthorized');
  if (spec.notFound) responses['404'] = responseRef('NotFound');
  responses['405'] = responseRef('MethodNotAllowed');
  responses['414'] = responseRef('UriTooLong');
  if (spec.keyed) responses['429'] = responseRef('TooManyRequests');
  responses['500'] = responseRef('InternalError');
  if (spec.keyed) responses['502'] = responseRef('BadGateway');
  const parameters = spec.keyed ? [...spec.parameters, { $ref: '#/components/parameters/IfNoneMatch' }] : spec.parameters;
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    description: spec.description,
    tags: [spec.tag],
    ...(spec.keyed ? {} : { security: [] }),
    ...(parameters.length > 0 ? { parameters } : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document of the /v1 interface. */
export function buildOpenApiDocument(): JsonObject {
  const free = PLANS.free.dailyLimit.toLocaleString('en-US');
  const pro = PLANS.pro.dailyLimit.toLocaleString('en-US');
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: JSON_SCHEMA_DIALECT,
    info: {
      title: 'MCP Trust Score API',
      version: OPENAPI_DOCUMENT_VERSION,
      summary: 'Trust scores, flags and install information for MCP servers.',
      description: [
        'A read-only service that publishes one trust record per scored MCP (Model Context Protocol) server: an overall trust score and label, four sub-scores, flags, badges, targets and install information; plus ecosystem statistics, a filterable list and a name search.',
        '',
        `Every endpoint except \`GET /v1/health\` needs an API key in the \`X-API-Key\` header. Plans: Free, ${free} requests a day per key (counters reset at midnight UTC); Pro, ${pro} a day, is announced and not yet available. Every response carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`; past the limit the answer is 429 with \`Retry-After\`. Every request with a valid key to a keyed endpoint counts, whatever its status.`,
        '',
        'Checks run in this order: route (404 for an unknown route, 405 for another method) → key (401) → daily limit (429) → parameters (400) → the handler (404 for an unknown server). Every route also answers HEAD (as GET, without a body) and OPTIONS (a CORS preflight: 204, no key, not counted). CORS allows every origin.',
        '',
        'Keyed answers may come from a one-hour cache (`meta.cached`), carry an `ETag`, and answer 304 to a matching `If-None-Match` (a 304 counts like any keyed request).',
      ].join('\n'),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'This host' }],
    security: [{ ApiKeyAuth: [] }],
    tags: [
      { name: 'Servers', description: 'Trust records of MCP servers.' },
      { name: 'Service', description: 'Health and ecosystem statistics.' },
    ],
    paths: {
      '/v1/health': {
        get: operation({
          operationId: 'getHealth',
          summary: 'Health Check',
          description: 'Whether the service is up, the snapshot it serves and the state of its counter store. Needs no key and never counts against a limit.',
          tag: 'Service',
          body: 'HealthResponse',
          parameters: [],
          keyed: false,
        }),
      },
      '/v1/stats': {
        get: operation({
          operationId: 'getStats',
          summary: 'Ecosystem Statistics',
          description: 'Total servers, average and median score, servers per trust label and per flag, and verified publishers. Takes no parameters.',
          tag: 'Service',
          body: 'StatsResponse',
          parameters: [],
          keyed: true,
        }),
      },
      '/v1/servers': {
        get: operation({
          operationId: 'listServers',
          summary: 'List Servers',
          description: `Filter, sort and page the scored servers. Default sort \`trust_score\` \`desc\`; ${LIMITS.list.default} per page. A filter that matches nothing gives an empty page with \`meta.total\` 0.`,
          tag: 'Servers',
          body: 'ServerListResponse',
          parameters: parametersOf(ListParamsSchema, 'query', LIST_PARAM_DESCRIPTIONS),
          keyed: true,
        }),
      },
      '/v1/servers/{namespace}/{id}': {
        get: operation({
          operationId: 'getServer',
          summary: 'Get Server',
          description: 'The trust record of the server named `<namespace>/<id>`, matched case-insensitively and answered with its stored spelling.',
          tag: 'Servers',
          body: 'ServerResponse',
          parameters: parametersOf(ServerPathSchema, 'path', PATH_PARAM_DESCRIPTIONS),
          keyed: true,
          notFound: true,
        }),
      },
      '/v1/search': {
        get: operation({
          operationId: 'searchServers',
          summary: 'Search',
          description: `Search servers by name; best matches first (ties go to the higher trust score), at most \`limit\` (default ${LIMITS.search.default}). A query whose words all equal a server's id ranks that server first.`,
          tag: 'Servers',
          body: 'SearchResponse',
          parameters: parametersOf(SearchParamsSchema, 'query', SEARCH_PARAM_DESCRIPTIONS),
          keyed: true,
        }),
      },
    },
    components: {
      securitySchemes: {
        ApiKeyAuth: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: 'Your API key. `npm start` prints a local one; `npm run keys -- create` issues more.',
        },
      },
      parameters: {
        IfNoneMatch: {
          name: 'If-None-Match',
          in: 'header',
          required: false,
          description: 'An `ETag` from an earlier answer; when it still matches, the answer is 304 without a body.',
          schema: { type: 'string' },
        },
      },
      headers: HEADERS,
      responses: {
        NotModified: {
          description: 'The answer has not changed since the `ETag` sent in `If-None-Match`; no body.',
          headers: headerRefs([...RATE_LIMIT_HEADERS, 'ETag', 'Cache-Control']),
        },
        ...errorResponses(),
      },
      schemas: componentSchemas(),
    },
  };
}

/** The document as the text of `public/openapi.json` (two-space indent, final newline). */
export function openApiJson(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
