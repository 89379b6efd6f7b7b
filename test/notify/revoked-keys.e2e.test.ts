/**
 * A revoked key's webhook subscriptions (M2): the dispatcher checks each subscription's owner before it
 * delivers, so a key revoked in any way stops its deliveries at once; `npm run keys -- revoke` deletes the
 * key's subscriptions in a shared store, and `npm run keys -- webhooks` lists and deletes them.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey, hashKey, hashPrefix } from '../../src/keys/keys.js';
import { deliveriesOf, decodeDelivery, DUE_QUEUE } from '../../src/notify/delivery.js';
import { createNotifications } from '../../src/notify/service.js';
import { OWNERS, subscriptionsOf } from '../../src/notify/subscription-schema.js';
import { loadSnapshot } from '../../src/query/open.js';
import type { QueryEngine } from '../../src/query/types.js';
import { createMemoryStore } from '../../src/stores/memory.js';
import { createRedisStore } from '../../src/stores/redis.js';
import { runKeys } from '../e2e/process.js';
import {
  deleteKeysWithPrefix,
  redisSkipReason,
  testRedisPrefix,
  testRedisUrl,
  withSkipReason,
} from '../support/redis-server.js';
import { type Receiver, startReceiver } from './receiver.js';
import { type BuiltSnapshots, buildSnapshots } from './snapshots.js';

const settings = { secretsKey: randomBytes(32), allowHttp: true, allowPrivate: true, baseUrl: 'https://t.example' };
const redisUrl = testRedisUrl();
const skipReason = await redisSkipReason(redisUrl);

describe('a revoked key and its webhooks', { timeout: 120_000 }, () => {
  let snapshots: BuiltSnapshots;
  let engine: QueryEngine;
  let receiver: Receiver;
  beforeAll(async () => {
    snapshots = await buildSnapshots();
    engine = await loadSnapshot(snapshots.b);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    engine.close();
    await receiver.close();
    await snapshots.remove();
  });

  it('sends nothing for a subscription whose key was revoked, and disables it saying why', async () => {
    const clock = { now: Date.UTC(2026, 5, 1) };
    const store = createMemoryStore({ now: () => clock.now });
    const key = generateKey();
    const keyHash = hashKey(key);
    await store.addKey({ hash: keyHash, plan: 'free', label: 'm2', created_at: new Date(clock.now).toISOString() });
    const notifications = createNotifications(store, settings, { now: () => clock.now })!;
    try {
      const created = await notifications.subscriptions.create(keyHash, { url: `${receiver.url}/revoked` });
      expect(await store.revokeKey(hashPrefix(keyHash))).toBe(true);
      receiver.received.length = 0;
      await notifications.dispatcher.run(engine);
      expect(receiver.received).toHaveLength(0);
      const shown = await notifications.subscriptions.get(keyHash, created.id);
      expect(shown.status).toBe('disabled');
      expect(shown.disabled_reason).toMatch(/^its API key was revoked/);
      expect(shown.deliveries.length).toBeGreaterThan(0);
      expect(shown.deliveries.every((delivery) => delivery.status === 'cancelled')).toBe(true);
      expect(await store.queueDue(DUE_QUEUE, clock.now + 86_400_000, 100)).toEqual([]);
    } finally {
      notifications.close();
    }
  });

  it('delivers as before for a key of API_KEYS, which is not in the store', async () => {
    const clock = { now: Date.UTC(2026, 5, 1) };
    const store = createMemoryStore({ now: () => clock.now });
    const keyHash = hashKey(generateKey());
    const notifications = createNotifications(
      store,
      { ...settings, apiKeyHashes: [keyHash] },
      { now: () => clock.now },
    )!;
    try {
      await notifications.subscriptions.create(keyHash, { url: `${receiver.url}/configured` });
      receiver.received.length = 0;
      await notifications.dispatcher.run(engine);
      expect(receiver.received.length).toBeGreaterThan(0);
    } finally {
      notifications.close();
    }
  });

  describe.skipIf(skipReason !== undefined)(withSkipReason(`npm run keys on Redis at ${redisUrl}`, skipReason), () => {
    const prefix = testRedisPrefix('revoked-webhooks');
    const env = { STORE: 'redis', REDIS_URL: redisUrl, REDIS_PREFIX: prefix };
    afterAll(() => deleteKeysWithPrefix(redisUrl, prefix));

    it('lists a key subscriptions, deletes one, and revoke deletes the rest', async () => {
      const store = createRedisStore({ url: redisUrl, prefix, timeoutMs: 5000 });
      const notifications = createNotifications(store, settings)!;
      try {
        const keyHash = hashKey(generateKey());
        await store.addKey({ hash: keyHash, plan: 'free', label: 'cli', created_at: new Date().toISOString() });
        const made = [];
        for (const path of ['one?token=receiver-secret', 'two', 'three'])
          made.push(await notifications.subscriptions.create(keyHash, { url: `${receiver.url}/${path}` }));
        await notifications.dispatcher.run(engine);
        const shortHash = hashPrefix(keyHash);

        const listed = runKeys(['webhooks', 'list', shortHash], env);
        expect(listed.stderr).toBe('');
        expect(listed.status).toBe(0);
        for (const subscription of made) expect(listed.stdout).toContain(subscription.id);
        expect(listed.stdout).toContain('127.0.0.1:');
        expect(listed.stdout).not.toContain('receiver-secret');

        const deleted = runKeys(['webhooks', 'delete', shortHash, made[0]!.id], env);
        expect(deleted.status).toBe(0);
        expect(await store.recordGet(subscriptionsOf(keyHash), made[0]!.id)).toBeUndefined();
        expect(await store.recordGet(subscriptionsOf(keyHash), made[1]!.id)).toBeDefined();

        const revoked = runKeys(['revoke', shortHash], env);
        expect(revoked.status).toBe(0);
        expect(revoked.stdout).toContain('Deleted its 2 webhook subscription(s)');
        expect(await store.recordList(subscriptionsOf(keyHash))).toEqual([]);
        for (const subscription of made) {
          expect(await store.recordGet(OWNERS, subscription.id)).toBeUndefined();
          expect((await store.recordList(deliveriesOf(subscription.id))).map(decodeDelivery)).toEqual([]);
        }
        receiver.received.length = 0;
        await notifications.dispatcher.run(engine);
        expect(receiver.received).toHaveLength(0);

        const unknown = runKeys(['webhooks', 'list', 'abcdef0123'], env);
        expect(unknown.status).toBe(1);
        expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
      } finally {
        notifications.close();
        await store.close();
      }
    });
  });
});
