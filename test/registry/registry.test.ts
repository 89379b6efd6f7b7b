/**
 * The MCP registry API (`/v0.1`) over a snapshot of the committed dataset and registry data: every answer
 * is checked against the schemas of the registry's OpenAPI document (2025-12-01, transcribed in
 * `registry-schemas.ts`) with ajv, pages are walked to the end, and the policy settings are applied as a
 * deployment sets them (through `loadConfig`).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ServerRecord } from '../../src/model/schema.js';
import { loadSnapshot } from '../../src/query/open.js';
import type { QueryEngine } from '../../src/query/types.js';
import { OPEN_POLICY } from '../../src/registry/policy.js';
import { TRUST_META_KEY } from '../../src/registry/vocabulary.js';
import { ConfigError, loadConfig } from '../../src/service/config.js';
import { buildSnapshot } from '../../src/snapshot-build/build.js';
import { harness, type Harness } from '../gateway/harness.js';
import { REGISTRY_SCHEMA_ID, REGISTRY_SCHEMAS, type RegistrySchemaName } from './registry-schemas.js';
import { makeTempDir } from '../support/temp.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, strictTypes: false });
// ajv-formats is CommonJS: its plugin is the module itself, typed as the `default` member.
(formats as unknown as { default: (instance: Ajv2020) => void }).default(ajv);
ajv.addSchema(REGISTRY_SCHEMAS);

/** The ajv errors of `value` against the registry document's schema `name` (empty: valid). */
function problems(name: RegistrySchemaName, value: unknown): string[] {
  const validate = ajv.getSchema(`${REGISTRY_SCHEMA_ID}#/$defs/${name}`)!;
  return validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
}

let engine: QueryEngine;
let records: ServerRecord[];
let registryNames: Set<string>;
let snapshotDir: string;

beforeAll(async () => {
  snapshotDir = path.join(await makeTempDir('mts-registry-'), 'snapshot');
  await buildSnapshot({
    input: 'data/*.json',
    registry: 'data/registry/servers.json',
    out: snapshotDir,
    now: new Date('2026-03-05T00:00:00.000Z'),
  });
  engine = await loadSnapshot(snapshotDir);
  // The records as the snapshot serves them: the committed dataset scored by the build (mts-2).
  const committed = JSON.parse(await readFile(path.join(ROOT, 'data/servers.json'), 'utf8')) as ServerRecord[];
  records = committed.map((record) => JSON.parse(engine.getJson(record.name)!) as ServerRecord);
  const entries = JSON.parse(await readFile(path.join(ROOT, 'data/registry/servers.json'), 'utf8')) as Json[];
  registryNames = new Set(entries.map((entry) => entry.server.name as string));
}, 60_000);

const withPolicy = (env: Record<string, string>) =>
  harness({ engine, config: { registryPolicy: loadConfig(env).registryPolicy } });

/** Walk `/v0.1/servers` page by page from `query`; every page is checked against `ServerList`. */
async function walk(h: Harness, query = ''): Promise<Json[]> {
  const servers: Json[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 1000; pages++) {
    const separator = query === '' ? '' : '&';
    const url = `/v0.1/servers?${query}${cursor === undefined ? '' : `${separator}cursor=${encodeURIComponent(cursor)}`}`;
    const response = await h.call(url, { key: null });
    expect(response.status, url).toBe(200);
    const page = (await response.json()) as Json;
    expect(problems('ServerList', page), url).toEqual([]);
    expect(page.metadata.count).toBe(page.servers.length);
    servers.push(...(page.servers as Json[]));
    cursor = page.metadata.nextCursor as string | undefined;
    if (cursor === undefined) return servers;
    expect(page.servers.length).toBeGreaterThan(0);
  }
  throw new Error('more than 1000 pages');
}

