/**
 * The Vercel functions in `api/`: each file's handler, run in a Node `http` server as the platform runs it
 * (a `VercelRequest` is an `IncomingMessage`), with the URL a rewrite hands over (the client's path, plus
 * the route's parameters appended to the query string).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITE_NOT_FOUND_PAGE } from '../../src/http/site-not-found.js';
import { routeUrl } from '../../src/http/vercel.js';
import { RECORDS } from '../gateway/harness.js';
import { buildTestSnapshot } from '../support/records.js';

const GET = '/v1/servers/{namespace}/{id}';
const HISTORY = '/v1/servers/{namespace}/{id}/history';

describe('routeUrl', () => {
  it('removes the parameters the platform appends for the path template, once or twice', () => {
    expect(routeUrl('/v1/servers/a.b/c?namespace=a.b&id=c', GET)).toBe('/v1/servers/a.b/c');
    expect(routeUrl('/v1/servers/a/c?namespace=a&id=c&namespace=a&id=c', GET)).toBe('/v1/servers/a/c');
    expect(routeUrl('/v1/servers/a%20b/c?namespace=a+b&id=c', GET)).toBe('/v1/servers/a%20b/c');
  });

  it('takes the values from the path on routes whose parameters are not the last segments', () => {
    expect(routeUrl('/v1/servers/a/b/history?namespace=a&id=b', HISTORY)).toBe('/v1/servers/a/b/history');
    expect(routeUrl('/v1/servers/a/b/explain?id=b&namespace=a', '/v1/servers/{namespace}/{id}/explain')).toBe(
      '/v1/servers/a/b/explain',
    );
    expect(routeUrl('/v0.1/servers/a%2Fb/versions?serverName=a%2Fb', '/v0.1/servers/{serverName}/versions')).toBe(
      '/v0.1/servers/a%2Fb/versions',
    );
    expect(
      routeUrl(
        '/v0.1/servers/a%2Fb/versions/1.0.0?serverName=a%2Fb&version=1.0.0',
        '/v0.1/servers/{serverName}/versions/{version}',
      ),
    ).toBe('/v0.1/servers/a%2Fb/versions/1.0.0');
    expect(routeUrl('/badges/a/b.svg?namespace=a&id=b', '/badges/{namespace}/{id}.svg')).toBe('/badges/a/b.svg');
  });

  it('keeps + in a path a plus sign, whether the platform appends it encoded or raw', () => {
    expect(routeUrl('/v1/servers/a+b/c?namespace=a%2Bb&id=c', GET)).toBe('/v1/servers/a+b/c');
    expect(routeUrl('/v1/servers/a+b/c+d?namespace=a+b&id=c+d', GET)).toBe('/v1/servers/a+b/c+d');
    expect(routeUrl('/v1/servers/a+b/c/history?namespace=a+b&id=c', HISTORY)).toBe('/v1/servers/a+b/c/history');
  });

  it('keeps everything the client sent', () => {
    expect(routeUrl('/v1/servers/a/c?full=1&namespace=a&id=c', GET)).toBe('/v1/servers/a/c?full=1');
    expect(routeUrl('/v1/servers/a/c?namespace=other', GET)).toBe('/v1/servers/a/c?namespace=other');
    expect(routeUrl('/v1/servers/a/b/history?limit=2&namespace=a&id=b', HISTORY)).toBe(
      '/v1/servers/a/b/history?limit=2',
    );
    expect(routeUrl('/v1/search?q=x&limit=2', '/v1/search')).toBe('/v1/search?q=x&limit=2');
    expect(routeUrl('/v1/stats', '/v1/stats')).toBe('/v1/stats');
    expect(routeUrl('/v1/nope?path=nope', undefined)).toBe('/v1/nope?path=nope');
  });
});

describe('the api/ functions', () => {
  let dir: string;
  let server: http.Server;
  let base: string;
  let current: (request: http.IncomingMessage, response: http.ServerResponse) => Promise<void>;
  const KEY = 'vercel-test-key';

  // What the platform's launcher provides to `@vercel/functions` (its request context, by a global symbol):
  // here it records the work each request hands to `waitUntil`.
  const handedOver: Promise<unknown>[] = [];
  const CONTEXT = Symbol.for('@vercel/request-context');

  beforeAll(async () => {
    (globalThis as Record<symbol, unknown>)[CONTEXT] = {
      get: () => ({ waitUntil: (work: Promise<unknown>) => handedOver.push(work) }),
    };
    dir = await mkdtemp(path.join(tmpdir(), 'mts-vercel-'));
    // The functions read the environment once per warm instance, as on Vercel.
    process.env.SNAPSHOT_DIR = await buildTestSnapshot(RECORDS);
    process.env.API_KEYS = KEY;
    process.env.KEYS_FILE = path.join(dir, 'keys.json');
    server = http.createServer((request, response) => void current(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    delete (globalThis as Record<symbol, unknown>)[CONTEXT];
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  async function call(file: string, url: string, key: string | null = KEY, init: RequestInit = {}) {
    current = ((await import(file)) as { default: typeof current }).default;
    const headers = { ...(key === null ? {} : { 'X-API-Key': key }), ...(init.headers as Record<string, string>) };
    return fetch(`${base}${url}`, { ...init, headers });
  }

  it("hands the rest of the snapshot's loading to the platform's waitUntil on an instance's first request", async () => {
    expect((await call('../../api/health.ts', '/v1/health', null)).status).toBe(200);
    expect(handedOver).toHaveLength(1);
    await handedOver[0];
    // Loaded: a later request hands nothing more over.
    expect((await call('../../api/stats.ts', '/v1/stats')).status).toBe(200);
    expect(handedOver).toHaveLength(1);
  });

  it('answers history and explain, whose parameters are not the last segments, as the rewrite hands them over', async () => {
    const history = await call(
      '../../api/history.ts',
      '/v1/servers/com.example/mcp/history?namespace=com.example&id=mcp',
    );
    expect(history.status).toBe(200);
    const explain = await call(
      '../../api/explain.ts',
      '/v1/servers/com.example/mcp/explain?namespace=com.example&id=mcp',
    );
    expect(explain.status).toBe(200);
  });

  it("answers an /api path asked directly with the site's 404 page, as npm start does", async () => {
    for (const [file, url] of [
      ['../../api/health.ts', '/api/health'],
      ['../../api/get.ts', '/api/get?namespace=com.example&id=mcp'],
      ['../../api/not-found.ts', '/api/v1/servers/com.example/mcp'],
    ] as const) {
      const response = await call(file, url);
      expect(response.status, url).toBe(404);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await response.text()).toBe(SITE_NOT_FOUND_PAGE);
    }
    expect((await call('../../api/health.ts', '/api/health', null, { method: 'POST' })).status).toBe(405);
  });

  it('counts Get Access by the address the platform names, not by what X-Forwarded-For claims', async () => {
    const ask = (realIp: string, forwardedFor: string) =>
      call('../../api/keys.ts', '/v1/keys', null, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-real-ip': realIp, 'x-forwarded-for': forwardedFor },
        body: '{}',
      });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await ask('203.0.113.9', `198.51.100.${i}`)).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
    expect((await ask('203.0.113.10', '198.51.100.1')).status).toBe(201);
    // A header that is not an address falls back to the connection's address, one counter for all such.
    expect((await ask('not-an-address', '1.1.1.1')).status).toBe(201);
  });

  it('answers health, stats, list and search from their files', async () => {
    expect((await call('../../api/health.ts', '/v1/health', null)).status).toBe(200);
    expect((await call('../../api/stats.ts', '/v1/stats')).status).toBe(200);
    const list = await call('../../api/list.ts', '/v1/servers?limit=1');
    expect(((await list.json()) as { meta: { total: number } }).meta.total).toBe(RECORDS.length);
    const search = await call('../../api/search.ts', '/v1/search?q=slack');
    expect(((await search.json()) as { data: { name: string }[] }).data[0]?.name).toBe('io.github.acme/Slack-Bot');
  });

  it('answers Get Server with the parameters the rewrite appended removed', async () => {
    const response = await call('../../api/get.ts', '/v1/servers/com.example/mcp?namespace=com.example&id=mcp');
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: { name: string } }).data.name).toBe('com.example/mcp');
  });

  it('answers an unknown /v1 path, and one with a trailing slash, with the JSON route_not_found', async () => {
    for (const url of ['/v1/servers/a/b/c?path=servers%2Fa%2Fb%2Fc', '/v1/', '/v1/servers/', '/v1/health/']) {
      const response = await call('../../api/not-found.ts', url);
      expect(response.status, url).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('route_not_found');
    }
  });

  it('shares one warm context between requests: the counter goes on across files', async () => {
    const first = await call('../../api/stats.ts', '/v1/stats');
    const second = await call('../../api/search.ts', '/v1/search?q=mcp');
    expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(
      Number(first.headers.get('x-ratelimit-remaining')) - 1,
    );
  });
});

describe('vercel.json', () => {
  it('rewrites every route to a function file that exists, and bundles the snapshot with them', async () => {
    const { existsSync, readFileSync } = await import('node:fs');
    const repo = path.resolve(import.meta.dirname, '../..');
    const config = JSON.parse(readFileSync(path.join(repo, 'vercel.json'), 'utf8')) as {
      rewrites: { source: string; destination: string }[];
      functions: Record<string, { includeFiles?: string }>;
    };
    expect(config.functions['api/*.ts']?.includeFiles).toBe('snapshot/**');
    const sources = config.rewrites.map((rewrite) => rewrite.source);
    expect(sources).toEqual(
      expect.arrayContaining(['/v1/health', '/v1/stats', '/v1/servers', '/v1/servers/:namespace/:id', '/v1/search']),
    );
    expect(sources.at(-1)).toBe('/api/(.*)'); // the 404s come last
    for (const { destination } of config.rewrites) {
      expect(existsSync(path.join(repo, `${destination.slice(1)}.ts`)), destination).toBe(true);
    }
  });
});
