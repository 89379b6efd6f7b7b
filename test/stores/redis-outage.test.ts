/**
 * The failure policy of the Redis store against a real redis-server this test starts, stops, freezes and
 * restarts on a free port of its own (never the shared test server): while Redis is gone every call rejects
 * with StoreUnavailableError within about a second, none hangs, and the same store instance works again by
 * itself once Redis is back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStore } from '../../src/stores/redis.js';
import { type Store, StoreUnavailableError } from '../../src/stores/types.js';
import {
  startThrowawayRedis,
  type ThrowawayRedis,
  withSkipReason,
  throwawayRedisSkipReason,
  retryUntilSuccess,
} from '../support/redis-server.js';

const TIMEOUT_MS = 1000;
/** The policy's bound plus scheduling slack on a busy 2-core machine. */
const REJECTED_WITHIN_MS = 2000;
const DAY_MS = 24 * 60 * 60 * 1000;

const skipReason = throwawayRedisSkipReason('be stopped, frozen and restarted');

/** Settle `call` and report how long it took and how it ended. */
async function timed(call: () => Promise<unknown>): Promise<{ ms: number; error: unknown; value: unknown }> {
  const started = performance.now();
  try {
    const value = await call();
    return { ms: performance.now() - started, error: undefined, value };
  } catch (error) {
    return { ms: performance.now() - started, error, value: undefined };
  }
}

describe.skipIf(skipReason !== undefined)(withSkipReason('the Redis store when Redis goes away', skipReason), () => {
  let redis: ThrowawayRedis;
  let store: Store;
  const logged: string[] = [];

  beforeAll(async () => {
    redis = await startThrowawayRedis();
    store = createRedisStore({ url: redis.url, timeoutMs: TIMEOUT_MS, log: (line) => logged.push(line) });
  });
  afterAll(async () => {
    await store?.close();
    await redis?.dispose();
  });

  it('rejects every call with StoreUnavailableError within the bound while Redis is down, then recovers on restart', async () => {
    expect(await store.increment('day', Date.now() + DAY_MS)).toBe(1);
    expect(await store.increment('day', Date.now() + DAY_MS)).toBe(2);

    await redis.stop();
    const calls = [
      ...Array.from({ length: 20 }, () => timed(() => store.increment('day', Date.now() + DAY_MS))),
      timed(() => store.findKey('a'.repeat(64))),
      timed(() => store.ping()),
    ];
    const outcomes = await Promise.all(calls);
    for (const outcome of outcomes) {
      expect(outcome.error).toBeInstanceOf(StoreUnavailableError);
      expect(outcome.ms).toBeLessThan(REJECTED_WITHIN_MS);
    }
    const slowest = Math.max(...outcomes.map((outcome) => outcome.ms));
    // Calls made a while into the outage, when the client knows it is offline, fail at once.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const later = await timed(() => store.increment('day', Date.now() + DAY_MS));
    expect(later.error).toBeInstanceOf(StoreUnavailableError);
    expect(later.ms).toBeLessThan(REJECTED_WITHIN_MS);

    await redis.start();
    const recoveryMs = (await retryUntilSuccess(() => store.ping(), 5000)).ms;
    // The restarted server is empty (no persistence): the counter starts again.
    expect(await store.increment('day', Date.now() + DAY_MS)).toBe(1);
    console.info(
      `[redis outage] slowest rejection during the outage ${slowest.toFixed(0)} ms; ` +
        `later rejection ${later.ms.toFixed(0)} ms; recovered ${recoveryMs.toFixed(0)} ms after the restart`,
    );
    expect(logged.some((line) => line.includes('connection failed'))).toBe(true);
    expect(logged.some((line) => line.includes('connected again'))).toBe(true);
  });

  it('rejects calls to a frozen Redis within the bound and answers again when it resumes', async () => {
    expect(await store.increment('frozen', Date.now() + DAY_MS)).toBe(1);
    redis.pause();
    try {
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, () => timed(() => store.increment('frozen', Date.now() + DAY_MS))),
      );
      for (const outcome of outcomes) {
        expect(outcome.error).toBeInstanceOf(StoreUnavailableError);
        expect(outcome.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
        expect(outcome.ms).toBeLessThan(REJECTED_WITHIN_MS);
      }
    } finally {
      redis.resume();
    }
    await retryUntilSuccess(() => store.ping(), 5000);
    // The counter still moves by exactly one per call afterwards (that the frozen calls counted nothing when
    // Redis woke is test/stores/late-counts.test.ts's).
    const before = await store.increment('frozen', Date.now() + DAY_MS);
    expect(await store.increment('frozen', Date.now() + DAY_MS)).toBe(before + 1);
  });

  it('starts cold while Redis is down, fails within the bound, and connects once Redis appears', async () => {
    await redis.stop();
    const cold = createRedisStore({ url: redis.url, timeoutMs: TIMEOUT_MS, log: () => {} });
    try {
      const first = await timed(() => cold.increment('cold', Date.now() + DAY_MS));
      expect(first.error).toBeInstanceOf(StoreUnavailableError);
      expect(first.ms).toBeLessThan(REJECTED_WITHIN_MS);
      await redis.start();
      await retryUntilSuccess(() => cold.ping(), 5000);
      expect(await cold.increment('cold', Date.now() + DAY_MS)).toBe(1);
    } finally {
      await cold.close();
    }
  });
});