describe('the committed registry data', () => {
  it('holds one entry per scored server but the few the registry schema refuses, each valid against ServerResponse', async () => {
    const entries = JSON.parse(await readFile(path.join(ROOT, 'data/registry/servers.json'), 'utf8')) as Json[];
    const scored = new Set(records.map((record) => record.name));
    expect(entries.every((entry) => scored.has(entry.server.name))).toBe(true);
    expect(entries.length).toBeGreaterThan(records.length - 20);
    for (const entry of entries) expect(problems('ServerResponse', entry), entry.server.name).toEqual([]);
  });
});

describe('GET /v0.1/servers with REGISTRY_MIN_SCORE=60', () => {
  it('walks to exactly the committed servers with a registry entry and a score of at least 60, each once, with their trust data', async () => {
    const h = await withPolicy({ REGISTRY_MIN_SCORE: '60' });
    const servers = await walk(h);
    const expected = records.filter((record) => record.trust_score >= 60 && registryNames.has(record.name));
    // The walk docs/registry.md shows: 1,742 servers in 18 pages of 100.
    expect(expected.length).toBe(1742);
    expect(expected.length).toBeGreaterThan(100);
    const names = servers.map((item) => item.server.name as string);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(expected.map((record) => record.name).sort());
    const byName = new Map(records.map((record) => [record.name, record]));
    for (const item of servers) {
      const record = byName.get(item.server.name)!;
      expect(item._meta[TRUST_META_KEY]).toEqual({
        trust_score: record.trust_score,
        trust_label: record.trust_label,
        scores: record.scores,
        flags: record.flags,
        verified_publisher: record.verified_publisher,
        scored_at: record.scored_at,
        snapshot_id: engine.snapshot.id,
        record_url: `/v1/servers/${record.name.split('/').map(encodeURIComponent).join('/')}`,
      });
    }
  }, 60_000);

  it('gives the same servers whatever the page size, and answers versions/latest and versions for each', async () => {
    const h = await withPolicy({ REGISTRY_MIN_SCORE: '60' });
    const small = (await walk(h, 'limit=7')).map((item) => item.server.name);
    const large = (await walk(h, 'limit=100')).map((item) => item.server.name);
    expect(small).toEqual(large);
    for (const name of large) {
      const latest = await h.call(`/v0.1/servers/${encodeURIComponent(name)}/versions/latest`, { key: null });
      expect(latest.status, name).toBe(200);
      const body = (await latest.json()) as Json;
      expect(problems('ServerResponse', body), name).toEqual([]);
      expect(body.server.name).toBe(name);
      expect(body._meta[TRUST_META_KEY].trust_score).toBeGreaterThanOrEqual(60);
    }
    const [first] = large;
    const versions = await h.call(`/v0.1/servers/${encodeURIComponent(first!)}/versions`, { key: null });
    const list = (await versions.json()) as Json;
    expect(problems('ServerList', list)).toEqual([]);
    expect(list.metadata).toEqual({ count: 1 });
    const exact = await h.call(
      `/v0.1/servers/${encodeURIComponent(first!)}/versions/${encodeURIComponent(list.servers[0].server.version)}`,
      { key: null },
    );
    expect(exact.status).toBe(200);
  }, 120_000);

  it('answers 404 in the document shape for an unknown name, another version, or a server below the policy', async () => {
    const h = await withPolicy({ REGISTRY_MIN_SCORE: '60' });
    const below = records.find((record) => record.trust_score < 60 && registryNames.has(record.name))!;
    const held = (await walk(h, 'limit=100&search=github')).at(0)!.server.name as string;
    for (const url of [
      '/v0.1/servers/io.github.nobody%2Fnothing/versions',
      '/v0.1/servers/io.github.nobody%2Fnothing/versions/latest',
      `/v0.1/servers/${encodeURIComponent(below.name)}/versions/latest`,
      `/v0.1/servers/${encodeURIComponent(held)}/versions/0.0.0-not-held`,
    ]) {
      const response = await h.call(url, { key: null });
      expect(response.status, url).toBe(404);
      const body = (await response.json()) as Json;
      expect(problems('ErrorBody', body)).toEqual([]);
      expect(Object.keys(body)).toEqual(['error']);
      expect(typeof body.error).toBe('string');
    }
  });
});

