/**
 * The deployment answers exactly as `npm start` does. The platform output is built offline with the pinned
 * Vercel CLI (test/support/vercel-build.ts) from a copy of this checkout, then served the way the platform
 * serves it (test/support/vercel-platform.ts: the routes of `config.json` in order, each function in a fresh
 * process from its `.vc-config.json`). `npm start` runs from the same copy, on the same snapshot. Every route
 * of the route table, with a valid request and an invalid one, and unknown paths under every family, must
 * give the same status, Content-Type and body on both (timestamps and issued keys aside).
 *
 * One build serves every case (it takes a few minutes: the CLI's install once per machine, then the build).
 */
import { readFile, rm } from 'node:fs/promises';
import fg from 'fast-glob';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_PATHS, type RouteId } from '../../src/api/paths.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { childEnv } from '../e2e/process.js';
import { buildPlatformOutput, type PlatformBuild, REPO } from '../support/vercel-build.js';
import { type Platform, servePlatform } from '../support/vercel-platform.js';

const KEY = 'platform-parity-key';
const NS = 'io.github.github';
const ID = 'github-mcp-server';
const NAME = encodeURIComponent(`${NS}/${ID}`);
const json = { 'content-type': 'application/json' };

interface Case {
  path: string;
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  keyless?: boolean;
}

/** Per route: a valid request, then invalid ones. */
const ROUTE_CASES: Record<RouteId, Case[]> = {
  health: [
    { path: '/v1/health', keyless: true },
    { path: '/v1/health?x=1', keyless: true },
  ],
  stats: [{ path: '/v1/stats' }, { path: '/v1/stats?x=1' }, { path: '/v1/stats', keyless: true }],
  list: [{ path: '/v1/servers?limit=2&sort=name' }, { path: '/v1/servers?limit=abc' }],
  get: [{ path: `/v1/servers/${NS}/${ID}` }, { path: `/v1/servers/${NS}/${ID}?full=1` }, { path: '/v1/servers/a+b/c' }],
  search: [{ path: '/v1/search?q=github&limit=3' }, { path: '/v1/search' }],
  lookup: [{ path: '/v1/lookup?package=npm:@perplexity-ai/mcp-server' }, { path: '/v1/lookup?package=nope' }],
  check: [
    { path: '/v1/check', method: 'POST', headers: json, body: JSON.stringify({ servers: [`${NS}/${ID}`] }) },
    { path: '/v1/check', method: 'POST', headers: json, body: '{"servers": 1}' },
  ],
  keys: [
    { path: '/v1/keys', method: 'POST', headers: json, body: '{"label": "parity"}', keyless: true },
    { path: '/v1/keys', method: 'POST', headers: json, body: '{"other": 1}', keyless: true },
  ],
  history: [{ path: `/v1/servers/${NS}/${ID}/history` }, { path: `/v1/servers/${NS}/${ID}/history?limit=x` }],
  explain: [{ path: `/v1/servers/${NS}/${ID}/explain` }, { path: `/v1/servers/${NS}/nope/explain` }],
  tools: [{ path: `/v1/servers/${NS}/${ID}/tools` }, { path: `/v1/servers/${NS}/nope/tools` }],
  changes: [{ path: '/v1/changes' }, { path: '/v1/changes?since=yesterday' }],
  badge: [
    { path: `/badges/${NS}/${ID}.svg`, keyless: true },
    { path: '/badges/nope/nope.svg', keyless: true },
  ],
  feedChanges: [
    { path: '/feeds/changes.atom', keyless: true },
    { path: '/feeds/changes.atom?x=1', keyless: true },
  ],
  feedServer: [
    { path: `/feeds/servers/${NS}/${ID}.atom`, keyless: true },
    { path: '/feeds/servers/a/b.atom', keyless: true },
  ],
  // Webhooks without WEBHOOK_SECRETS_KEY (as here): 503 on both, and the same refusals before it.
  webhookCreate: [
    { path: '/v1/webhooks', method: 'POST', headers: json, body: '{"url": "https://example.com/hook"}' },
    { path: '/v1/webhooks', method: 'POST', headers: json, body: '{"url": 1}' },
  ],
  webhookList: [{ path: '/v1/webhooks' }, { path: '/v1/webhooks', keyless: true }],
  webhookGet: [{ path: '/v1/webhooks/wh_nope' }, { path: '/v1/webhooks/wh_nope?x=1' }],
  webhookDelete: [
    { path: '/v1/webhooks/wh_nope', method: 'DELETE' },
    { path: '/v1/webhooks/wh_nope', method: 'PUT' },
  ],
  webhookTest: [
    { path: '/v1/webhooks/wh_nope/test', method: 'POST', headers: json, body: '{}' },
    { path: '/v1/webhooks/wh_nope/test', method: 'GET' },
  ],
  registryList: [
    { path: '/v0.1/servers?limit=2', keyless: true },
    { path: '/v0.1/servers?limit=abc', keyless: true },
  ],
  registryVersions: [
    { path: `/v0.1/servers/${NAME}/versions`, keyless: true },
    { path: '/v0.1/servers/nope%2Fnope/versions', keyless: true },
  ],
  registryVersion: [
    { path: `/v0.1/servers/${NAME}/versions/latest`, keyless: true },
    { path: `/v0.1/servers/${NAME}/versions/0.0.0-nope`, keyless: true },
  ],
};

