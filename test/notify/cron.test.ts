/**
 * The platform's cron route (`api/cron/notify.ts` → `notifyCronHandler`), served by a real node:http server
 * with the process's service context: only `Authorization: Bearer $CRON_SECRET` runs the dispatcher, in
 * constant-time comparison; the answer says what the run did.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifyCronHandler } from '../../src/http/cron.js';
import { type BuiltSnapshots, buildSnapshots } from './snapshots.js';

describe('the cron route', () => {
  let snapshots: BuiltSnapshots;
  let server: http.Server;
  let base: string;
  let keys: string;
  beforeAll(async () => {
    snapshots = await buildSnapshots();
    keys = await mkdtemp(path.join(tmpdir(), 'mts-cron-keys-'));
    // This file runs in a worker of its own: the process's service context is made from these.
    Object.assign(process.env, {
      SNAPSHOT_DIR: snapshots.b,
      KEYS_FILE: path.join(keys, 'keys.json'),
      WEBHOOK_SECRETS_KEY: Buffer.alloc(32, 3).toString('base64'),
      CRON_SECRET: 'a-cron-secret-of-the-test',
    });
    server = http.createServer(notifyCronHandler());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/cron/notify`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await snapshots.remove();
    await rm(keys, { recursive: true, force: true });
    for (const name of ['SNAPSHOT_DIR', 'KEYS_FILE', 'WEBHOOK_SECRETS_KEY', 'CRON_SECRET']) delete process.env[name];
  });

  it('refuses a caller without the cron secret, or with another', async () => {
    expect((await fetch(base)).status).toBe(401);
    const wrong = await fetch(base, { headers: { authorization: 'Bearer a-cron-secret-of-the-tesT' } });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({
      error: { message: 'Only the platform cron may call this route', status: 401 },
    });
  });

  it('runs the dispatcher for the platform cron and says what it did', async () => {
    const response = await fetch(base, { headers: { authorization: 'Bearer a-cron-secret-of-the-test' } });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: { ran: boolean; fanOut: { events: number; queued: number } } };
    expect(data.ran).toBe(true);
    // Snapshot B's six events; nobody has subscribed in this fresh memory store.
    expect(data.fanOut).toMatchObject({ events: 6, queued: 0 });
    const again = (await (
      await fetch(base, { headers: { authorization: 'Bearer a-cron-secret-of-the-test' } })
    ).json()) as {
      data: { fanOut: { skipped: string } };
    };
    expect(again.data.fanOut.skipped).toBe('already notified');
  });
});
