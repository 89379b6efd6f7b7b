/**
 * The five routes and the error table of the specification (sections 4 and 7), with the decisions of
 * sections 5 and 6: envelope, `data` array or object, meta on list endpoints, case-insensitive Get Server,
 * 404/405, OPTIONS, HEAD and the log line. Request → Response, memory store, fixed clock.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { hashKey } from '../../src/keys/keys.js';
import type { ServerRecord, Stats } from '../../src/model/schema.js';
import { envelopeOf, errorOf, harness, type Harness, limitsOf, NOW, RECORDS, RESET_SECONDS } from './harness.js';

let h: Harness;
beforeEach(async () => {
  h = await harness();
});

const KEYED_PATHS = ['/v1/stats', '/v1/servers', '/v1/servers/com.example/mcp', '/v1/search?q=mcp'];
const ALL_PATHS = ['/v1/health', ...KEYED_PATHS];

describe('health', () => {
  it('answers 200 without a key, with status ok and an ISO timestamp, and meta.cached false', async () => {
    const response = await h.call('/v1/health', { key: null });
    expect(response.status).toBe(200);
    const body = await envelopeOf<{ status: string; timestamp: string }>(response);
    expect(body.data.status).toBe('ok');
    expect(new Date(body.data.timestamp).toISOString()).toBe(body.data.timestamp);
    expect(body.meta.cached).toBe(false);
  });

  it('sends Cache-Control no-store and the free plan limit as both limit and remaining', async () => {
    const response = await h.call('/v1/health', { key: null });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(limitsOf(response)).toEqual({ limit: '100', remaining: '100', reset: RESET_SECONDS });
  });

  it('never counts, even when a valid key is sent', async () => {
    for (let i = 0; i < 5; i++) await h.call('/v1/health');
    const response = await h.call('/v1/stats');
    expect(response.headers.get('x-ratelimit-remaining')).toBe('99');
  });
});

describe('statistics', () => {
  it('answers the statistics record as an object, without list metadata', async () => {
    const response = await h.call('/v1/stats');
    expect(response.status).toBe(200);
    const body = await envelopeOf<Stats>(response);
    expect(Array.isArray(body.data)).toBe(false);
    expect(body.data.total_servers).toBe(RECORDS.length);
    expect(body.data.verified_publishers).toBe(1);
    expect(body.data.flag_summary).toMatchObject({ NO_SOURCE: 2, DEAD_ENTRY: 1 });
    expect(body.meta).not.toHaveProperty('total');
    expect(body.meta).not.toHaveProperty('limit');
    expect(body.meta).not.toHaveProperty('offset');
  });
});

describe('list servers', () => {
  it('answers an array of full records with total, limit and offset, by trust_score descending by default', async () => {
    const body = await envelopeOf<ServerRecord[]>(await h.call('/v1/servers'));
    expect(Array.isArray(body.data)).toBe(true);
    expect(body.meta).toMatchObject({ cached: false, total: 5, limit: 50, offset: 0 });
    expect(body.data.map((record) => record.trust_score)).toEqual([91, 72, 64, 45, 12]);
    expect(body.data[0]).toEqual(RECORDS[0]);
  });

  it('filters, sorts and pages with the parameters it is given', async () => {
    const body = await envelopeOf<ServerRecord[]>(
      await h.call('/v1/servers?flags=no_source&sort=name&order=ASC&limit=1&offset=1'),
    );
    expect(body.meta).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(body.data.map((record) => record.name)).toEqual(['io.github.acme/Slack-Bot']);
  });

  it('answers an empty page with the true total for an offset past the end', async () => {
    const body = await envelopeOf<ServerRecord[]>(await h.call('/v1/servers?offset=10'));
    expect(body.data).toEqual([]);
    expect(body.meta).toMatchObject({ total: 5, offset: 10 });
  });

  it('answers 200 with an empty page and total 0 for a filter value that matches nothing', async () => {
    const response = await h.call('/v1/servers?flags=NOT_A_FLAG&target=nowhere');
    expect(response.status).toBe(200);
    const body = await envelopeOf<ServerRecord[]>(response);
    expect(body.data).toEqual([]);
    expect(body.meta.total).toBe(0);
  });
});

describe('get server', () => {
  it('answers the record as an object', async () => {
    const body = await envelopeOf<ServerRecord>(await h.call('/v1/servers/com.example/mcp'));
    expect(body.data).toEqual(RECORDS[2]);
  });

  it('matches the name case-insensitively and answers with the stored spelling', async () => {
    const body = await envelopeOf<ServerRecord>(await h.call('/v1/servers/IO.GITHUB.ACME/slack-bot'));
    expect(body.data.name).toBe('io.github.acme/Slack-Bot');
  });

  it('decodes percent-encoded path segments', async () => {
    const response = await h.call('/v1/servers/com%2Eexample/%6Dcp');
    expect((await envelopeOf<ServerRecord>(response)).data.name).toBe('com.example/mcp');
  });

  it('answers 404 server_not_found naming the server and suggesting the search endpoint', async () => {
    const response = await h.call('/v1/servers/com.example/nothing-here');
    expect(response.status).toBe(404);
    const error = await errorOf(response);
    expect(error.code).toBe('server_not_found');
    expect(error.message).toContain('com.example/nothing-here');
    expect(error.message).toContain('not found');
    expect(error.message).toContain('/v1/search?q=nothing-here');
  });

  it('quotes a hostile name escaped and cut, never raw', async () => {
    const hostile = `${'<script>"x"'.repeat(10)}`;
    const response = await h.call(`/v1/servers/a/${encodeURIComponent(hostile)}`);
    const error = await errorOf(response);
    expect(error.code).toBe('server_not_found');
    expect(error.message).toContain('\\"x\\"'); // JSON-escaped inside the message
    expect(error.message.length).toBeLessThan(500);
  });

  it('answers 400 for a path segment longer than any name allows', async () => {
    const response = await h.call(`/v1/servers/a/${'b'.repeat(201)}`);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toContain('id');
  });

  it('does not cache a 404: the next identical request is looked up again', async () => {
    await h.call('/v1/servers/com.example/nothing-here');
    await h.call('/v1/servers/com.example/nothing-here');
    expect(h.logs.map((line) => [line.status, line.cached])).toEqual([
      [404, false],
      [404, false],
    ]);
  });

  it('answers 400 for a path segment that is not valid percent-encoding', async () => {
    const response = await h.call('/v1/servers/a/%E0%A4%A');
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('invalid_parameter');
  });
});

describe('search', () => {
  it('answers an array with total, limit and offset', async () => {
    const body = await envelopeOf<ServerRecord[]>(await h.call('/v1/search?q=postgres'));
    expect(Array.isArray(body.data)).toBe(true);
    expect(body.data[0]?.name).toBe('io.github.acme/postgres-mcp');
    expect(body.meta).toMatchObject({ cached: false, total: body.data.length, limit: 20, offset: 0 });
  });

  it('puts a server whose id is exactly the query first', async () => {
    const body = await envelopeOf<ServerRecord[]>(await h.call('/v1/search?q=MCP&limit=2'));
    expect(body.data[0]?.name).toBe('com.example/mcp');
    expect(body.meta.limit).toBe(2);
  });

  it('pages with offset and reports it in meta', async () => {
    const all = await envelopeOf<ServerRecord[]>(await h.call('/v1/search?q=mcp&limit=200'));
    expect(all.meta.total).toBeGreaterThan(1);
    const second = await envelopeOf<ServerRecord[]>(await h.call('/v1/search?q=mcp&limit=1&offset=1'));
    expect(second.data.map((r) => r.name)).toEqual([all.data[1]!.name]);
    expect(second.meta).toMatchObject({ total: all.meta.total, limit: 1, offset: 1 });
  });

  it('finds servers by their description with in=name,description, name matches first', async () => {
    const names = await envelopeOf<ServerRecord[]>(await h.call('/v1/search?q=forecast'));
    expect(names.meta.total).toBe(0);
    const both = await envelopeOf<ServerRecord[]>(await h.call('/v1/search?q=forecast&in=name,description'));
    expect(both.data.map((r) => r.name)).toEqual(['org.sample/weather']);
    // "weather" is in one name and in another server's description: the name match comes first.
    const mixed = await envelopeOf<ServerRecord[]>(await h.call('/v1/search?q=weather&in=description,name'));
    expect(mixed.data.map((r) => r.name)).toEqual(['org.sample/weather', 'dev.tools/github-helper']);
    const same = await h.call('/v1/search?q=weather&in=name,description');
    const other = await h.call('/v1/search?q=weather&in=DESCRIPTION,NAME');
    expect(other.headers.get('etag')).toBe(same.headers.get('etag'));
  });

  it('answers 400 for an in it does not know', async () => {
    const response = await h.call('/v1/search?q=weather&in=readme');
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toContain('in must be name, description, or both');
  });
});

describe('unknown routes', () => {
  const unknown = [
    '/',
    '/v1',
    '/v1/',
    '/v2/health',
    '/v1/nope',
    '/v1/health/',
    '/v1/servers/',
    '/v1/servers/only-one',
    '/v1/servers/a/b/c',
    '/v1/servers//b',
    '/v1/servers/a/',
    '/V1/HEALTH',
  ];
  for (const path of unknown) {
    it(`answers 404 route_not_found for ${path}, before asking for a key`, async () => {
      const response = await h.call(path, { key: null });
      expect(response.status).toBe(404);
      expect((await errorOf(response)).code).toBe('route_not_found');
      expect(limitsOf(response)).toEqual({ limit: '100', remaining: '100', reset: RESET_SECONDS });
    });
  }

  it("names every way to ask the reverse lookup in the unknown route's message", async () => {
    const { message } = await errorOf(await h.call('/v1/nope'));
    for (const parameter of ['?package=', '?purl=', '?url=', '?repo=']) expect(message).toContain(parameter);
  });

  it('answers 404 for an unknown route whatever the method', async () => {
    const response = await h.call('/v1/nope', { method: 'DELETE' });
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe('route_not_found');
  });
});

describe('methods', () => {
  for (const path of ALL_PATHS) {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      it(`answers ${method} ${path} with 405 method_not_allowed and Allow, before asking for a key`, async () => {
        const response = await h.call(path, { method, key: null });
        expect(response.status).toBe(405);
        expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
        expect((await errorOf(response)).code).toBe('method_not_allowed');
      });
    }
  }

  for (const path of ALL_PATHS) {
    it(`answers OPTIONS ${path} with 204, no body and no key, without counting`, async () => {
      const response = await h.call(path, { method: 'OPTIONS', key: null, headers: { origin: 'https://example.org' } });
      expect(response.status).toBe(204);
      expect(await response.text()).toBe('');
      expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
      const after = await h.call('/v1/stats');
      expect(after.headers.get('x-ratelimit-remaining')).toBe('99');
    });
  }

  for (const path of ALL_PATHS) {
    it(`answers HEAD ${path} with the GET headers and no body`, async () => {
      await h.call(path); // fills the cache, so the GET below and the HEAD both come from it
      const get = await h.call(path);
      const head = await h.call(path, { method: 'HEAD' });
      expect(head.status).toBe(get.status);
      expect(await head.text()).toBe('');
      expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(await get.text())));
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    });
  }

  it('counts HEAD requests like GET', async () => {
    await h.call('/v1/stats', { method: 'HEAD' });
    const response = await h.call('/v1/stats', { method: 'HEAD' });
    expect(response.headers.get('x-ratelimit-remaining')).toBe('98');
  });
});

describe('the error table', () => {
  it('400: missing or invalid parameters', async () => {
    const response = await h.call('/v1/search');
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ status: 400, code: 'invalid_parameter' });
  });

  it('401: a missing key (missing_api_key) and an invalid key (invalid_api_key)', async () => {
    const missing = await h.call('/v1/stats', { key: null });
    expect(await errorOf(missing)).toMatchObject({ status: 401, code: 'missing_api_key' });
    const invalid = await h.call('/v1/stats', { key: 'mts_not-a-real-key' });
    expect(await errorOf(invalid)).toMatchObject({ status: 401, code: 'invalid_api_key' });
    const empty = await h.call('/v1/stats', { key: '' });
    expect(await errorOf(empty)).toMatchObject({ status: 401, code: 'missing_api_key' });
  });

  it('401 responses carry the free plan limit and reset and are never cached', async () => {
    for (const path of KEYED_PATHS) {
      const response = await h.call(path, { key: 'wrong' });
      expect(response.status).toBe(401);
      expect(limitsOf(response)).toEqual({ limit: '100', remaining: '100', reset: RESET_SECONDS });
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('404: an unknown route (route_not_found) and an unknown server (server_not_found)', async () => {
    expect(await errorOf(await h.call('/v1/unknown'))).toMatchObject({ status: 404, code: 'route_not_found' });
    expect(await errorOf(await h.call('/v1/servers/x/y'))).toMatchObject({ status: 404, code: 'server_not_found' });
  });

  it('never puts a key in a response or a log line, and logs the hash prefix instead', async () => {
    const response = await h.call('/v1/stats');
    expect(await response.text()).not.toContain(h.key);
    await h.call('/v1/stats', { key: `${h.key}x` });
    expect(JSON.stringify(h.logs)).not.toContain(h.key);
    expect(h.logs[0]).toMatchObject({ method: 'GET', path: '/v1/stats', status: 200, cached: false });
    expect(h.logs[0]?.key).toBe(hashKey(h.key).slice(0, 8));
    expect(h.logs[1]).toMatchObject({ status: 401, key: null });
    expect(typeof h.logs[0]?.duration_ms).toBe('number');
    // The time the request arrived, also when the clock moves between requests (the string is remembered
    // for one millisecond at a time).
    expect(h.logs[0]?.time).toBe(new Date(NOW).toISOString());
    h.clock.now = NOW + 1;
    await h.call('/v1/stats');
    expect(h.logs.at(-1)?.time).toBe(new Date(NOW + 1).toISOString());
    h.clock.now = NOW;
    await h.call('/v1/stats');
    expect(h.logs.at(-1)?.time).toBe(new Date(NOW).toISOString());
  });

  it('logs one line per request with the path only, never the query string', async () => {
    await h.call('/v1/search?q=secret-words');
    await h.call('/v1/health');
    expect(h.logs).toHaveLength(2);
    expect(h.logs[0]?.path).toBe('/v1/search');
    expect(JSON.stringify(h.logs)).not.toContain('secret-words');
  });
});

describe('keyed responses', () => {
  it('send Cache-Control private, an ETag, JSON and the key limits on every keyed 200', async () => {
    for (const [index, path] of KEYED_PATHS.entries()) {
      const response = await h.call(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('private');
      expect(response.headers.get('etag')).toMatch(/^W\/".+"$/);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(limitsOf(response)).toEqual({ limit: '100', remaining: String(99 - index), reset: RESET_SECONDS });
    }
  });

  it('carry the snapshot id and build time in meta', async () => {
    const body = await envelopeOf(await h.call('/v1/stats'));
    expect(body.meta.snapshot_id).toEqual(expect.any(String));
    expect(body.meta.generated_at).toBe('2026-03-01T00:00:00.000Z');
  });
});
