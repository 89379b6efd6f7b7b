/**
 * The OpenAPI 3.1 document of the /v1 interface, generated from the zod schemas the build and the gateway
 * validate with (`src/model/schema.ts`), so the document cannot state a limit the service does not enforce.
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
import * as z from 'zod';
import { PLANS } from '../keys/plans.js';
import { ISO_UTC_PATTERN } from '../model/schema.js';
import { COMPONENTS, errorBodyFor, type SchemaComponentName } from './envelope.js';
import type { OperationDoc, Route } from './route.js';
import { ROUTES } from './routes.js';

/** The version of the document (of the interface it describes), not of the package. */
export const OPENAPI_DOCUMENT_VERSION = '1.0.0';
const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';
const SCHEMA_REF = '#/components/schemas/';

type JsonObject = Record<string, unknown>;

/** Timestamps carry a portable pattern (`isoUtc`); say what they are too, as `z.iso.datetime()` would. */
function markTimestamps(context: { jsonSchema: Record<string, unknown> }): void {
  if (context.jsonSchema.pattern === ISO_UTC_PATTERN.source) context.jsonSchema.format = 'date-time';
}

/** A JSON Schema as OpenAPI 3.1 embeds it: the dialect is the document's, so no `$schema` or `$id`. */
function embedded(schema: JsonObject): JsonObject {
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  return rest;
}

function componentSchemas(): Record<SchemaComponentName, JsonObject> {
  const registry = z.registry<{ id: string; description: string }>();
  for (const [id, [schema, description]] of Object.entries(COMPONENTS)) registry.add(schema, { id, description });
  const { schemas } = z.toJSONSchema(registry, {
    io: 'output',
    uri: (id) => `${SCHEMA_REF}${id}`,
    metadata: registry,
    override: markTimestamps,
  });
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
// Parameters.

/** OpenAPI parameter objects for the members of `schema`, from its JSON Schema (`required` included). */
function parametersOf(
  schema: z.ZodObject,
  location: 'query' | 'path',
  descriptions: Readonly<Record<string, string>>,
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
    schema: { type: 'string', enum: ['GET, HEAD, OPTIONS', 'POST, OPTIONS', 'GET, HEAD, POST, OPTIONS', 'GET, HEAD, DELETE, OPTIONS'] },
  },
} as const;

type HeaderName = keyof typeof HEADERS;
const RATE_LIMIT_HEADERS: HeaderName[] = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

const headerRefs = (names: HeaderName[]) =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

const jsonContent = (schema: JsonObject) => ({ 'application/json': { schema } });

