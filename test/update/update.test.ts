/**
 * The signed snapshot bundle end to end, against a stand-in static host on 127.0.0.1: a good bundle is
 * installed and then used; a tampered file, a bad signature, a truncated download, an older snapshot, a retired
 * key and a host that hangs are each refused in one line with the held snapshot untouched; offline touches no
 * socket.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTrustSource } from '../../src/client/open-source.js';
import { offlineNotice } from '../../src/client/trust-source.js';
import { BUNDLE_INDEX_FILE, BUNDLE_SIGNATURE_FILE, type TrustedKeys } from '../../src/format/snapshot-bundle.js';
import { newSigningKey, signingKeyOf, writeSnapshotBundle } from '../../src/publish/sign-bundle.js';
import { cacheRoot, newestHeld, packedSnapshot } from '../../src/update/snapshot-cache.js';
import { updateSnapshot } from '../../src/update/update.js';
import { updateCommand } from '../../src/cli/update.js';
import { BundleError, NO_TRUSTED_KEY, trustedKeys, verifyIndex } from '../../src/update/verify-bundle.js';
import { RECORDS } from '../gateway/harness.js';
import { buildTestSnapshot, makeRecord } from '../support/records.js';
import { startBundleStandin } from '../support/bundle-standin.js';
import { makeTempDir } from '../support/temp.js';

const RULES = { allowHttp: true, allowPrivate: true };
let packed: string;
let newer: string;
let older: string;
let work: string;
const signer = newSigningKey(new Date('2026-01-01T00:00:00Z'));
const key = signingKeyOf(signer.privateKeyPem);
const keys: TrustedKeys = { bundle_url: null, keys: [signer.trusted] };

beforeAll(async () => {
  packed = await buildTestSnapshot([...RECORDS, makeRecord({ name: 'org.a/mid', scored_at: '2026-03-01T00:00:00Z' })]);
  newer = await buildTestSnapshot([...RECORDS, makeRecord({ name: 'org.a/new', scored_at: '2026-05-01T00:00:00Z' })]);
  older = await buildTestSnapshot([...RECORDS, makeRecord({ name: 'org.a/old', scored_at: '2026-02-01T00:00:00Z' })]);
  work = await makeTempDir('mts-update-');
}, 60_000);
afterAll(async () => {
  const { rm } = await import('node:fs/promises');
  for (const dir of [packed, newer, older]) await rm(path.dirname(dir), { recursive: true, force: true });
});

async function bundleOf(snapshot: string, name: string) {
  const dir = path.join(work, name);
  await writeSnapshotBundle(snapshot, dir, key, new Date('2026-05-02T00:00:00Z'));
  return dir;
}

async function attempt(bundle: string, root: string, options: Parameters<typeof startBundleStandin>[1] = {}, k = keys) {
  const host = await startBundleStandin(bundle, options);
  try {
    const held = newestHeld(packedSnapshot(packed)!, root, k).snapshot;
    return await updateSnapshot({
      url: `${host.url}/snapshot-bundle/`,
      root,
      keys: k,
      rules: RULES,
      timeoutMs: 1500,
      held,
    });
  } finally {
    await host.close();
  }
}

describe('mcp-trust-score update against a stand-in bundle host', () => {
  it('installs a newer signed snapshot, which check and the MCP server then use', async () => {
    const root = path.join(work, 'cache-good');
    const result = await attempt(await bundleOf(newer, 'good'), root);
    expect(result).toMatchObject({ outcome: 'updated', scoredAt: '2026-05-01T00:00:00.000Z' });
    const keysFile = path.join(work, 'keys.json');
    await writeFile(keysFile, JSON.stringify(keys));
    const source = await openTrustSource({
      embeddedDir: packed,
      env: { MCP_TRUST_SCORE_CACHE: root, TRUST_SNAPSHOT_KEYS: keysFile, TRUST_OFFLINE: '1' },
    });
    try {
      expect(source.origin).toMatchObject({ kind: 'embedded', held: 'cached', snapshotId: result.snapshotId });
      expect(offlineNotice(source.origin)).toMatch(
        /^offline data, scored 2026-05-01 \(\d+ days old, from mcp-trust-score update\)/,
      );
    } finally {
      source.close();
    }
  });

  const refusals: [string, (dir: string) => Promise<void>, Parameters<typeof startBundleStandin>[1], RegExp][] = [
    ['a tampered file', async (dir) => writeFile(path.join(dir, 'stats.json'), '{"tampered":true}'), {}, /stats\.json/],
    [
      'a bad signature',
      async (dir) => writeFile(path.join(dir, BUNDLE_SIGNATURE_FILE), `${Buffer.alloc(64, 1).toString('base64')}\n`),
      {},
      /signature does not verify/,
    ],
    [
      'a truncated download',
      async () => {},
      { truncate: 'records.ndjson' },
      /records\.ndjson from \S+: (the download was cut short|the connection failed)/,
    ],
    ['a host that hangs', async () => {}, { hang: true }, /no answer within 1500 ms/],
  ];
  for (const [what, spoil, options, message] of refusals) {
    it(`refuses ${what} in one line and keeps the held snapshot`, async () => {
      const root = path.join(work, `cache-${what.replace(/\W+/g, '-')}`);
      const dir = await bundleOf(newer, what.replace(/\W+/g, '-'));
      await spoil(dir);
      const error = await attempt(dir, root, options).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(BundleError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain('\n');
      expect(newestHeld(packedSnapshot(packed)!, cacheRoot({ MCP_TRUST_SCORE_CACHE: root }), keys).snapshot.held).toBe(
        'packed',
      );
    });
  }

  it('refuses an older snapshot than the one held (no downgrade)', async () => {
    const error = await attempt(await bundleOf(older, 'older'), path.join(work, 'cache-older')).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toMatch(/is not newer than the one held/);
  });

  it('refuses a bundle signed with a key retired before now, and accepts it before that date', async () => {
    const dir = await bundleOf(newer, 'retired');
    const retired: TrustedKeys = { bundle_url: null, keys: [{ ...signer.trusted, not_after: '2026-06-01T00:00:00Z' }] };
    const index = await readFile(path.join(dir, BUNDLE_INDEX_FILE));
    const signature = await readFile(path.join(dir, BUNDLE_SIGNATURE_FILE), 'utf8');
    expect(verifyIndex(index, signature, retired, Date.parse('2026-05-15T00:00:00Z')).snapshot_id).toMatch(
      /^[0-9a-f]+$/,
    );
    expect(() => verifyIndex(index, signature, retired, Date.parse('2026-06-02T00:00:00Z'))).toThrow(
      /retired on 2026-06-01/,
    );
    const error = await attempt(dir, path.join(work, 'cache-retired'), {}, retired).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/retired/);
  });

  it('makes no connection offline, even with TRUST_SNAPSHOT_URL set and old data', async () => {
    const host = await startBundleStandin(await bundleOf(newer, 'offline'));
    const keysFile = path.join(work, 'keys-offline.json');
    await writeFile(keysFile, JSON.stringify(keys));
    const env = {
      MCP_TRUST_SCORE_CACHE: path.join(work, 'cache-offline'),
      TRUST_SNAPSHOT_KEYS: keysFile,
      TRUST_SNAPSHOT_URL: `${host.url}/snapshot-bundle/`,
      TRUST_SNAPSHOT_ALLOW_HTTP: 'true',
      TRUST_SNAPSHOT_ALLOW_PRIVATE: 'true',
    };
    try {
      const source = await openTrustSource({ embeddedDir: packed, env, offline: true });
      source.close();
      expect(host.connections()).toBe(0);
      // Without --offline the same settings update first (the data is older than 7 days).
      const online = await openTrustSource({ embeddedDir: packed, env });
      expect(online.origin).toMatchObject({ held: 'cached' });
      online.close();
      expect(host.connections()).toBeGreaterThan(0);
    } finally {
      await host.close();
    }
  });

  it('with no trusted key, update says so in one line before any connection, and check never tries one', async () => {
    const host = await startBundleStandin(await bundleOf(newer, 'no-key'));
    // No TRUST_SNAPSHOT_KEYS: the shipped list, empty until the operator adds the production key.
    const env = {
      MCP_TRUST_SCORE_CACHE: path.join(work, 'cache-no-key'),
      TRUST_SNAPSHOT_URL: `${host.url}/snapshot-bundle/`,
      TRUST_SNAPSHOT_ALLOW_HTTP: 'true',
      TRUST_SNAPSHOT_ALLOW_PRIVATE: 'true',
      TRUST_SNAPSHOT_MAX_AGE_DAYS: '0',
    };
    try {
      expect(trustedKeys(env).keys).toEqual([]);
      const error = await updateCommand(['--from', `${host.url}/snapshot-bundle/`], packed, env).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(BundleError);
      expect((error as BundleError).exitCode).toBe(2);
      expect((error as Error).message).toBe(NO_TRUSTED_KEY);
      const source = await openTrustSource({ embeddedDir: packed, env });
      expect(source.origin).toMatchObject({ held: 'packed' });
      source.close();
      expect(host.connections()).toBe(0);
    } finally {
      await host.close();
    }
  });

  it('TRUST_SNAPSHOT_KEYS only adds keys: a shipped key keeps its retirement and the shipped URL stays', async () => {
    const shipped: TrustedKeys = {
      bundle_url: 'https://example.org/snapshot-bundle/',
      keys: [{ ...signer.trusted, not_after: '2026-06-01T00:00:00Z' }],
    };
    const other = newSigningKey(new Date('2026-01-01T00:00:00Z'));
    const file = path.join(work, 'keys-added.json');
    await writeFile(
      file,
      JSON.stringify({ bundle_url: 'http://127.0.0.1:1/snapshot-bundle/', keys: [signer.trusted, other.trusted] }),
    );
    const merged = trustedKeys({ TRUST_SNAPSHOT_KEYS: file }, shipped);
    expect(merged.bundle_url).toBe(shipped.bundle_url);
    expect(merged.keys).toEqual([shipped.keys[0], other.trusted]);
    // The file's URL is the default only while the shipped one is null.
    expect(trustedKeys({ TRUST_SNAPSHOT_KEYS: file }, { bundle_url: null, keys: [] }).bundle_url).toBe(
      'http://127.0.0.1:1/snapshot-bundle/',
    );
  });
});
