/**
 * The trust source a process opens (src/client/open-source.ts): the embedded one over a real snapshot,
 * answering through the service's route handlers with the API's errors, and refusing a damaged snapshot in one
 * line; the live one chosen by TRUST_API_URL, which then needs a key.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrustApiError } from '../../src/client/client.js';
import { McpConfigError } from '../../src/client/config.js';
import { openTrustSource } from '../../src/client/open-source.js';
import { offlineNotice, type TrustSource } from '../../src/client/trust-source.js';
import { RECORDS } from '../gateway/harness.js';
import { buildTestSnapshot, makeRecord } from '../support/records.js';

let snapshot: string;
let work: string;
let source: TrustSource;

beforeAll(async () => {
  const records = [
    ...RECORDS,
    makeRecord({
      name: 'org.late/newest',
      scored_at: '2026-04-02T10:00:00Z',
      install: { repo_url: 'https://github.com/late/newest', version: null, package_types: [], transport_types: [] },
    }),
  ];
  snapshot = await buildTestSnapshot(records);
  work = await mkdtemp(path.join(tmpdir(), 'mts-source-'));
  source = await openTrustSource({ embeddedDir: snapshot, env: {} });
});
afterAll(async () => {
  source?.close();
  await rm(path.dirname(snapshot), { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

/** The error a call throws. */
async function failure(call: Promise<unknown>): Promise<TrustApiError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(TrustApiError);
  return error as TrustApiError;
}

describe('the embedded trust source', () => {
  it('is chosen when TRUST_API_URL is not set, and dates its scores by the newest scored_at', () => {
    expect(source.origin).toMatchObject({ kind: 'embedded', scoredAt: '2026-04-02T10:00:00Z' });
    expect(offlineNotice(source.origin, Date.parse('2026-04-12T09:00:00Z'))).toBe(
      'offline data, scored 2026-04-02 (9 days old); set TRUST_API_URL and TRUST_API_KEY for live scores',
    );
  });

  it('answers get, lookup, list, search, stats and check from the snapshot', async () => {
    expect((await source.getServer('IO.GITHUB.ACME/postgres-mcp')).name).toBe('io.github.acme/postgres-mcp');
    const listed = await source.list({ limit: 2, offset: 1, sort: 'name', order: 'asc' });
    expect(listed).toMatchObject({ total: RECORDS.length + 1, limit: 2, offset: 1 });
    expect(listed.items).toHaveLength(2);
    const found = await source.search({ q: 'postgres', limit: 5 });
    expect(found.items.map((record) => record.name)).toContain('io.github.acme/postgres-mcp');
    expect((await source.stats()).total_servers).toBe(RECORDS.length + 1);
    // The default policy warns on a server nobody scored; strict fails it. Either way the answer states its policy.
    const answer = await source.check({ servers: ['io.github.acme/postgres-mcp', 'nobody/none'], policy: {} });
    expect(answer.results.map((result) => result.verdict)).toEqual(['pass', 'warn']);
    expect(answer.policy).toContain('warn on a server that matches no scored server');
    const strict = await source.check({ servers: ['nobody/none'], policy: { strict: true } });
    expect(strict.results.map((result) => result.verdict)).toEqual(['fail']);
    // Offline lookup by repository, in another spelling of the URL.
    const byRepo = await source.lookup({ repo: 'http://www.github.com/Late/Newest.git' });
    expect(byRepo.items.map((record) => record.name)).toEqual(['org.late/newest']);
    const badRepo = await failure(source.lookup({ repo: 'https://example.com/late/newest' }));
    expect(badRepo.details).toMatchObject({ status: 400, code: 'invalid_parameter' });
  });

  it('fails as the API does: a 404 for an unknown name, a 400 for a bad body', async () => {
    const missing = await failure(source.getServer('nobody/none'));
    expect(missing.details).toMatchObject({ status: 404, code: 'server_not_found' });
    const empty = await failure(source.check({ servers: [] }));
    expect(empty.details).toMatchObject({ status: 400, code: 'invalid_body' });
    expect(empty.message).toMatch(/^Invalid body: servers/);
  });

  it('refuses a snapshot whose records do not match the manifest’s hash, in one line', async () => {
    const damaged = path.join(work, 'damaged');
    await cp(snapshot, damaged, { recursive: true });
    const file = path.join(damaged, 'records.ndjson');
    const bytes = await readFile(file);
    bytes[10] = bytes[10] === 0x61 ? 0x62 : 0x61;
    await writeFile(file, bytes);
    const error = await openTrustSource({ embeddedDir: damaged, env: {} }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(McpConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/^the offline snapshot shipped with mcp-trust-score cannot be read \(.*records\.ndjson/);
    expect(message).toContain('reinstall the package, or set TRUST_API_URL and TRUST_API_KEY');
    expect(message.split('\n')).toHaveLength(1);
  });
});

describe('the live trust source', () => {
  it('is chosen by TRUST_API_URL, with or without /v1, and needs TRUST_API_KEY', async () => {
    const live = await openTrustSource({
      embeddedDir: path.join(work, 'absent'),
      env: { TRUST_API_URL: 'http://127.0.0.1:3000', TRUST_API_KEY: 'mts_key' },
    });
    expect(live.origin).toEqual({ kind: 'live', url: 'http://127.0.0.1:3000/v1' });
    expect(offlineNotice(live.origin)).toBeUndefined();
    await expect(
      openTrustSource({
        embeddedDir: snapshot,
        env: { TRUST_API_URL: 'http://127.0.0.1:3000/v1' },
        keyHelp: 'Set it.',
      }),
    ).rejects.toThrow(/^TRUST_API_KEY is not set\. Set it\.$/);
  });
});
