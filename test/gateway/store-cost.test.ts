/**
 * What an anonymous flood costs the store, counted by the store itself (Redis `INFO commandstats` of a
 * private redis-server, so no other test's commands are counted): health checks, a wrong key, malformed
 * keys and Get Access past its limit each cost a few commands in all, not one a request (issue 32, point 4).
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../../src/gateway/gateway.js';
import { generateKey } from '../../src/keys/keys.js';
import { createRedisStore } from '../../src/stores/redis.js';
import type { Store } from '../../src/stores/types.js';
import {
  startThrowawayRedis,
  type ThrowawayRedis,
  withSkipReason,
  throwawayRedisSkipReason,
} from '../support/redis-server.js';
import { testEngine } from './harness.js';

const skipReason = throwawayRedisSkipReason('count commands');

const FLOOD = 300;
const WAVE = 30;

/** Calls per command name since the server started, as Redis counts them. */
async function commandCounts(url: string): Promise<Map<string, number>> {
  const client = createClient({ url });
  await client.connect();
  try {
    const info = await client.info('commandstats');
    const counts = new Map<string, number>();
    for (const match of info.matchAll(/^cmdstat_([a-z|_-]+):calls=(\d+)/gm)) counts.set(match[1]!, Number(match[2]));
    return counts;
  } finally {
    client.destroy();
  }
}

/** The commands run between two readings, leaving out the readings' own (INFO, HELLO, CLIENT ...). */
function difference(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  const ran: Record<string, number> = {};
  for (const [name, calls] of after) {
    if (/^(info|hello|client|command)/.test(name)) continue;
    const more = calls - (before.get(name) ?? 0);
    if (more > 0) ran[name] = more;
  }
  return ran;
}

describe.skipIf(skipReason !== undefined)(withSkipReason('an anonymous flood against Redis', skipReason), () => {
  let redis: ThrowawayRedis;
  let store: Store;
  let gateway: Gateway;

  beforeAll(async () => {
    redis = await startThrowawayRedis();
    store = createRedisStore({ url: redis.url, timeoutMs: 5000 });
    gateway = createGateway({
      engine: await testEngine(),
      store,
      config: { freeDailyLimit: 100, selfService: { perDay: 3 } },
    });
    await store.ping(); // connected before counting
  });
  afterAll(async () => {
    await store?.close();
    await redis?.dispose();
  });

  /** `count` requests made by `make`, `WAVE` at a time; returns the statuses and the seconds taken. */
  async function flood(count: number, make: (index: number) => Promise<number>) {
    const started = performance.now();
    const statuses: number[] = [];
    for (let sent = 0; sent < count; sent += WAVE) {
      statuses.push(...(await Promise.all(Array.from({ length: WAVE }, (_, i) => make(sent + i)))));
    }
    return { statuses, seconds: (performance.now() - started) / 1000 };
  }
  const get = (url: string, key?: string) =>
    gateway
      .handle({ method: 'GET', url, headers: { get: (name) => (name === 'x-api-key' ? (key ?? null) : null) } })
      .then((response) => response.status);

  it('costs at most one command a second for a flood of health checks', async () => {
    const before = await commandCounts(redis.url);
    const { statuses, seconds } = await flood(FLOOD, () => get('/v1/health'));
    expect(new Set(statuses)).toEqual(new Set([200]));
    const ran = difference(before, await commandCounts(redis.url));
    // Health looks for the store's marker with a script (EVALSHA; EVAL once, the first time Redis sees it),
    // which runs EXISTS (and SET, the first time); Redis counts those too.
    expect(Object.keys(ran).filter((name) => !['evalsha', 'eval', 'exists', 'set'].includes(name))).toEqual([]);
    const probes = ran.evalsha ?? 0;
    expect(probes).toBeGreaterThanOrEqual(1);
    expect(probes).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
  });

  it('costs one HGET for a flood of one wrong key, and none for malformed keys', async () => {
    const wrong = generateKey();
    const before = await commandCounts(redis.url);
    const same = await flood(FLOOD, () => get('/v1/stats', wrong));
    const malformed = await flood(FLOOD, (i) => get('/v1/stats', `mts_not-a-real-key-${i}`));
    expect(new Set([...same.statuses, ...malformed.statuses])).toEqual(new Set([401]));
    expect(difference(before, await commandCounts(redis.url))).toEqual({ hget: 1 });
  });

  it('asks the store only until an address reaches its limit of keys for the day', async () => {
    const issue = () =>
      gateway
        .handle({
          method: 'POST',
          url: '/v1/keys',
          address: '203.0.113.7',
          headers: { get: (name) => (name === 'content-type' ? 'application/json' : null) },
          readBody: async () => '{}',
        })
        .then((response) => response.status);
    // The first wave reaches the store at once: it decides which three are issued.
    const first = await flood(WAVE, issue);
    expect(first.statuses.filter((status) => status === 201)).toHaveLength(3);
    const before = await commandCounts(redis.url);
    const { statuses } = await flood(FLOOD, issue);
    expect(new Set(statuses)).toEqual(new Set([429]));
    expect(difference(before, await commandCounts(redis.url))).toEqual({});
  });
});
