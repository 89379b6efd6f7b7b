/* eslint-disable @typescript-eslint/no-explicit-any -- walks arbitrary JSON Schema documents */
/**
 * The OpenAPI document: the committed `public/openapi.json` is what the generator makes from the schemas,
 * it states the schemas' own bounds, and every status it documents is checked against a REAL answer of the
 * gateway (body against the response schema, headers against the documented headers). A status the gateway
 * answers that the document does not list fails too.
 */
import { ROUTE_PATHS } from '../src/api/paths.js';
import { ROUTES } from '../src/api/routes.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../src/keys/keys.js';
import { PLANS } from '../src/keys/plans.js';
import { buildOpenApiDocument, openApiJson } from '../src/api/openapi.js';
import type { QueryEngine } from '../src/query/types.js';
import { LIMITS, ListParamsSchema, SearchParamsSchema, SORT_FIELDS } from '../src/model/schema.js';
import { loadSnapshot } from '../src/query/open.js';
import { createMemoryStore } from '../src/stores/memory.js';
import { harness, type Harness, NOW } from './gateway/harness.js';
import { validate } from './support/json-schema.js';
import { describeWebhookAnswers } from './notify/openapi-answers.js';
import { buildTestSnapshot, makeRecord, SIGNALS } from './support/records.js';
import { pinned, tool, toolsFile } from './support/tools-fixtures.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
type Json = Record<string, any>;

const doc = (await buildOpenApiDocument()) as Json;

/** Records that use every part of the record schema: signals, badges, nulls, lists, flags, targets. */
const RECORDS = [
  makeRecord({
    name: 'io.github.acme/postgres-mcp',
    trust_score: 86,
    scores: { provenance: 90, maintenance: 80, popularity: 85, permissions: 88 },
    badges: [{ id: 'popular', label: 'Popular', evidence: '1,234 GitHub stars (the badge needs at least 100)' }],
    verified_publisher: true,
    targets: ['PostgreSQL'],
    install: {
      repo_url: 'https://github.com/acme/postgres-mcp',
      version: '1.2.3',
      package_types: ['npm'],
      transport_types: ['stdio'],
    },
    signals: SIGNALS,
  }),
  makeRecord({
    name: 'com.example/pg-tools',
    trust_score: 41,
    flags: ['NO_SOURCE', 'DEAD_ENTRY'],
    targets: ['PostgreSQL'],
  }),
  makeRecord({ name: 'org.sample/weather', trust_score: 12, flags: ['SENSITIVE_CRED_REQUEST'] }),
  makeRecord({
    name: 'dev.tools/github-helper',
    trust_score: 64,
    targets: ['GitHub'],
    scored_at: '2026-02-21T22:49:33.106359Z',
  }),
];

/** A registry entry (the registry's ServerResponse) for the first record, so the /v0.1 routes answer. */
const REGISTRY = [
  {
    server: {
      name: 'io.github.acme/postgres-mcp',
      description: 'Query PostgreSQL databases.',
      version: '1.2.3',
      repository: { url: 'https://github.com/acme/postgres-mcp', source: 'github' },
      packages: [
        { registryType: 'npm', identifier: '@acme/postgres-mcp', version: '1.2.3', transport: { type: 'stdio' } },
      ],
    },
    _meta: {
      'io.modelcontextprotocol.registry/official': {
        status: 'active',
        publishedAt: '2026-01-02T03:04:05.123456Z',
        updatedAt: '2026-01-02T03:04:05.123456Z',
        isLatest: true,
      },
    },
  },
];

/** Pinned tools for the first record, so Server Tools answers both with tools and (for the others) without. */
const TOOLS = toolsFile([
  pinned('io.github.acme/postgres-mcp', [
    tool('query', { annotations: { title: 'Run a query', read_only: true, open_world: false } }),
    tool('drop_table', { description: null, input_schema: null, annotations: { destructive: true } }),
  ]),
]);