describe('the policy', () => {
  it('holds every server with a registry entry by default, and min_score narrows it for one request only', async () => {
    const h = await harness({ engine });
    expect((await walk(h, 'limit=100')).length).toBe(registryNames.size);
    const narrowed = await walk(h, 'limit=100&min_score=80');
    expect(narrowed.every((item) => item._meta[TRUST_META_KEY].trust_score >= 80)).toBe(true);
    const strict = await withPolicy({ REGISTRY_MIN_SCORE: '60' });
    const widened = await walk(strict, 'limit=100&min_score=0');
    expect(widened.every((item) => item._meta[TRUST_META_KEY].trust_score >= 60)).toBe(true);
  });

  it('leaves out servers with a denied flag (any case) and, when required, those without a verified publisher', async () => {
    const denied = await walk(
      await withPolicy({ REGISTRY_DENY_FLAGS: 'no_source, TEMPLATE_DESCRIPTION' }),
      'limit=100',
    );
    expect(denied.length).toBeGreaterThan(0);
    for (const item of denied) {
      expect(item._meta[TRUST_META_KEY].flags).not.toContain('NO_SOURCE');
      expect(item._meta[TRUST_META_KEY].flags).not.toContain('TEMPLATE_DESCRIPTION');
    }
    const expectedDenied = records.filter(
      (r) => registryNames.has(r.name) && !r.flags.includes('NO_SOURCE') && !r.flags.includes('TEMPLATE_DESCRIPTION'),
    );
    expect(denied.length).toBe(expectedDenied.length);
    const verified = await walk(await withPolicy({ REGISTRY_REQUIRE_VERIFIED: 'true' }), 'limit=100');
    expect(verified.length).toBe(records.filter((r) => registryNames.has(r.name) && r.verified_publisher).length);
    expect(verified.every((item) => item._meta[TRUST_META_KEY].verified_publisher === true)).toBe(true);
  });

  it('refuses a bad setting with one line naming it', () => {
    for (const [env, pattern] of [
      [{ REGISTRY_MIN_SCORE: '101' }, /REGISTRY_MIN_SCORE must be a whole number from 0 to 100/],
      [{ REGISTRY_MIN_SCORE: '6e1' }, /REGISTRY_MIN_SCORE/],
      [{ REGISTRY_DENY_FLAGS: 'NO SOURCE' }, /REGISTRY_DENY_FLAGS must be flag names/],
      [{ REGISTRY_REQUIRE_VERIFIED: 'yes' }, /REGISTRY_REQUIRE_VERIFIED must be true or false/],
    ] as const) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(pattern);
      try {
        loadConfig(env);
      } catch (error) {
        expect((error as Error).message).not.toContain('\n');
      }
    }
    expect(loadConfig({}).registryPolicy).toEqual(OPEN_POLICY);
    expect(loadConfig({ REGISTRY_DENY_FLAGS: 'no_source,,DEAD_ENTRY,no_source' }).registryPolicy.denyFlags).toEqual([
      'NO_SOURCE',
      'DEAD_ENTRY',
    ]);
  });
});