/** The error statuses, each a reusable response with its own body schema (its codes only) and headers. */
const ERROR_RESPONSES = {
  BadRequest: { status: 400, description: 'Missing or invalid parameters, or (POST) a body that is not `application/json`, over 64 KB, not JSON or against the rules: the message names each problem and what is allowed.' },
  Unauthorized: { status: 401, description: 'Missing or invalid API key (`X-API-Key`).' },
  Forbidden: { status: 403, description: 'Self-service key issuing is turned off by this deployment (`self_service_disabled`).' },
  NotFound: { status: 404, description: 'No server has this name (the message suggests the search endpoint); an unknown route also answers 404.' },
  MethodNotAllowed: { status: 405, description: 'A method the route does not answer (GET routes answer GET, HEAD and OPTIONS; POST routes POST and OPTIONS; a path with several routes, each of their methods); `Allow` lists them.', headers: ['Allow'] },
  UriTooLong: { status: 414, description: 'The URL (path and query) is longer than 2,048 bytes; checked before anything else and not counted.' },
  TooManyRequests: { status: 429, description: "The key's daily limit is used up; `Retry-After` says when it resets (next UTC midnight).", headers: ['Retry-After'] },
  InternalError: { status: 500, description: 'An unexpected failure of the service.' },
  BadGateway: { status: 502, description: 'The upstream data store (keys and daily counters) cannot be reached within about a second; nothing was served and nothing counted.' },
  ServiceUnavailable: { status: 503, description: 'Webhooks are not turned on by this deployment (`webhooks_not_configured`): the message says what the operator must set.' },
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

/** What names and describes an operation, the same for every kind of route. */
function described(spec: OperationDoc): JsonObject {
  return { operationId: spec.operationId, summary: spec.summary, description: spec.description, tags: [spec.tag] };
}

/** A keyless document route (the badge): its own media type, public caching, the badge even for a 404. */
function documentOperation(route: Route): JsonObject {
  const spec = route.doc;
  const media = spec.media ?? 'image/svg+xml';
  const svg = { [media]: { schema: { type: 'string', description: media === 'image/svg+xml' ? 'An SVG image.' : 'An Atom 1.0 feed.' } } };
  const headers = headerRefs([...RATE_LIMIT_HEADERS, 'ETag', 'Cache-Control']);
  return {
    ...described(spec),
    security: [],
    parameters: [
      ...(spec.path ? parametersOf(spec.path.schema, 'path', spec.path.descriptions) : []),
      { $ref: '#/components/parameters/IfNoneMatch' },
    ],
    responses: {
      '200': { description: media === 'image/svg+xml' ? 'The badge of the server.' : 'The feed.', headers, content: svg },
      '304': responseRef('NotModified'),
      '400': responseRef('BadRequest'),
      ...(media === 'image/svg+xml'
        ? { '404': { description: 'No server has this name: the grey `not scored` badge.', headers, content: svg } }
        : spec.notFound
          ? { '404': responseRef('NotFound') }
          : {}),
      '405': responseRef('MethodNotAllowed'),
      '414': responseRef('UriTooLong'),
      '500': responseRef('InternalError'),
    },
  };
}

/** A route of the MCP registry API (`/v0.1`): keyless, public, errors in the registry document's shape. */
function registryOperation(route: Route): JsonObject {
  const spec = route.doc;
  const errorHeaders = headerRefs([...RATE_LIMIT_HEADERS, 'Cache-Control']);
  const error = (description: string, extra: HeaderName[] = []) => ({
    description: `${description} The body is the registry document's error, \`{"error": "<message>"}\`.`,
    headers: extra.length > 0 ? headerRefs([...RATE_LIMIT_HEADERS, 'Cache-Control', ...extra]) : errorHeaders,
    content: jsonContent(ref('RegistryError')),
  });
  return {
    ...described(spec),
    security: [],
    parameters: [
      ...(spec.path ? parametersOf(spec.path.schema, 'path', spec.path.descriptions) : []),
      ...(spec.query ? parametersOf(spec.query.schema, 'query', spec.query.descriptions) : []),
      { $ref: '#/components/parameters/IfNoneMatch' },
    ],
    responses: {
      '200': {
        description: 'Success, public and cacheable (`Cache-Control: public`, an `ETag`).',
        headers: headerRefs([...RATE_LIMIT_HEADERS, 'ETag', 'Cache-Control']),
        content: jsonContent(ref(spec.body)),
      },
      '304': responseRef('NotModified'),
      '400': error('Invalid parameters, path or URL; the message names each problem and what is allowed.'),
      ...(spec.notFound
        ? { '404': error('The server is not in this registry, or (a version route) the version is not the one held.') }
        : {}),
      '405': error(ERROR_RESPONSES.MethodNotAllowed.description, ['Allow']),
      '414': error(ERROR_RESPONSES.UriTooLong.description),
      '500': error(ERROR_RESPONSES.InternalError.description),
    },
  };
}

async function operation(route: Route): Promise<JsonObject> {
  if (route.doc.registry) return registryOperation(route);
  if (route.doc.media !== undefined) return documentOperation(route);
  const spec = { ...route.doc, keyed: route.keyed };
  // Cached answers carry an ETag and may be 304; a POST answer is made for its body and never cached.
  const cached = route.keyed && (route.method ?? 'GET') === 'GET' && spec.live !== true;
  const ownParameters = [
    ...(spec.path ? parametersOf(spec.path.schema, 'path', spec.path.descriptions) : []),
    ...(spec.query ? parametersOf(spec.query.schema, 'query', spec.query.descriptions) : []),
  ];
  const success = {
    description: 'Success: the envelope `{data, meta}`.',
    headers: headerRefs(cached ? [...RATE_LIMIT_HEADERS, 'ETag', 'Cache-Control'] : [...RATE_LIMIT_HEADERS, 'Cache-Control']),
    content: jsonContent(ref(spec.body)),
  };
  const responses: JsonObject =
    spec.successStatus === 204
      ? { '204': { description: 'Done; no body.', headers: headerRefs([...RATE_LIMIT_HEADERS, 'Cache-Control']) } }
      : { [String(spec.successStatus ?? 200)]: success };
  if (cached) responses['304'] = responseRef('NotModified');
  responses['400'] = responseRef('BadRequest');
  if (spec.keyed) responses['401'] = responseRef('Unauthorized');
  if (spec.extraErrors?.includes('Forbidden')) responses['403'] = responseRef('Forbidden');
  if (spec.notFound) responses['404'] = responseRef('NotFound');
  responses['405'] = responseRef('MethodNotAllowed');
  responses['414'] = responseRef('UriTooLong');
  if (spec.keyed || spec.extraErrors?.includes('TooManyRequests')) responses['429'] = responseRef('TooManyRequests');
  responses['500'] = responseRef('InternalError');
  if (spec.keyed || spec.extraErrors?.includes('BadGateway')) responses['502'] = responseRef('BadGateway');
  if (spec.extraErrors?.includes('ServiceUnavailable')) responses['503'] = responseRef('ServiceUnavailable');
  const parameters = cached ? [...ownParameters, { $ref: '#/components/parameters/IfNoneMatch' }] : ownParameters;
  const requestBody = route.body && {
    required: true,
    description: 'JSON, `Content-Type: application/json`, at most 64 KB.',
    content: jsonContent(embedded(z.toJSONSchema(await route.body.schema(), { io: 'input' }) as JsonObject)),
  };
  return {
    ...described(spec),
    ...(spec.keyed ? {} : { security: [] }),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

/** `paths`: each path with the operation of every route on it (a path may answer GET and POST). */
async function pathsOf(): Promise<JsonObject> {
  const paths: Record<string, JsonObject> = {};
  for (const route of ROUTES) {
    paths[route.path] = { ...paths[route.path], [(route.method ?? 'GET').toLowerCase()]: await operation(route) };
  }
  return paths;
}

/** The OpenAPI 3.1 document of the /v1 interface (async: the routes' body schemas are loaded when asked). */
export async function buildOpenApiDocument(): Promise<JsonObject> {
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
      { name: 'Webhooks', description: 'Score-change notifications: signed POSTs (Standard Webhooks) to your receiver when a snapshot goes live.' },
      {
        name: 'Registry',
        description:
          "The MCP registry's read API (v0.1, its OpenAPI document of 2025-12-01), keyless: the registry entries of the scored servers that meet this deployment's policy, each with its trust data under `_meta`.",
      },
    ],
    paths: await pathsOf(),
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
export async function openApiJson(): Promise<string> {
  return `${JSON.stringify(await buildOpenApiDocument(), null, 2)}\n`;
}