let engine: QueryEngine;
beforeAll(async () => {
  engine = await loadSnapshot(await buildTestSnapshot(RECORDS, REGISTRY, TOOLS));
});

describe('the generated document', () => {
  it('is committed as public/openapi.json exactly as the generator makes it now', async () => {
    const committed = await readFile(path.join(ROOT, 'public', 'openapi.json'), 'utf8');
    expect(committed, 'run: npx tsx scripts/openapi.ts').toBe(await openApiJson());
  });

  it('is OpenAPI 3.1 with JSON Schema 2020-12 and documents exactly the routes of the route table', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(Object.keys(doc.paths).sort()).toEqual([...new Set(Object.values(ROUTE_PATHS))].sort());
    for (const route of ROUTES) {
      const methods = ROUTES.filter((other) => other.path === route.path).map((other) =>
        (other.method ?? 'GET').toLowerCase(),
      );
      expect(Object.keys(doc.paths[route.path] as Json)).toEqual(methods);
    }
  });

  it('requires the X-API-Key header on every route but health and the badge', () => {
    expect(doc.components.securitySchemes.ApiKeyAuth).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
    });
    expect(doc.security).toEqual([{ ApiKeyAuth: [] }]);
    for (const [route, item] of Object.entries(doc.paths) as [string, Json][]) {
      if (
        route === '/v1/health' ||
        route === '/v1/keys' ||
        route.startsWith('/badges/') ||
        route.startsWith('/feeds/') ||
        route.startsWith('/v0.1/')
      ) {
        expect(op(item).security).toEqual([]);
      } else for (const operation of ops(item)) expect(operation.security).toBeUndefined();
    }
  });

  it('documents every list and search parameter with the bounds and defaults of the schemas', () => {
    const list = doc.paths['/v1/servers'].get.parameters.filter((p: Json) => p.in === 'query');
    const search = doc.paths['/v1/search'].get.parameters.filter((p: Json) => p.in === 'query');
    expect(list.map((p: Json) => p.name)).toEqual(Object.keys(ListParamsSchema.shape));
    expect(search.map((p: Json) => p.name)).toEqual(Object.keys(SearchParamsSchema.shape));
    const byName = (params: Json[], name: string) => params.find((p) => p.name === name) as Json;
    expect(byName(list, 'limit').schema).toMatchObject({
      type: 'integer',
      minimum: LIMITS.list.min,
      maximum: LIMITS.list.max,
      default: LIMITS.list.default,
    });
    expect(byName(list, 'offset').schema).toMatchObject({
      type: 'integer',
      minimum: 0,
      maximum: LIMITS.maxOffset,
      default: 0,
    });
    expect(byName(list, 'sort').schema.enum).toEqual([...SORT_FIELDS]);
    expect(byName(list, 'order').schema).toMatchObject({ enum: ['asc', 'desc'], default: 'desc' });
    expect(byName(list, 'min_score').schema).toMatchObject({ type: 'integer', minimum: 0, maximum: 100 });
    expect(list.every((p: Json) => p.required === false)).toBe(true);
    expect(byName(search, 'q')).toMatchObject({
      required: true,
      schema: { minLength: LIMITS.minQuery, maxLength: LIMITS.maxQuery },
    });
    expect(byName(search, 'limit').schema).toMatchObject({
      maximum: LIMITS.search.max,
      default: LIMITS.search.default,
    });
  });

  it('states the plans of the plan table', () => {
    expect(doc.info.description).toContain(`Free, ${PLANS.free.dailyLimit.toLocaleString('en-US')} requests a day`);
    expect(doc.info.description).toContain(`Pro, ${PLANS.pro.dailyLimit.toLocaleString('en-US')} a day`);
  });

  it('resolves every $ref it contains', () => {
    const refs: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (typeof node === 'object' && node !== null) {
        for (const [key, value] of Object.entries(node)) {
          if (key === '$ref' && typeof value === 'string') refs.push(value);
          else walk(value);
        }
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(20);
    for (const ref of refs) expect(resolvePointer(ref), ref).toBeDefined();
  });
});

