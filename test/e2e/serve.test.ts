/**
 * End to end: `npm start`'s entry point as a child process on a free port, with a prebuilt snapshot and a
 * temporary key file. It prints a key once; the quick start then works with that key over real HTTP.
 */
import { mkdtemp, writeFile, mkdir, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestSnapshot } from '../support/records.js';
import { RECORDS } from '../gateway/harness.js';
import { runKeys, type ServerProcess, startServer } from './process.js';

const KEY_LINE = /API key: (mts_[A-Za-z0-9_-]{43})\n/;

/** A raw GET that sends the path exactly as given (fetch would normalise `..`). */
function rawGet(
  base: string,
  pathText: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, path: pathText, method: 'GET' }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('npm start', () => {
  let dir: string;
  let env: Record<string, string>;
  let server: ServerProcess;
  let key: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mts-e2e-'));
    // The records were scored in February 2026: a bound of ten years keeps health "ok" whatever today is.
    env = {
      SNAPSHOT_DIR: await buildTestSnapshot(RECORDS),
      KEYS_FILE: path.join(dir, 'keys.json'),
      STALE_AFTER_DAYS: '3650',
    };
    server = await startServer(env);
    key = KEY_LINE.exec(server.stdout())?.[1] ?? '';
  });

  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('prints its address, and a new key with a ready curl command when none is configured', () => {
    expect(server.base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(key).toMatch(/^mts_/);
    expect(server.stdout()).toContain(`curl -H "X-API-Key: ${key}" ${server.base}/v1/stats`);
  });

  it('walks the quick start with the printed key', async () => {
    const headers = { 'X-API-Key': key };
    const health = await fetch(`${server.base}/v1/health`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as { data: { status: string } }).data.status).toBe('ok');

    const stats = await fetch(`${server.base}/v1/stats`, { headers });
    expect(stats.status).toBe(200);
    expect(((await stats.json()) as { data: { total_servers: number } }).data.total_servers).toBe(RECORDS.length);

    const list = await fetch(`${server.base}/v1/servers?limit=2&sort=name&order=asc`, { headers });
    const listBody = (await list.json()) as { data: { name: string }[]; meta: { total: number; limit: number } };
    expect(listBody.data.map((record) => record.name)).toEqual(['com.example/mcp', 'dev.tools/github-helper']);
    expect(listBody.meta).toMatchObject({ total: RECORDS.length, limit: 2 });

    const get = await fetch(`${server.base}/v1/servers/io.github.acme/slack-bot`, { headers });
    expect(((await get.json()) as { data: { name: string } }).data.name).toBe('io.github.acme/Slack-Bot');

    const search = await fetch(`${server.base}/v1/search?q=postgres`, { headers });
    expect(((await search.json()) as { data: { name: string }[] }).data[0]?.name).toBe('io.github.acme/postgres-mcp');
    expect(search.headers.get('x-ratelimit-remaining')).toBe('96'); // stats, list, get, search

    const anonymous = await fetch(`${server.base}/v1/stats`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe('missing_api_key');
  });

  it('writes one JSON log line per request with the key hash prefix, never the key', async () => {
    await fetch(`${server.base}/v1/stats`, { headers: { 'X-API-Key': key } });
    await new Promise((resolve) => setTimeout(resolve, 300)); // lines are written in batches, 100 ms apart at most
    const lines = server
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.length).toBeGreaterThan(0);
    const keyed = lines.filter((line) => line.key !== null);
    expect(keyed.length).toBeGreaterThan(0);
    for (const line of keyed) expect(line.key).toMatch(/^[0-9a-f]{8}$/);
    const logText = lines.map((line) => JSON.stringify(line)).join('\n');
    expect(logText).not.toContain(key);
    expect(lines[0]).toEqual(expect.objectContaining({ method: 'GET', path: '/v1/health', status: 200 }));
  });

  it('accepts a key created by the CLI at once, and refuses it within about a second of its revocation', async () => {
    const created = runKeys(['create', '--label', 'e2e'], env);
    expect(created.status).toBe(0);
    const newKey = created.stdout.trim().split('\n').at(-1) ?? '';
    const ok = await fetch(`${server.base}/v1/stats`, { headers: { 'X-API-Key': newKey } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-ratelimit-remaining')).toBe('99');

    const prefix = /hash prefix ([0-9a-f]{8})/.exec(created.stdout)?.[1] ?? '';
    expect(runKeys(['revoke', prefix], env).status).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await fetch(`${server.base}/v1/stats`, { headers: { 'X-API-Key': newKey } })).status).toBe(401);
  }, 120_000);

  it('answers JSON 404s under /v1 in any letter case, a small page elsewhere, and nothing outside public/', async () => {
    for (const path of ['/v1/nothing', '/V1/stats', '/V1', '/v1/Servers']) {
      const unknown = await fetch(`${server.base}${path}`);
      expect(unknown.status, path).toBe(404);
      expect(unknown.headers.get('content-type'), path).toContain('application/json');
      expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('route_not_found');
    }
    const page = await fetch(`${server.base}/no-such-page`);
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<h1>Not found</h1>');
    for (const attempt of ['/%2e%2e/package.json', '/../package.json', '/..%2fpackage.json', '/.git/config']) {
      const response = await rawGet(server.base, attempt);
      expect(response.status, attempt).toBe(404);
      expect(response.body).not.toContain('"name"');
    }
  });

  it('does not print a key again on the next start with the same key file, and stops cleanly on SIGTERM', async () => {
    const again = await startServer(env);
    try {
      expect(again.stdout()).not.toMatch(KEY_LINE);
      expect((await fetch(`${again.base}/v1/stats`, { headers: { 'X-API-Key': key } })).status).toBe(200);
    } finally {
      expect(await again.stop()).toBe(0);
    }
  }, 120_000);
});

describe('npm start on a fresh clone', () => {
  it('builds the default snapshot from data/ when there is none, and rebuilds it when the dataset changes', async () => {
    const clone = await mkdtemp(path.join(tmpdir(), 'mts-clone-'));
    try {
      await mkdir(path.join(clone, 'data'));
      await writeFile(path.join(clone, 'data/servers.json'), JSON.stringify(RECORDS));
      const env = { KEYS_FILE: path.join(clone, '.local/keys.json'), API_KEYS: 'local-test-key' };

      const first = await startServer(env, clone);
      await first.stop();
      expect(first.stdout()).toContain('Building the snapshot');
      expect(first.stdout()).toContain(`(${RECORDS.length} servers)`);

      const second = await startServer(env, clone);
      await second.stop();
      expect(second.stdout()).not.toContain('Building the snapshot');

      await writeFile(path.join(clone, 'data/servers.json'), JSON.stringify(RECORDS.slice(0, 2)));
      const third = await startServer(env, clone);
      try {
        expect(third.stdout()).toContain('Building the snapshot');
        const stats = await fetch(`${third.base}/v1/stats`, { headers: { 'X-API-Key': 'local-test-key' } });
        expect(((await stats.json()) as { data: { total_servers: number } }).data.total_servers).toBe(2);
        // API_KEYS is configured, so no key was created or printed.
        expect(third.stdout()).not.toMatch(KEY_LINE);
      } finally {
        await third.stop();
      }
    } finally {
      await rm(clone, { recursive: true, force: true });
    }
  }, 180_000); // three starts and two builds: generous for a loaded CI machine

  it('refuses a bad variable with one clear line and a non-zero exit', async () => {
    await expect(startServer({ PORT: '3e3' })).rejects.toThrow(/exited with 1[\s\S]*PORT must be a whole number/);
  }, 120_000);
});