/** Unknown paths under each family, the site's, and `/api` (which is not the API's). */
const UNKNOWN_PATHS = [
  '/v1',
  '/v1/',
  '/v1/nope',
  '/v1/servers/',
  '/v1/health/',
  `/v1/servers/${NS}/${ID}/history/more`,
  '/v0.1',
  '/v0.1/',
  '/v0.1/servers/',
  '/v0.1/nope',
  '/badges/',
  '/badges/x.svg',
  '/feeds/',
  '/feeds/nope.atom',
  '/',
  '/nope',
  '/nope/deeper.html',
  '/api',
  '/api/nope',
  '/api/health',
  '/api/v1/health',
  `/api/v1/servers/${NS}/${ID}/history`,
];

/** `npm start` (`node dist/serve.mjs`) in `cwd` with `env`; resolves with its address once it listens. */
function npmStart(cwd: string, env: Record<string, string>): Promise<{ base: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['dist/serve.mjs'], {
    cwd,
    env: childEnv({ HOST: '127.0.0.1', PORT: '0', ...env }),
  });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /Listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1] !== undefined) resolve({ base: match[1], child });
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${out}`)));
  });
}

/** An answer reduced to what must agree: status, type and body, with times and issued keys masked. */
async function answer(base: string, test: Case) {
  const headers: Record<string, string> = { ...test.headers, ...(test.keyless ? {} : { 'x-api-key': KEY }) };
  const response = await fetch(`${base}${test.path}`, {
    method: test.method ?? 'GET',
    headers,
    ...(test.body === undefined ? {} : { body: test.body }),
    redirect: 'manual',
  });
  const body = (await response.text())
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
    .replace(/mts_[A-Za-z0-9_-]{43}/g, '<key>');
  return { status: response.status, type: response.headers.get('content-type'), body };
}

describe('the platform output against npm start', { timeout: 900_000 }, () => {
  let build: PlatformBuild;
  let platform: Platform;
  let local: { base: string; child: ChildProcess };
  let keysDir: string;

  beforeAll(async () => {
    build = await buildPlatformOutput();
    console.log(`platform build (seconds): ${JSON.stringify(build.seconds)}`);
    keysDir = path.join(build.work, 'keys');
    const env = { API_KEYS: KEY, STORE: 'memory', FREE_DAILY_LIMIT: '1000000' };
    platform = await servePlatform(build.output, build.project, {
      ...env,
      KEYS_FILE: path.join(keysDir, 'platform.json'),
    });
    local = await npmStart(build.project, { ...env, KEYS_FILE: path.join(keysDir, 'local.json') });
  }, 900_000);

  afterAll(async () => {
    await platform?.close();
    if (local !== undefined && local.child.exitCode === null) {
      local.child.kill();
      await new Promise((resolve) => local.child.once('exit', resolve));
    }
    if (keysDir !== undefined) await rm(keysDir, { recursive: true, force: true });
    await build?.remove();
  });

  it('gives the cron function, as vercel build made it, the snapshot files and its maxDuration (L11)', async () => {
    const folder = path.join(build.output, 'functions', 'api', 'cron', 'notify.func');
    const vc = JSON.parse(await readFile(path.join(folder, '.vc-config.json'), 'utf8')) as {
      maxDuration?: number;
      filePathMap?: Record<string, string>;
    };
    expect(vc.maxDuration).toBe(60);
    // The included files are in the function's folder, or named in its file map (copied from the project).
    const inFolder = await fg('**/snapshot/manifest.json', { cwd: folder, dot: true, followSymbolicLinks: false });
    const mapped = Object.keys(vc.filePathMap ?? {}).filter((file) => file.endsWith('snapshot/manifest.json'));
    expect(inFolder.length + mapped.length).toBeGreaterThan(0);
  });

  it('covers every route of the route table', () => {
    expect(Object.keys(ROUTE_CASES).sort()).toEqual(Object.keys(ROUTE_PATHS).sort());
    expect(REPO).not.toBe(build.project);
  });

  for (const [route, cases] of Object.entries(ROUTE_CASES)) {
    it(`answers ${route} (${ROUTE_PATHS[route as RouteId]}) as npm start does, valid and invalid`, async () => {
      for (const test of cases) {
        const [expected, actual] = [await answer(local.base, test), await answer(platform.base, test)];
        expect(actual, `${test.method ?? 'GET'} ${test.path}`).toEqual(expected);
      }
    });
  }

  it('answers every unknown path of every family, the site and /api as npm start does', async () => {
    for (const unknown of UNKNOWN_PATHS) {
      const test = { path: unknown };
      const [expected, actual] = [await answer(local.base, test), await answer(platform.base, test)];
      expect(actual, unknown).toEqual(expected);
    }
  });
});

describe('a platform build without the checked snapshot (a push deploy)', { timeout: 600_000 }, () => {
  it('fails in the platform build command instead of deploying a snapshot nobody checked', async () => {
    const attempt = buildPlatformOutput({
      withSnapshot: false,
      // Not built, and none in the copy either (snapshot/ is git-ignored); removed all the same so the case
      // holds whatever the copy brings.
      beforeBuild: (project) => rm(path.join(project, 'snapshot'), { recursive: true, force: true }),
    });
    await expect(attempt).rejects.toThrow(
      /snapshot\/ is missing or not current for data\/; the deployment never builds/,
    );
  });
});
