/**
 * A request answered 502 while the store hangs is never counted when the store wakes (issue 32, point 8).
 * A private redis-server is frozen (SIGSTOP: connections stay open, nothing answers, what is sent waits in
 * its socket) while counting calls time out, then thawed, as a hung Redis or Upstash would be: the counts
 * those calls sent reach Redis after their deadline and must leave the counter as it was. Through the Redis
 * store over TCP, the Upstash store over HTTP (the test bridge in front of the same server), and the
 * gateway, whose keyed requests answered 502 during the freeze must not use up the key's day.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../../src/gateway/gateway.js';
import { generateKey, hashKey } from '../../src/keys/keys.js';
import { createRedisStore } from '../../src/stores/redis.js';
import { type Store, StoreUnavailableError } from '../../src/stores/types.js';
import { createUpstashStore } from '../../src/stores/upstash.js';
import { testEngine } from '../gateway/harness.js';
import {
  startThrowawayRedis,
  type ThrowawayRedis,
  withSkipReason,
  throwawayRedisSkipReason,
  retryUntilSuccess,
} from '../support/redis-server.js';
import { startUpstashBridge, type UpstashBridge } from '../support/upstash-bridge.js';

const TIMEOUT_MS = 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** How many counting calls are sent into the frozen server. */
const SENT_WHILE_FROZEN = 10;

const skipReason = throwawayRedisSkipReason('be frozen');

/** Whether `call` rejected with StoreUnavailableError. */
const unavailable = (call: Promise<unknown>) =>
  call.then(
    () => false,
    (error: unknown) => error instanceof StoreUnavailableError,
  );

describe.skipIf(skipReason !== undefined)(withSkipReason('counts sent to a store that hangs', skipReason), () => {
  let redis: ThrowawayRedis;
  let bridge: UpstashBridge;
  const stores: Store[] = [];

  beforeAll(async () => {
    redis = await startThrowawayRedis();
    bridge = await startUpstashBridge({ redisUrl: redis.url, token: randomBytes(16).toString('hex') });
  });
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await bridge?.close();
    await redis?.dispose();
  });

  const backends: Array<[string, () => Store]> = [
    ['redis', () => createRedisStore({ url: redis.url, timeoutMs: TIMEOUT_MS, log: () => {} })],
    ['upstash', () => createUpstashStore({ url: bridge.url, token: bridge.token, timeoutMs: TIMEOUT_MS })],
  ];

  for (const [kind, make] of backends) {
    it(`${kind}: counts and reservations that time out while Redis is frozen are not applied when it wakes`, async () => {
      const store = make();
      stores.push(store);
      const counter = `late-${kind}`;
      const reserved = `late-reserve-${kind}`;
      const expireAt = Date.now() + DAY_MS;
      expect(await store.increment(counter, expireAt)).toBe(1);
      expect(await store.reserve(reserved, 2, 100, expireAt)).toEqual({ granted: true, count: 2 });

      redis.pause();
      let outcomes: boolean[];
      try {
        outcomes = await Promise.all([
          ...Array.from({ length: SENT_WHILE_FROZEN }, () => unavailable(store.increment(counter, expireAt))),
          ...Array.from({ length: SENT_WHILE_FROZEN }, () => unavailable(store.reserve(reserved, 2, 100, expireAt))),
        ]);
      } finally {
        redis.resume();
      }
      expect(outcomes.every(Boolean)).toBe(true);

      // Once the store answers again, each counter has moved only by the calls that were answered.
      expect((await retryUntilSuccess(() => store.increment(counter, expireAt), 5000)).value).toBe(2);
      expect(await store.reserve(reserved, 2, 100, expireAt)).toEqual({ granted: true, count: 4 });
    });
  }

  it('a key keeps the requests the gateway answered 502 while Redis was frozen', async () => {
    const store = createRedisStore({ url: redis.url, timeoutMs: TIMEOUT_MS, log: () => {} });
    stores.push(store);
    // An `API_KEYS` key is known without the store, so the count is the one store call the freeze catches.
    const key = generateKey();
    const gateway: Gateway = createGateway({
      engine: await testEngine(),
      store,
      config: { freeDailyLimit: 100, apiKeyHashes: [hashKey(key)] },
    });
    const stats = () =>
      gateway.handle({
        method: 'GET',
        url: '/v1/stats',
        headers: { get: (name) => (name === 'x-api-key' ? key : null) },
      });

    const first = await stats();
    expect(first.status).toBe(200);
    expect(first.headers['x-ratelimit-remaining']).toBe('99');

    redis.pause();
    let statuses: number[];
    try {
      statuses = (await Promise.all(Array.from({ length: SENT_WHILE_FROZEN }, stats))).map((answer) => answer.status);
    } finally {
      redis.resume();
    }
    expect(statuses).toEqual(Array.from({ length: SENT_WHILE_FROZEN }, () => 502));

    const { value: after } = await retryUntilSuccess(async () => {
      const answer = await stats();
      if (answer.status !== 200) throw new Error(`answered ${answer.status}`);
      return answer;
    }, 5000);
    expect(after.headers['x-ratelimit-remaining']).toBe('98');
  });
});
