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
import { routeUrl } from '../../src/http/vercel.js';
import { RECORDS } from '../gateway/harness.js';
import { buildTestSnapshot } from '../support/records.js';

describe('routeUrl', () => {
  it('removes the parameters Vercel appends for the dynamic segments, once or twice', () => {
    expect(routeUrl('/v1/servers/a.b/c?namespace=a.b&id=c', ['namespace', 'id'])).toBe('/v1/servers/a.b/c');
    expect(routeUrl('/v1/servers/a/c?namespace=a&id=c&namespace=a&id=c', ['namespace', 'id'])).toBe('/v1/servers/a/c');
    expect(routeUrl('/v1/servers/a%20b/c?namespace=a+b&id=c', ['namespace', 'id'])).toBe('/v1/servers/a%20b/c');
  });

  it('keeps everything the client sent', () => {
    expect(routeUrl('/v1/servers/a/c?full=1&namespace=a&id=c', ['namespace', 'id'])).toBe('/v1/servers/a/c?full=1');
    expect(routeUrl('/v1/servers/a/c?namespace=other', ['namespace', 'id'])).toBe('/v1/servers/a/c?namespace=other');
    expect(routeUrl('/v1/search?q=x&limit=2', [])).toBe('/v1/search?q=x&limit=2');
    expect(routeUrl('/v1/stats', [])).toBe('/v1/stats');
  });

  it('keeps + in a path segment a plus sign, as the segment the platform appended says', () => {
    expect(routeUrl('/v1/servers/a+b/c?namespace=a%2Bb&id=c', ['namespace', 'id'])).toBe('/v1/servers/a+b/c');
    expect(routeUrl('/v1/servers/a+b/c+d?namespace=a%2Bb&id=c%2Bd', ['namespace', 'id'])).toBe('/v1/servers/a+b/c+d');
  });

  it('maps a destination path under /api/v1 back to /v1', () => {
    expect(routeUrl('/api/v1/health', [])).toBe('/v1/health');
    expect(routeUrl('/api/v1/servers/a/c?namespace=a&id=c', ['namespace', 'id'])).toBe('/v1/servers/a/c');
  });
});

describe('the api/ functions', () => {
  let dir: string;
  let server: http.Server;
  let base: string;
  let current: (request: http.IncomingMessage, response: http.ServerResponse) => Promise<void>;
  const KEY = 'vercel-test-key';

  beforeAll(async () => {
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
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  async function call(file: string, url: string, key: string | null = KEY) {
    current = ((await import(file)) as { default: typeof current }).default;
    return fetch(`${base}${url}`, { headers: key === null ? {} : { 'X-API-Key': key } });
  }

  it('answers health, stats, list and search from their files', async () => {
    expect((await call('../../api/v1/health.ts', '/v1/health', null)).status).toBe(200);
    expect((await call('../../api/v1/stats.ts', '/v1/stats')).status).toBe(200);
    const list = await call('../../api/v1/servers/index.ts', '/v1/servers?limit=1');
    expect(((await list.json()) as { meta: { total: number } }).meta.total).toBe(RECORDS.length);
    const search = await call('../../api/v1/search.ts', '/v1/search?q=slack');
    expect(((await search.json()) as { data: { name: string }[] }).data[0]?.name).toBe('io.github.acme/Slack-Bot');
  });

  it('answers Get Server with the parameters the rewrite appended removed', async () => {
    const response = await call(
      '../../api/v1/servers/[namespace]/[id]/index.ts',
      '/v1/servers/com.example/mcp?namespace=com.example&id=mcp',
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: { name: string } }).data.name).toBe('com.example/mcp');
  });

  it('answers an unknown /v1 path, and one with a trailing slash, with the JSON route_not_found', async () => {
    for (const url of ['/v1/servers/a/b/c?path=servers%2Fa%2Fb%2Fc', '/v1/', '/v1/servers/', '/v1/health/']) {
      const response = await call('../../api/v1/not-found.ts', url);
      expect(response.status, url).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('route_not_found');
    }
  });

  it('shares one warm context between requests: the counter goes on across files', async () => {
    const first = await call('../../api/v1/stats.ts', '/v1/stats');
    const second = await call('../../api/v1/search.ts', '/v1/search?q=mcp');
    expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(
      Number(first.headers.get('x-ratelimit-remaining')) - 1,
    );
  });
});

describe('vercel.json', () => {
  it('rewrites every /v1 route to a function file that exists, and bundles the snapshot with them', async () => {
    const { existsSync, readFileSync } = await import('node:fs');
    const repo = path.resolve(import.meta.dirname, '../..');
    const config = JSON.parse(readFileSync(path.join(repo, 'vercel.json'), 'utf8')) as {
      buildCommand: string;
      rewrites: { source: string; destination: string }[];
      functions: Record<string, { includeFiles?: string }>;
    };
    expect(config.buildCommand).toBe('npm run build');
    expect(config.functions['api/**/*.ts']?.includeFiles).toBe('snapshot/**');
    const sources = config.rewrites.map((rewrite) => rewrite.source);
    expect(sources).toEqual(
      expect.arrayContaining(['/v1/health', '/v1/stats', '/v1/servers', '/v1/servers/:namespace/:id', '/v1/search']),
    );
    expect(sources.at(-1)).toBe('/v1/:path*'); // the JSON 404 comes last
    for (const { destination } of config.rewrites) {
      const file = `${destination.slice(1).replace(/:(\w+)/g, '[$1]')}.ts`;
      const index = `${destination.slice(1).replace(/:(\w+)/g, '[$1]')}/index.ts`;
      expect(existsSync(path.join(repo, file)) || existsSync(path.join(repo, index)), destination).toBe(true);
    }
  });
});
