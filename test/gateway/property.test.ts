/**
 * Random query strings and path segments thrown at the gateway (fast-check): whatever arrives, the answer
 * is a well-formed envelope or error body with a 2xx, 3xx or 4xx status, never a 500, never a hang.
 * Requests go through `handle` with the raw request-target text, as the Node adapter passes it, so the
 * gateway sees bytes no Web `Request` constructor would have cleaned up first.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GatewayResponse } from '../../src/gateway/gateway.js';
import { harness, type Harness } from './harness.js';

const KNOWN_NAMES = ['limit', 'offset', 'sort', 'order', 'min_score', 'flags', 'target', 'namespace', 'q'];
const TRICKY = [
  '',
  ' ',
  '0',
  '-1',
  '1e2',
  '+1',
  '200',
  '201',
  '99999999999999999999',
  'asc',
  'DESC',
  'name',
  'NO_SOURCE',
  '%',
  '%zz',
  '%00',
  '&',
  '=',
  '+',
  '..',
  '/',
  '\\',
  '"',
  '<script>',
  '\u0000',
  '\uFFFF',
  '😀',
  '%E0%A4%A',
];

const text = fc.oneof(
  fc.constantFrom(...TRICKY),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 10 }),
);
/** Text as it might appear in a URL: raw, percent-encoded, or with stray percent signs. */
const urlText = fc.oneof(
  text,
  text.map((value) => encodeURIComponent(value)),
  text.map((value) => value.replace(/[a-z]/g, '%')),
);
const pair = fc.tuple(fc.oneof(fc.constantFrom(...KNOWN_NAMES), urlText), fc.option(urlText, { nil: undefined }));
const query = fc.oneof(
  fc
    .array(pair, { maxLength: 6 })
    .map((pairs) => pairs.map(([name, value]) => (value === undefined ? name : `${name}=${value}`)).join('&')),
  fc.string({ maxLength: 60 }),
);
const route = fc.oneof(
  fc.constantFrom('/v1/health', '/v1/stats', '/v1/servers', '/v1/search', '/v1/servers/com.example/mcp'),
  fc.tuple(urlText, urlText).map(([namespace, id]) => `/v1/servers/${namespace}/${id}`),
  fc.array(urlText, { maxLength: 5 }).map((segments) => `/v1/${segments.join('/')}`),
  fc.array(urlText, { maxLength: 4 }).map((segments) => `/${segments.join('/')}`),
);
const method = fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'OPTIONS', 'POST', 'DELETE');

function withDeadline(promise: Promise<GatewayResponse>, ms: number): Promise<GatewayResponse> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)),
  ]);
}

function checkWellFormed(response: GatewayResponse, method: string): void {
  expect(response.status).toBeGreaterThanOrEqual(200);
  expect(response.status).toBeLessThan(500);
  for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    expect(response.headers[header]).toMatch(/^\d+$/);
  }
  if (response.status === 204 || response.status === 304 || method === 'HEAD') {
    expect(response.body).toBeNull();
    return;
  }
  const body = JSON.parse(String(response.body ?? 'null')) as Record<string, unknown>;
  if (response.status < 300) {
    expect(Object.keys(body).sort()).toEqual(['data', 'meta']);
    expect(typeof (body.meta as { cached: unknown }).cached).toBe('boolean');
  } else {
    expect(Object.keys(body)).toEqual(['error']);
    const error = body.error as { message: unknown; status: unknown; code: unknown };
    expect(Object.keys(error).sort()).toEqual(['code', 'message', 'status']);
    expect(typeof error.message).toBe('string');
    expect(typeof error.code).toBe('string');
    expect(error.status).toBe(response.status);
  }
}

async function send(h: Harness, requestMethod: string, url: string, key: string | undefined) {
  const headers = new Map<string, string>();
  if (key !== undefined) headers.set('x-api-key', key);
  const response = await withDeadline(
    h.gateway.handle({
      method: requestMethod,
      url,
      headers: { get: (name) => headers.get(name.toLowerCase()) ?? null },
    }),
    2000,
  );
  checkWellFormed(response, requestMethod);
  return response;
}

describe('the gateway under random input', () => {
  it('answers every random route and query with a well-formed body and a status below 500', async () => {
    const h = await harness({ config: { freeDailyLimit: 1_000_000 } });
    await fc.assert(
      fc.asyncProperty(method, route, query, async (requestMethod, path, search) => {
        await send(h, requestMethod, search === '' ? path : `${path}?${search}`, h.key);
      }),
      { numRuns: 600 },
    );
    expect(h.logs.some((line) => line.status === 200)).toBe(true);
    expect(h.logs.some((line) => line.status === 400)).toBe(true);
    expect(h.logs.some((line) => line.status === 404)).toBe(true);
  });

  it('answers random keys and random query strings on the keyed routes without a 500', async () => {
    const h = await harness({ config: { freeDailyLimit: 1_000_000 } });
    const key = fc.oneof(fc.constant(h.key), fc.string({ maxLength: 80 }), fc.constant(undefined));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/v1/stats', '/v1/servers', '/v1/search', '/v1/servers/io.github.acme/slack-bot'),
        query,
        key,
        async (path, search, presented) => {
          await send(h, 'GET', `${path}?${search}`, presented);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('always answers a query string of valid list parameters with 200 and a page no longer than its limit', async () => {
    const h = await harness({ config: { freeDailyLimit: 1_000_000 } });
    const listQuery = fc.record(
      {
        limit: fc.integer({ min: 1, max: 200 }),
        offset: fc.integer({ min: 0, max: 10 }),
        sort: fc.constantFrom(
          'trust_score',
          'name',
          'namespace',
          'provenance',
          'maintenance',
          'popularity',
          'permissions',
          'scored_at',
        ),
        order: fc.constantFrom('asc', 'desc', 'ASC', 'Desc'),
        min_score: fc.integer({ min: 0, max: 100 }),
        flags: fc.constantFrom('NO_SOURCE', 'dead_entry', 'NO_SOURCE,DEAD_ENTRY', 'UNKNOWN'),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(listQuery, async (params) => {
        const search = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
        const response = await send(h, 'GET', `/v1/servers?${search}`, h.key);
        expect(response.status).toBe(200);
        const body = JSON.parse(String(response.body ?? '')) as {
          data: unknown[];
          meta: { limit: number; total: number };
        };
        expect(body.data.length).toBeLessThanOrEqual(body.meta.limit);
        expect(body.meta.limit).toBe(params.limit ?? 50);
      }),
      { numRuns: 200 },
    );
  });
});
