/**
 * The memory store's key file under a race, end to end: `npm start` issuing keys to 50 clients at once
 * (`POST /v1/keys`) while `npm run keys -- revoke` runs in another process. Every key answered 201 must
 * work afterwards, and the revoked key must stay revoked (issue 32, point 1).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../src/keys/keys.js';
import { RECORDS } from '../gateway/harness.js';
import { buildTestSnapshot } from '../support/records.js';
import { runKeys, runKeysAsync, type ServerProcess, startServer } from './process.js';

const WAVE = 50;

describe('the key file shared by npm start and npm run keys', { timeout: 120_000 }, () => {
  let dir: string;
  let env: Record<string, string>;
  let server: ServerProcess;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mts-key-race-'));
    env = {
      SNAPSHOT_DIR: await buildTestSnapshot(RECORDS),
      KEYS_FILE: path.join(dir, 'keys.json'),
      SELF_SERVICE_KEYS_PER_DAY: '1000',
    };
    server = await startServer(env);
  });

  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const issue = async (): Promise<string> => {
    const response = await fetch(`${server.base}/v1/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"label":"race"}',
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { data: { key: string } }).data.key;
  };
  const statsStatus = async (key: string) =>
    (await fetch(`${server.base}/v1/stats`, { headers: { 'x-api-key': key } })).status;

  it('keeps all 50 keys issued at once, and a revoke made during a flood of sign-ups stays revoked', async () => {
    const created = runKeys(['create', '--label', 'to revoke'], env);
    expect(created.status).toBe(0);
    const revoked = created.stdout.trimEnd().split('\n').at(-1) ?? '';
    expect(await statsStatus(revoked)).toBe(200);

    const first = await Promise.all(Array.from({ length: WAVE }, issue));
    // The revoke runs in its own process; sign-ups keep coming in waves until it has finished (bounded).
    const revoking = runKeysAsync(['revoke', hashKey(revoked).slice(0, 12)], env);
    let done = false;
    void revoking.then(() => (done = true));
    const during: string[] = [];
    for (let wave = 0; wave < 80 && !done; wave++)
      during.push(...(await Promise.all(Array.from({ length: 10 }, issue))));
    const result = await revoking;
    expect(result.status, result.stderr).toBe(0);
    expect(done, 'the revoke finished while sign-ups were still arriving').toBe(true);

    await new Promise((resolve) => setTimeout(resolve, 1100)); // a found key is trusted for up to a second
    const statuses = await Promise.all([...first, ...during].map(statsStatus));
    expect(statuses.filter((status) => status === 200)).toHaveLength(first.length + during.length);
    expect(first).toHaveLength(WAVE);
    expect(await statsStatus(revoked)).toBe(401);
  });
});