describe('the test validator', () => {
  const record = doc.components.schemas.ServerRecord as Json;
  const valid = RECORDS[0];

  it('accepts a valid record, with Unicode-aware patterns', () => {
    expect(validate(record, valid, doc)).toEqual([]);
  });

  it('rejects a record whose score is above 100', () => {
    expect(validate(record, { ...valid, trust_score: 101 }, doc)).toEqual([
      '$.trust_score: 101 is above the maximum 100',
    ]);
  });

  it('rejects an unknown member, a missing member and a bad name', () => {
    const { install: _install, ...withoutInstall } = valid!;
    expect(validate(record, { ...valid, extra: 1 }, doc)).toEqual(['$: unexpected member "extra"']);
    expect(validate(record, withoutInstall, doc)).toEqual(['$: missing required member "install"']);
    expect(validate(record, { ...valid, name: 'no-slash' }, doc)).toHaveLength(1);
  });

  it('throws on a keyword it does not implement rather than pass it', () => {
    expect(() => validate({ type: 'array', uniqueItems: true }, [1, 1])).toThrow(/uniqueItems/);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Real answers against the document.

function resolvePointer(ref: string): Json | undefined {
  let node: any = doc;
  for (const part of ref.slice(2).split('/')) node = node?.[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  return node;
}

const deref = (node: Json): Json => (typeof node.$ref === 'string' ? deref(resolvePointer(node.$ref) as Json) : node);

/** The path template of the document that `pathname` matches, with its GET operation. */
/** The first operation of a path item (GET, or POST for the check). */
const op = (item: Json): Json => (item.get ?? item.post ?? item.delete) as Json;
/** Every operation of a path item (a path may answer GET and POST, or GET and DELETE). */
const ops = (item: Json): Json[] =>
  ['get', 'post', 'delete'].filter((m) => item[m] !== undefined).map((m) => item[m] as Json);

/** The operation of `method` on the path `pathname` matches; the path's first one when it has none for that method. */
function operationFor(pathname: string, method = 'GET'): { template: string; operation: Json } {
  for (const [template, item] of Object.entries(doc.paths) as [string, Json][]) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    const own = item[method === 'HEAD' ? 'get' : method.toLowerCase()] as Json | undefined;
    if (pattern.test(pathname)) return { template, operation: own ?? op(item) };
  }
  throw new Error(`no documented route for ${pathname}`);
}

/** Which (operation, status) pairs were checked against a real answer. */
const checked = new Set<string>();

/**
 * Check a real answer: its status is documented for the operation; its body matches that status's schema
 * (or there is none, for 304 and HEAD); every documented header is present and matches its schema.
 */
async function conforms(response: Response, pathname: string, method = 'GET'): Promise<Json | undefined> {
  const { operation } = operationFor(pathname, method);
  const documented = operation.responses[String(response.status)] as Json | undefined;
  expect(
    documented,
    `${operation.operationId} answered ${response.status}, which the document does not list`,
  ).toBeDefined();
  const spec = deref(documented!);
  const text = await response.text();
  let body: Json | undefined;
  const schema = spec.content?.['application/json']?.schema as Json | undefined;
  if (spec.content?.['image/svg+xml'] !== undefined) {
    expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(text).toMatch(method === 'HEAD' ? /^$/ : /^<svg /);
  } else if (spec.content?.['application/atom+xml'] !== undefined) {
    expect(response.headers.get('content-type')).toMatch(/^application\/atom\+xml/);
    expect(text).toMatch(
      /^<\?xml version="1\.0" encoding="utf-8"\?>\n<feed xmlns="http:\/\/www\.w3\.org\/2005\/Atom">/,
    );
  } else if (schema === undefined || method === 'HEAD') {
    expect(text).toBe('');
  } else {
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    body = JSON.parse(text) as Json;
    expect(validate(schema, body, doc), `${operation.operationId} ${response.status}`).toEqual([]);
  }
  for (const [name, header] of Object.entries(spec.headers ?? {}) as [string, Json][]) {
    const value = response.headers.get(name);
    expect(value, `${operation.operationId} ${response.status}: header ${name}`).not.toBeNull();
    const headerSchema = deref(header).schema as Json;
    const typed = headerSchema.type === 'integer' ? (/^\d+$/.test(value!) ? Number(value) : value) : value;
    expect(validate(headerSchema, typed, doc), `header ${name}: ${value}`).toEqual([]);
  }
  checked.add(`${operation.operationId} ${response.status}`);
  return body;
}

describe('real answers of the gateway', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ engine });
  });

  const OK_PATHS = [
    '/v1/health',
    '/v1/stats',
    '/v1/servers',
    '/v1/servers?limit=2&offset=1&sort=name&order=asc',
    '/v1/servers?min_score=40&flags=no_source&target=postgresql&namespace=com.example',
    '/v1/servers?offset=1000',
    '/v1/servers/io.github.acme/postgres-mcp',
    '/v1/servers/IO.GITHUB.ACME/POSTGRES-MCP',
    '/v1/search?q=postgres',
    '/v1/search?q=pg&limit=1',
    '/v1/lookup?package=npm%3A%40acme%2Fpostgres-mcp',
    '/v1/servers/io.github.acme/postgres-mcp/history',
    '/v1/servers/io.github.acme/postgres-mcp/explain',
    '/v1/servers/io.github.acme/postgres-mcp/tools',
    '/v1/servers/org.sample/weather/tools',
    '/v1/lookup?url=https%3A%2F%2Fnobody.example%2Fmcp',
  ];

  it.each(OK_PATHS)('answers GET %s with a 200 that matches the document', async (url) => {
    const response = await h.call(url, { key: url === '/v1/health' ? null : h.key });
    expect(response.status).toBe(200);
    const body = await conforms(response, new URL(url, 'http://x').pathname);
    expect(body?.data).toBeDefined();
  });

  it('answers the same routes with HEAD, documented headers and no body', async () => {
    const response = await h.call('/v1/servers?limit=1', { method: 'HEAD' });
    expect(response.status).toBe(200);
    await conforms(response, '/v1/servers', 'HEAD');
  });

  it('answers 304 to a matching If-None-Match on every keyed route', async () => {
    for (const url of [
      '/v1/stats',
      '/v1/servers',
      '/v1/servers/org.sample/weather',
      '/v1/search?q=weather',
      '/v1/lookup?package=npm:x',
      '/v1/servers/org.sample/weather/history',
      '/v1/servers/org.sample/weather/explain',
      '/v1/servers/org.sample/weather/tools',
    ]) {
      const first = await h.call(url);
      const etag = first.headers.get('etag');
      expect(etag).toBeTruthy();
      const again = await h.call(url, { headers: { 'if-none-match': etag! } });
      expect(again.status).toBe(304);
      await conforms(again, new URL(url, 'http://x').pathname);
    }
  });

  it('answers 400 with the documented body on every route', async () => {
    for (const url of [
      '/v1/health?x=1',
      '/v1/stats?x=1',
      '/v1/servers?limit=0',
      '/v1/servers/a/b?x=1',
      '/v1/search?q=a',
      '/v1/lookup',
      '/v1/changes',
      '/v1/servers/a/b/history?x=1',
      '/v1/servers/a/b/explain?x=1',
      '/v1/servers/a/b/tools?x=1',
    ]) {
      const response = await h.call(url, { key: url.startsWith('/v1/health') ? null : h.key });
      expect(response.status).toBe(400);
      const body = await conforms(response, new URL(url, 'http://x').pathname);
      expect(body?.error.code).toBe('invalid_parameter');
    }
  });

  it('answers 401 for a missing and for a wrong key on every keyed route', async () => {
    for (const url of [
      '/v1/stats',
      '/v1/servers',
      '/v1/servers/a/b',
      '/v1/search?q=ab',
      '/v1/lookup?package=npm:x',
      '/v1/servers/a/b/history',
      '/v1/servers/a/b/explain',
      '/v1/servers/a/b/tools',
      '/v1/changes?since=0000000000000000',
    ]) {
      for (const key of [null, 'not-a-key']) {
        const response = await h.call(url, { key });
        expect(response.status).toBe(401);
        await conforms(response, new URL(url, 'http://x').pathname);
      }
    }
  });

  it('answers 404 for a server that does not exist', async () => {
    for (const url of [
      '/v1/servers/io.github.nobody/nothing',
      '/v1/servers/io.github.nobody/nothing/history',
      '/v1/servers/io.github.nobody/nothing/explain',
      '/v1/servers/io.github.nobody/nothing/tools',
    ]) {
      const response = await h.call(url);
      expect(response.status).toBe(404);
      const body = await conforms(response, url);
      expect(body?.error.code).toBe('server_not_found');
    }
  });

  it('answers the changes since the served snapshot: none', async () => {
    const url = `/v1/changes?since=${engine.snapshot.id}`;
    const response = await h.call(url);
    expect(response.status).toBe(200);
    const body = await conforms(response, '/v1/changes');
    expect(body?.data).toEqual([]);
    const again = await h.call(url, { headers: { 'if-none-match': response.headers.get('etag')! } });
    expect(again.status).toBe(304);
    await conforms(again, '/v1/changes');
  });

  it('answers 405 with Allow for a method other than GET, HEAD or OPTIONS on every route', async () => {
    for (const url of [
      '/v1/health',
      '/v1/stats',
      '/v1/servers',
      '/v1/servers/a/b',
      '/v1/search',
      '/v1/lookup',
      '/v1/servers/a/b/history',
      '/v1/servers/a/b/explain',
      '/v1/servers/a/b/tools',
      '/v1/changes',
    ]) {
      const response = await h.call(url, { method: 'POST' });
      expect(response.status).toBe(405);
      await conforms(response, url);
    }
  });

  it('answers 414 for a URL longer than 2,048 bytes on every route', async () => {
    for (const url of [
      '/v1/health',
      '/v1/stats',
      '/v1/servers',
      '/v1/servers/a/b',
      '/v1/search',
      '/v1/lookup',
      '/v1/servers/a/b/history',
      '/v1/servers/a/b/explain',
      '/v1/servers/a/b/tools',
      '/v1/changes',
    ]) {
      const response = await h.call(`${url}?q=${'a'.repeat(2048)}`);
      expect(response.status).toBe(414);
      const body = await conforms(response, url);
      expect(body?.error.code).toBe('uri_too_long');
    }
  });

  it('answers 429 with Retry-After once the daily limit is used up, on every keyed route', async () => {
    const limited = await harness({ engine, config: { freeDailyLimit: 1 } });
    for (const url of [
      '/v1/stats',
      '/v1/servers',
      '/v1/servers/a/b',
      '/v1/search?q=ab',
      '/v1/lookup?package=npm:x',
      '/v1/servers/a/b/history',
      '/v1/servers/a/b/explain',
      '/v1/servers/a/b/tools',
      '/v1/changes?since=0000000000000000',
    ]) {
      const key = await limited.issue();
      expect((await limited.call(url, { key })).status).not.toBe(429);
      const response = await limited.call(url, { key });
      expect(response.status).toBe(429);
      expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
      const body = await conforms(response, new URL(url, 'http://x').pathname);
      expect(body?.error.code).toBe('rate_limited');
    }
  });

  it('answers 502 on every keyed route when the counter store is closed', async () => {
    const store = createMemoryStore({ now: () => NOW });
    await store.close();
    const key = 'a-static-test-key';
    const down = await harness({ engine, store, config: { apiKeyHashes: [hashKey(key)] } });
    for (const url of [
      '/v1/stats',
      '/v1/servers',
      '/v1/servers/a/b',
      '/v1/search?q=ab',
      '/v1/lookup?package=npm:x',
      '/v1/servers/a/b/history',
      '/v1/servers/a/b/explain',
      '/v1/servers/a/b/tools',
      '/v1/changes?since=0000000000000000',
    ]) {
      const response = await down.call(url, { key });
      expect(response.status).toBe(502);
      const body = await conforms(response, new URL(url, 'http://x').pathname);
      expect(body?.error.code).toBe('store_unavailable');
    }
  });

  it('answers the policy check with every documented status, each matching the document', async () => {
    const post = (body: string, key: string | null = h.key, target = '/v1/check') =>
      h.gateway(
        new Request(`http://localhost${target}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(key === null ? {} : { 'x-api-key': key }) },
          body,
        }),
      );
    const ok = await post(JSON.stringify({ servers: ['org.sample/weather', { package: 'npm:@acme/postgres-mcp' }] }));
    expect(ok.status).toBe(200);
    await conforms(ok, '/v1/check');
    for (const [response, status] of [
      [await post('{'), 400],
      [await post('{}', null), 401],
      [await h.call('/v1/check'), 405],
      [await post('{}', h.key, `/v1/check?q=${'a'.repeat(2048)}`), 414],
    ] as const) {
      expect(response.status).toBe(status);
      await conforms(response, '/v1/check');
    }
    const limited = await harness({ engine, config: { freeDailyLimit: 1 } });
    const refused = await limited.gateway(
      new Request('http://localhost/v1/check', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': limited.key },
        body: JSON.stringify({ servers: ['a.b/c', 'a.b/d'] }),
      }),
    );
    expect(refused.status).toBe(429);
    await conforms(refused, '/v1/check');
    const store = createMemoryStore({ now: () => NOW });
    await store.close();
    const down = await harness({ engine, store, config: { apiKeyHashes: [hashKey('a-static-test-key')] } });
    const unavailable = await down.gateway(
      new Request('http://localhost/v1/check', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'a-static-test-key' },
        body: JSON.stringify({ servers: ['a.b/c'] }),
      }),
    );
    expect(unavailable.status).toBe(502);
    await conforms(unavailable, '/v1/check');
  });

  it('answers Get Access with every documented status, each matching the document', async () => {
    const post = (target: Harness, body: string, path = '/v1/keys', headers: Record<string, string> = {}) =>
      target.gateway(
        new Request(`http://localhost${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body,
        }),
      );
    const limited = await harness({ engine, config: { selfService: { perDay: 1 } } });
    const created = await post(limited, '{"label":"docs"}');
    expect(created.status).toBe(201);
    await conforms(created, '/v1/keys');
    const again = await post(limited, '{}');
    expect(again.status).toBe(429);
    await conforms(again, '/v1/keys');
    const bad = await post(h, '{"label": 1}');
    expect(bad.status).toBe(400);
    await conforms(bad, '/v1/keys');
    const off = await harness({ engine, config: { selfService: { enabled: false } } });
    const forbidden = await post(off, '{}');
    expect(forbidden.status).toBe(403);
    await conforms(forbidden, '/v1/keys');
    const get = await h.call('/v1/keys', { key: null });
    expect(get.status).toBe(405);
    await conforms(get, '/v1/keys');
    const long = await post(h, '{}', `/v1/keys?x=${'a'.repeat(2048)}`);
    expect(long.status).toBe(414);
    await conforms(long, '/v1/keys');
    const store = createMemoryStore({ now: () => NOW });
    await store.close();
    const down = await harness({ engine, store, config: { apiKeyHashes: [hashKey('a-static-test-key')] } });
    const unavailable = await post(down, '{}');
    expect(unavailable.status).toBe(502);
    await conforms(unavailable, '/v1/keys');
  });

  it('answers the feeds with every documented status, each matching the document', async () => {
    for (const url of ['/feeds/changes.atom', '/feeds/servers/io.github.acme/postgres-mcp.atom']) {
      const ok = await h.call(url, { key: null });
      expect(ok.status, url).toBe(200);
      await conforms(ok, url);
      const again = await h.call(url, { key: null, headers: { 'if-none-match': ok.headers.get('etag') ?? '' } });
      expect(again.status).toBe(304);
      await conforms(again, url);
      const post = await h.call(url, { key: null, method: 'POST' });
      expect(post.status).toBe(405);
      await conforms(post, url);
      const long = await h.call(`${url}?x=${'a'.repeat(2048)}`, { key: null });
      expect(long.status).toBe(414);
      await conforms(long, url);
    }
    const unknown = await h.call('/feeds/servers/io.github.nobody/nothing.atom', { key: null });
    expect(unknown.status).toBe(404);
    await conforms(unknown, '/feeds/servers/io.github.nobody/nothing.atom');
    const bad = await h.call('/feeds/servers/a%2Fb/c.atom', { key: null });
    expect(bad.status).toBe(400);
    await conforms(bad, '/feeds/servers/a%2Fb/c.atom');
    for (const url of ['/feeds/changes.atom']) {
      const response = await h.call(`${url}%ZZ`, { key: null });
      expect(response.status).toBe(400);
      await conforms(response, url);
    }
  });

  it('answers the badge with every documented status, each matching the document', async () => {
    const ok = await h.call('/badges/io.github.acme/postgres-mcp.svg', { key: null });
    expect(ok.status).toBe(200);
    await conforms(ok, '/badges/io.github.acme/postgres-mcp.svg');
    const etag = ok.headers.get('etag') ?? '';
    for (const [target, init, status] of [
      ['/badges/io.github.acme/postgres-mcp.svg', { key: null, headers: { 'if-none-match': etag } }, 304],
      ['/badges/a%2Fb/c.svg', { key: null }, 400],
      ['/badges/io.github.nobody/nothing.svg', { key: null }, 404],
      ['/badges/a/b.svg', { key: null, method: 'POST' }, 405],
      [`/badges/a/b.svg?x=${'a'.repeat(2048)}`, { key: null }, 414],
    ] as const) {
      const response = await h.call(target, init);
      expect(response.status, target).toBe(status);
      await conforms(response, new URL(target, 'http://x').pathname);
    }
  });

  it('answers the registry routes with every documented status, each matching the document', async () => {
    const name = encodeURIComponent('io.github.acme/postgres-mcp');
    for (const url of ['/v0.1/servers', `/v0.1/servers/${name}/versions`, `/v0.1/servers/${name}/versions/latest`]) {
      const path = new URL(url, 'http://x').pathname;
      const ok = await h.call(url, { key: null });
      expect(ok.status, url).toBe(200);
      await conforms(ok, path);
      const again = await h.call(url, { key: null, headers: { 'if-none-match': ok.headers.get('etag') ?? '' } });
      expect(again.status).toBe(304);
      await conforms(again, path);
      const bad = await h.call(`${url}?limit=0&x=1`, { key: null });
      expect(bad.status).toBe(400);
      await conforms(bad, path);
      const post = await h.call(url, { key: null, method: 'POST' });
      expect(post.status).toBe(405);
      await conforms(post, path);
      const long = await h.call(`${url}?x=${'a'.repeat(2048)}`, { key: null });
      expect(long.status).toBe(414);
      await conforms(long, path);
    }
    for (const url of ['/v0.1/servers/io.github.nobody%2Fnothing/versions', `/v0.1/servers/${name}/versions/9.9.9`]) {
      const missing = await h.call(url, { key: null });
      expect(missing.status, url).toBe(404);
      await conforms(missing, url);
    }
  });

  describeWebhookAnswers(conforms);

  it('has checked every documented status of every operation against a real answer (500 aside: a bug, not a case)', () => {
    const documented: string[] = [];
    for (const item of Object.values(doc.paths) as Json[]) {
      for (const operation of ops(item)) {
        for (const status of Object.keys(operation.responses)) {
          if (status !== '500') documented.push(`${operation.operationId} ${status}`);
        }
      }
    }
    expect([...checked].sort()).toEqual(documented.sort());
  });
});
