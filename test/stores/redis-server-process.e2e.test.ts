/**
 * The Redis store through the real server process (`node dist/serve.mjs` with STORE=redis):
 * - outage: Redis (a throwaway server this test owns) stops mid-run; keyed requests get 502 with the error
 *   body within two seconds, none hangs, health says the store is unavailable, and after a restart the same
 *   server process answers again;
 * - two instances: two server processes share one Redis; 300 parallel requests on a fresh key, spread over
 *   both, get exactly FREE_DAILY_LIMIT (100) answers that are not 429.
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestSnapshot, makeRecord } from '../support/records.js';
import {
  deleteKeysWithPrefix,
  redisSkipReason,
  startThrowawayRedis,
  testRedisPrefix,
  testRedisUrl,
  type ThrowawayRedis,
  withSkipReason,
  throwawayRedisSkipReason,
} from '../support/redis-server.js';
import { startServerProcess, type ServerProcess } from '../../scripts/lib/server-process.js';

const SERVER_NAME = 'io.github.acme/postgres-mcp';
const GET_PATH = `/v1/servers/${SERVER_NAME}`;
const WITHIN_MS = 2000;

const outageSkip = throwawayRedisSkipReason('be stopped and restarted');
const sharedRedisUrl = testRedisUrl();
const sharedSkip = await redisSkipReason(sharedRedisUrl);

let snapshotDir: string;
beforeAll(async () => {
  snapshotDir = await buildTestSnapshot([makeRecord({ name: SERVER_NAME, trust_score: 91 })]);
});
afterAll(async () => {
  if (snapshotDir) await rm(path.dirname(snapshotDir), { recursive: true, force: true });
});

function freshKey(): string {
  return `mts_test_${randomBytes(16).toString('hex')}`;
}

async function timedGet(url: string, key?: string): Promise<{ status: number; body: unknown; ms: number }> {
  const started = performance.now();
  const response = await fetch(url, { headers: key ? { 'x-api-key': key } : {}, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as unknown, ms: performance.now() - started };
}

describe.skipIf(outageSkip !== undefined)(
  withSkipReason('a server process on STORE=redis when Redis goes away', outageSkip),
  () => {
    let redis: ThrowawayRedis;
    let server: ServerProcess;
    const key = freshKey();

    beforeAll(async () => {
      redis = await startThrowawayRedis();
      server = await startServerProcess({
        STORE: 'redis',
        REDIS_URL: redis.url,
        API_KEYS: key,
        SNAPSHOT_DIR: snapshotDir,
        // Scored in February 2026: health is about the store here, not the data's age.
        STALE_AFTER_DAYS: '3650',
      });
    });
    afterAll(async () => {
      await server?.stop();
      await redis?.dispose();
    });

    it('answers 502 with the error body within two seconds while Redis is down, and serves again after a restart', async () => {
      const first = await timedGet(`${server.url}${GET_PATH}`, key);
      expect(first.status).toBe(200);

      await redis.stop();
      const during = await Promise.all(Array.from({ length: 10 }, () => timedGet(`${server.url}${GET_PATH}`, key)));
      for (const answer of during) {
        expect(answer.status).toBe(502);
        expect(answer.body).toMatchObject({ error: { status: 502, code: 'store_unavailable' } });
        expect(answer.ms).toBeLessThan(WITHIN_MS);
      }
      const health = await timedGet(`${server.url}/v1/health`);
      expect(health.status).toBe(200);
      expect(health.body).toMatchObject({ data: { store: { kind: 'redis', status: 'unavailable' } } });
      expect(health.ms).toBeLessThan(WITHIN_MS);

      await redis.start();
      const restarted = performance.now();
      let answer = await timedGet(`${server.url}${GET_PATH}`, key);
      while (answer.status !== 200 && performance.now() - restarted < 5000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        answer = await timedGet(`${server.url}${GET_PATH}`, key);
      }
      expect(answer.status).toBe(200);
      console.info(
        `[server outage] slowest 502 ${Math.max(...during.map((d) => d.ms)).toFixed(0)} ms; ` +
          `serving again ${(performance.now() - restarted).toFixed(0)} ms after the restart`,
      );
      const healthy = await timedGet(`${server.url}/v1/health`);
      // The throwaway Redis has no persistence: it came back empty, and health says so rather than "ok".
      expect(healthy.body).toMatchObject({
        data: { status: 'degraded', store: { kind: 'redis', status: 'data_lost' } },
      });
    });
  },
);

describe.skipIf(sharedSkip !== undefined)(withSkipReason('two server processes sharing one Redis', sharedSkip), () => {
  const key = freshKey();
  const prefix = testRedisPrefix('two-servers');
  let servers: ServerProcess[] = [];

  beforeAll(async () => {
    const env = {
      STORE: 'redis',
      REDIS_URL: sharedRedisUrl,
      REDIS_PREFIX: prefix,
      API_KEYS: key,
      SNAPSHOT_DIR: snapshotDir,
    };
    servers = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await deleteKeysWithPrefix(sharedRedisUrl, prefix);
  });

  it('lets exactly 100 of 300 parallel requests on a fresh key through, whichever instance answers', async () => {
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, index) => {
        const server = servers[index % servers.length] as ServerProcess;
        return fetch(`${server.url}${GET_PATH}`, { headers: { 'x-api-key': key } }).then(async (response) => {
          await response.arrayBuffer();
          return response.status;
        });
      }),
    );
    const notLimited = answers.filter((status) => status !== 429);
    expect(notLimited).toHaveLength(100);
    expect(new Set(notLimited)).toEqual(new Set([200]));
    expect(answers.filter((status) => status === 429)).toHaveLength(200);
  });
});
