/**
 * The counting invariant under load: after a burst of N concurrent requests on a fresh key, the key's daily
 * counter is exactly N, and each request saw its own count (the remaining counts are N distinct values).
 * Over real HTTP against the gateway in this process with the memory store and with Redis (a throwaway
 * prefix), and against the real server process (`npm start`) on `STORE=redis`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway } from '../../src/gateway/gateway.js';
import { counterExpiry, dailyCounterKey } from '../../src/gateway/rate-limit.js';
import { createNodeHandler } from '../../src/http/node-adapter.js';
import { hashKey } from '../../src/keys/keys.js';
import { createMemoryStore } from '../../src/stores/memory.js';
import { createRedisStore } from '../../src/stores/redis.js';
import type { Store } from '../../src/stores/types.js';
import { RECORDS, testEngine } from '../gateway/harness.js';
import { buildTestSnapshot } from '../support/records.js';
import {
  deleteKeysWithPrefix,
  redactUrl,
  redisSkipReason,
  testRedisPrefix,
  testRedisUrl,
  withSkipReason,
} from '../support/redis-server.js';
import { type ServerProcess, startServer } from './process.js';

const BURST = 500;
const LIMIT = 1_000_000;
const PATHS = [
  '/v1/stats',
  '/v1/servers?limit=3',
  '/v1/servers/com.example/mcp',
  '/v1/search?q=mcp',
  '/v1/servers?limit=0',
  '/v1/servers/com.example/none',
];

/** Send BURST requests at once (every path in turn, 400s and 404s among them) and return their headers. */
async function burst(base: string, key: string): Promise<{ status: number; remaining: number }[]> {
  const url = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 250 });
  try {
    return await Promise.all(
      Array.from(
        { length: BURST },
        (_, index) =>
          new Promise<{ status: number; remaining: number }>((resolve, reject) => {
            const request = http.request(
              {
                host: url.hostname,
                port: url.port,
                path: PATHS[index % PATHS.length],
                agent,
                headers: { 'x-api-key': key },
              },
              (response) => {
                response.resume();
                response.on('end', () =>
                  resolve({
                    status: response.statusCode ?? 0,
                    remaining: Number(response.headers['x-ratelimit-remaining']),
                  }),
                );
              },
            );
            request.on('error', reject);
            request.end();
          }),
      ),
    );
  } finally {
    agent.destroy();
  }
}

/** Every request was counted once: BURST answers, none 5xx, and the remaining counts LIMIT-1 … LIMIT-BURST. */
function expectEachCountedOnce(answers: { status: number; remaining: number }[]): void {
  expect(answers).toHaveLength(BURST);
  expect(answers.filter((answer) => answer.status >= 500)).toEqual([]);
  const seen = answers.map((answer) => LIMIT - answer.remaining).sort((a, b) => a - b);
  expect(seen).toEqual(Array.from({ length: BURST }, (_, index) => index + 1));
}

/** The gateway of this process over node:http with `store`, a fixed clock, and `key` accepted. */
async function serveInProcess(store: Store, key: string, now: number) {
  const gateway = createGateway({
    engine: await testEngine(),
    store,
    config: { freeDailyLimit: LIMIT, apiKeyHashes: [hashKey(key)] },
    now: () => now,
  });
  const server = http.createServer(createNodeHandler(gateway));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('the counting invariant, memory store', () => {
  it(`counts a burst of ${BURST} concurrent requests exactly: the counter is ${BURST}`, async () => {
    const now = Date.now();
    const store = createMemoryStore({ now: () => now });
    const key = `burst-${randomUUID()}`;
    const served = await serveInProcess(store, key, now);
    try {
      expectEachCountedOnce(await burst(served.base, key));
      // The store's own word: the next increment of that counter is BURST + 1.
      expect(await store.increment(dailyCounterKey(hashKey(key), now), counterExpiry(now))).toBe(BURST + 1);
    } finally {
      await served.close();
      await store.close();
    }
  }, 60_000);
});

const redisUrl = testRedisUrl();
const skipReason = await redisSkipReason(redisUrl);

describe.skipIf(skipReason !== undefined)(
  withSkipReason(`the counting invariant, Redis at ${redactUrl(redisUrl)}`, skipReason),
  () => {
    const observer = createClient({ url: redisUrl });
    beforeAll(async () => {
      await observer.connect();
    });
    afterAll(() => observer.destroy());

    it(`counts a burst of ${BURST} concurrent requests exactly, in this process under a throwaway prefix`, async () => {
      const prefix = `mts-test-burst-${randomUUID()}:`;
      const now = Date.now();
      // A wide bound: this checks exactness, and 500 calls at once on a loaded 2-core box may queue past 1 s.
      const store = createRedisStore({ url: redisUrl, prefix, timeoutMs: 10_000 });
      const key = `burst-${randomUUID()}`;
      const served = await serveInProcess(store, key, now);
      try {
        expectEachCountedOnce(await burst(served.base, key));
        expect(await observer.get(`${prefix}counter:${dailyCounterKey(hashKey(key), now)}`)).toBe(String(BURST));
      } finally {
        await served.close();
        await store.close();
        await deleteKeysWithPrefix(redisUrl, prefix);
      }
    }, 60_000);

    describe('npm start on STORE=redis', () => {
      const key = `burst-${randomUUID()}`;
      const prefix = testRedisPrefix('burst-server');
      let dir: string;
      let server: ServerProcess;
      beforeAll(async () => {
        dir = await mkdtemp(path.join(tmpdir(), 'mts-burst-'));
        server = await startServer({
          SNAPSHOT_DIR: await buildTestSnapshot(RECORDS),
          KEYS_FILE: path.join(dir, 'keys.json'),
          STORE: 'redis',
          REDIS_URL: redisUrl,
          REDIS_PREFIX: prefix,
          API_KEYS: key,
          FREE_DAILY_LIMIT: String(LIMIT),
        });
      }, 90_000);
      afterAll(async () => {
        await server?.stop();
        await rm(dir, { recursive: true, force: true });
        await deleteKeysWithPrefix(redisUrl, prefix);
      });

      it(`counts a burst of ${BURST} concurrent requests exactly in the shared Redis`, async () => {
        const before = Date.now();
        const answers = await burst(server.base, key);
        // The server's 1 s bound may answer 502 to some requests on a loaded machine; none of those may count.
        const counted = answers.filter((answer) => answer.status !== 502);
        expect(answers.filter((answer) => answer.status >= 500 && answer.status !== 502)).toEqual([]);
        const counter = `${prefix}counter:${dailyCounterKey(hashKey(key), before)}`;
        try {
          const stored = Number(await observer.get(counter));
          // A 502 is "the store did not answer within 1 s": the increment may still have landed, so the
          // counter is at least the answered count and at most the burst (never one lost, docs/keys-and-stores.md: Stores).
          expect(stored).toBeGreaterThanOrEqual(counted.length);
          expect(stored).toBeLessThanOrEqual(BURST);
          if (counted.length === BURST) {
            expectEachCountedOnce(answers);
            expect(stored).toBe(BURST);
          }
        } finally {
          await observer.del(counter);
        }
      }, 60_000);
    });
  },
);
