/**
 * A Redis that comes back empty (restarted without persistence): the service cannot prevent it, but it
 * must not hide it (issue 32, point 10). Health reports `degraded`, `store.status: "data_lost"` and why,
 * once the marker the service left at start is gone; before that, and with the memory store, it is `ok`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_LOST_REASON } from '../../src/api/handlers/service.js';
import { createGateway, type Gateway } from '../../src/gateway/gateway.js';
import { HEALTH_PROBE_MS } from '../../src/gateway/store-calls.js';
import { createMemoryStore } from '../../src/stores/memory.js';
import { createRedisStore } from '../../src/stores/redis.js';
import type { Store } from '../../src/stores/types.js';
import { testEngine } from '../gateway/harness.js';
import {
  startThrowawayRedis,
  type ThrowawayRedis,
  withSkipReason,
  throwawayRedisSkipReason,
} from '../support/redis-server.js';

const skipReason = throwawayRedisSkipReason('be restarted empty');

async function healthOf(gateway: Gateway): Promise<{ status: string; store: Record<string, string> }> {
  const response = await gateway(new Request('http://localhost/v1/health'));
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { status: string; store: Record<string, string> } }).data;
}

const afterProbe = () => new Promise((resolve) => setTimeout(resolve, HEALTH_PROBE_MS + 100));

describe('health with the memory store', () => {
  it('is ok: nothing outside the process can lose its data', async () => {
    const gateway = createGateway({
      engine: await testEngine(),
      store: createMemoryStore(),
      config: { freeDailyLimit: 100, staleAfterDays: 3650 },
    });
    expect(await healthOf(gateway)).toMatchObject({ status: 'ok', store: { kind: 'memory', status: 'ok' } });
  });
});

describe.skipIf(skipReason !== undefined)(withSkipReason('health when Redis comes back empty', skipReason), () => {
  let redis: ThrowawayRedis;
  let store: Store;
  let gateway: Gateway;

  beforeAll(async () => {
    redis = await startThrowawayRedis();
    store = createRedisStore({ url: redis.url, timeoutMs: 2000, log: () => undefined });
    gateway = createGateway({
      engine: await testEngine(),
      store,
      config: { freeDailyLimit: 100, staleAfterDays: 3650 },
    });
  });
  afterAll(async () => {
    await store?.close();
    await redis?.dispose();
  });

  it('reports ok while the marker is there, and data_lost with the reason once Redis restarted empty', async () => {
    expect(await healthOf(gateway)).toEqual(
      expect.objectContaining({ status: 'ok', store: { kind: 'redis', status: 'ok' } }),
    );
    await afterProbe();
    expect((await healthOf(gateway)).store).toEqual({ kind: 'redis', status: 'ok' });

    await redis.stop();
    await redis.start(); // no persistence: it comes back empty
    await afterProbe();
    await expect
      .poll(async () => (await healthOf(gateway)).store.status, { timeout: 10_000, interval: HEALTH_PROBE_MS })
      .toBe('data_lost');
    expect(await healthOf(gateway)).toEqual(
      expect.objectContaining({
        status: 'degraded',
        store: { kind: 'redis', status: 'data_lost', reason: DATA_LOST_REASON },
      }),
    );
  });
});