describe('the list parameters', () => {
  it('filters by name substring, updated_since and version', async () => {
    const h = await harness({ engine });
    const github = await walk(h, 'limit=100&search=GitHub');
    expect(github.length).toBeGreaterThan(0);
    expect(github.every((item) => (item.server.name as string).toLowerCase().includes('github'))).toBe(true);
    const since = '2026-02-01T00:00:00Z';
    const recent = await walk(h, `limit=100&updated_since=${encodeURIComponent(since)}`);
    expect(recent.length).toBeGreaterThan(0);
    const official = 'io.modelcontextprotocol.registry/official';
    expect(recent.every((item) => Date.parse(item._meta[official].updatedAt) >= Date.parse(since))).toBe(true);
    expect((await walk(h, 'limit=100&version=latest')).length).toBe(registryNames.size);
    const one = github[0]!;
    const exact = await walk(h, `limit=100&version=${encodeURIComponent(one.server.version)}`);
    expect(exact.every((item) => item.server.version === one.server.version)).toBe(true);
  });

  it.each([
    'limit=0',
    'limit=101',
    'limit=ten',
    'cursor=not-a-cursor',
    `cursor=${'A'.repeat(2000)}`,
    'updated_since=yesterday',
    'min_score=101',
    'search=',
    'include_everything=true',
    'limit=5&limit=6',
  ])('answers 400 in the document shape to %s', async (query) => {
    const h = await harness({ engine });
    const response = await h.call(`/v0.1/servers?${query}`, { key: null });
    expect(response.status).toBe(400);
    const body = (await response.json()) as Json;
    expect(problems('ErrorBody', body)).toEqual([]);
    expect(Object.keys(body)).toEqual(['error']);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});

describe('cheap and safe without keys', () => {
  it('is public, cached for minutes and longer in shared caches, with an ETag per request and policy, and 304 on a match', async () => {
    const h = await harness({ engine });
    const first = await h.call('/v0.1/servers?limit=5', { key: null });
    expect(first.headers.get('cache-control')).toBe('public, max-age=300, s-maxage=3600');
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    const etag = first.headers.get('etag')!;
    expect(etag).toBeTruthy();
    const again = await h.call('/v0.1/servers?limit=5', { key: null, headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const other = await h.call('/v0.1/servers?limit=6', { key: null });
    expect(other.headers.get('etag')).not.toBe(etag);
    const strict = await withPolicy({ REGISTRY_MIN_SCORE: '60' });
    const underPolicy = await strict.call('/v0.1/servers?limit=5', { key: null });
    expect(underPolicy.headers.get('etag')).not.toBe(etag);
    const preflight = await h.call('/v0.1/servers', { key: null, method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
  });

  it('never counts against a key, even when one is sent', async () => {
    const h = await harness({ engine });
    for (let i = 0; i < 3; i++) {
      const response = await h.call('/v0.1/servers?limit=1');
      expect(response.headers.get('x-ratelimit-remaining')).toBe('100');
    }
    const stats = await h.call('/v1/stats');
    expect(stats.headers.get('x-ratelimit-remaining')).toBe('99');
    expect(h.logs.filter((line) => line.path.startsWith('/v0.1')).every((line) => line.key === null)).toBe(true);
  });

  it('answers an unknown /v0.1 route and a wrong method in the document shape', async () => {
    const h = await harness({ engine });
    for (const [url, method, status] of [
      ['/v0.1/nothing', 'GET', 404],
      ['/v0.1/servers', 'POST', 405],
    ] as const) {
      const response = await h.call(url, { key: null, method });
      expect(response.status).toBe(status);
      expect(problems('ErrorBody', await response.json())).toEqual([]);
    }
  });
});

describe('the registry artifact', () => {
  it('is listed in the manifest, part of the snapshot id, and refused when altered', async () => {
    const manifest = JSON.parse(await readFile(path.join(snapshotDir, 'manifest.json'), 'utf8')) as Json;
    expect(manifest.files['registry.json']).toBeDefined();
    const without = path.join(await makeTempDir('mts-registry-'), 'snapshot');
    const plain = await buildSnapshot({ input: 'data/*.json', out: without });
    expect(plain.files['registry.json']).toBeUndefined();
    expect(plain.snapshot_id).not.toBe(manifest.snapshot_id);
    expect(plain.input_hash).not.toBe(manifest.input_hash);
    const file = path.join(without, 'registry.json');
    await writeFile(file, '{"servers":[]}');
    const altered = { ...plain, files: { ...plain.files, 'registry.json': manifest.files['registry.json'] } };
    await writeFile(path.join(without, 'manifest.json'), JSON.stringify(altered));
    await expect(loadSnapshot(without)).rejects.toThrow(/registry\.json.*(truncated or altered|altered)/);
  }, 60_000);

  it('leaves the feed empty for a snapshot built without registry data', async () => {
    const h = await harness();
    const response = await h.call('/v0.1/servers', { key: null });
    expect(await response.json()).toEqual({ servers: [], metadata: { count: 0 } });
  });
});
