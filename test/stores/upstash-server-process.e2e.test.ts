/**
 * `STORE=upstash npm start` end to end: the real server process counts keyed requests through
 * `@upstash/redis` over HTTP (the test-only bridge, forwarding to a real Redis) and reports the store in
 * health. Skipped with the reason printed when no Redis answers; under CI that is a failure instead.
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../../scripts/lib/server-process.js';
import { buildTestSnapshot, makeRecord } from '../support/records.js';
import {
  deleteKeysWithPrefix,
  redisSkipReason,
  testRedisPrefix,
  testRedisUrl,
  withSkipReason,
} from '../support/redis-server.js';
import { startUpstashBridge, type UpstashBridge } from '../support/upstash-bridge.js';

const redisUrl = testRedisUrl();
const skipReason = await redisSkipReason(redisUrl);
const SERVER_NAME = 'io.github.acme/postgres-mcp';

describe.skipIf(skipReason !== undefined)(withSkipReason('a server process on STORE=upstash', skipReason), () => {
  const token = randomBytes(16).toString('hex');
  const key = `mts_test_${randomBytes(16).toString('hex')}`;
  const prefix = testRedisPrefix('upstash-server');
  let snapshotDir: string;
  let bridge: UpstashBridge;
  let server: ServerProcess;

  beforeAll(async () => {
    snapshotDir = await buildTestSnapshot([makeRecord({ name: SERVER_NAME })]);
    bridge = await startUpstashBridge({ redisUrl, token });
    server = await startServerProcess({
      STORE: 'upstash',
      UPSTASH_REDIS_REST_URL: bridge.url,
      UPSTASH_REDIS_REST_TOKEN: token,
      REDIS_PREFIX: prefix,
      API_KEYS: key,
      SNAPSHOT_DIR: snapshotDir,
      // Scored in February 2026: health is about the store here, not the data's age.
      STALE_AFTER_DAYS: '3650',
    });
  });
  afterAll(async () => {
    await server?.stop();
    await bridge?.close();
    await deleteKeysWithPrefix(redisUrl, prefix);
    if (snapshotDir) await rm(path.dirname(snapshotDir), { recursive: true, force: true });
  });

  it('counts each keyed request in the Upstash store and reports the store as ok in health', async () => {
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${server.url}/v1/servers/${SERVER_NAME}`, { headers: { 'x-api-key': key } });
      expect(response.status).toBe(200);
      remaining.push(response.headers.get('x-ratelimit-remaining'));
      await response.arrayBuffer();
    }
    expect(remaining).toEqual(['99', '98', '97']);
    const health = (await (await fetch(`${server.url}/v1/health`)).json()) as unknown;
    expect(health).toMatchObject({ data: { status: 'ok', store: { kind: 'upstash', status: 'ok' } } });
    expect(bridge.stats.pipeline + bridge.stats.single).toBeGreaterThanOrEqual(4);
  });
});
