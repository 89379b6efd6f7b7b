/**
 * The one contract every store runs (memory, redis, upstash): what the gateway and the key CLI rely on,
 * checked against the real backend. A backend's test file calls `describeStoreContract` with a factory
 * that builds a fresh store in its own namespace, so runs (and parallel test files) never collide.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { KeyRecord } from '../../src/keys/record.js';
import type { Store } from '../../src/stores/types.js';
import { describeNotifyContract } from './notify-contract.js';
import { describeUnknownContract } from './unknown-contract.js';

export interface StoreUnderTest {
  store: Store;
  /**
   * Milliseconds before the backend itself expires counter `key` (Redis PTTL), for backends that can be
   * asked; the memory store has no such view, and its expiry is checked by behaviour alone.
   */
  counterTtlMs?: (key: string) => Promise<number>;
  /** Removes what the test wrote (its namespace); called after the store is closed. */
  cleanup?: () => Promise<void>;
}

/** Builds a store whose data lives under `namespace` (a Redis key prefix, a private key file...). */
export type MakeStore = (namespace: string) => Promise<StoreUnderTest>;

const DAY_MS = 24 * 60 * 60 * 1000;

function randomHash(): string {
  return createHash('sha256').update(randomBytes(32)).digest('hex');
}

function record(hash: string, label: string, createdAt = new Date()): KeyRecord {
  return { hash, plan: 'free', label, created_at: createdAt.toISOString() };
}

export function describeStoreContract(name: string, makeStore: MakeStore): void {
  describe(`the ${name} store contract`, () => {
    const opened: StoreUnderTest[] = [];

    /** A fresh store in a namespace of its own, closed and cleaned after the test. */
    async function freshStore(): Promise<StoreUnderTest> {
      const made = await makeStore(`mts-test:${randomUUID().slice(0, 8)}:`);
      opened.push(made);
      return made;
    }

    afterEach(async () => {
      for (const made of opened.splice(0)) {
        await made.store.close();
        await made.cleanup?.();
      }
    });

    it('counts 1,000 concurrent increments of one counter exactly, handing out each value once', async () => {
      const { store } = await freshStore();
      const expireAt = Date.now() + DAY_MS;
      const started = performance.now();
      const values = await Promise.all(Array.from({ length: 1000 }, () => store.increment('burst', expireAt)));
      const elapsed = performance.now() - started;
      console.info(`[${name}] 1,000 concurrent increments took ${elapsed.toFixed(0)} ms`);
      expect([...values].sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, index) => index + 1));
      expect(await store.increment('burst', expireAt)).toBe(1001);
    });

    it('reserves several at once, all or nothing, within the limit, counting on from increments', async () => {
      const { store } = await freshStore();
      const expireAt = Date.now() + DAY_MS;
      expect(await store.reserve('bulk', 3, 5, expireAt)).toEqual({ granted: true, count: 3 });
      expect(await store.reserve('bulk', 3, 5, expireAt)).toEqual({ granted: false, count: 3 });
      expect(await store.increment('bulk', expireAt)).toBe(4);
      expect(await store.reserve('bulk', 1, 5, expireAt)).toEqual({ granted: true, count: 5 });
      expect(await store.reserve('bulk', 1, 5, expireAt)).toEqual({ granted: false, count: 5 });
    });

    it('never lets concurrent reservations together pass the limit', async () => {
      const { store } = await freshStore();
      const expireAt = Date.now() + DAY_MS;
      const results = await Promise.all(Array.from({ length: 50 }, () => store.reserve('race', 3, 100, expireAt)));
      expect(results.filter((result) => result.granted)).toHaveLength(33);
      expect(await store.increment('race', expireAt)).toBe(100);
    });

    it('restarts a reserved counter once the expiry set on its creation has passed', async () => {
      const { store } = await freshStore();
      const expireAt = Date.now() + 1000;
      expect((await store.reserve('reserved-window', 4, 10, expireAt)).count).toBe(4);
      await sleep(expireAt - Date.now() + 150);
      expect(await store.reserve('reserved-window', 2, 10, Date.now() + DAY_MS)).toEqual({ granted: true, count: 2 });
    });

    it('keeps counters with different names apart', async () => {
      const { store } = await freshStore();
      const expireAt = Date.now() + DAY_MS;
      expect(await store.increment('a', expireAt)).toBe(1);
      expect(await store.increment('a', expireAt)).toBe(2);
      expect(await store.increment('b', expireAt)).toBe(1);
      expect(await store.increment('a', expireAt)).toBe(3);
    });

    it('restarts a counter at 1 once the expiry set by its first increment has passed', async () => {
      const { store } = await freshStore();
      const expireAt = Date.now() + 1000;
      expect(await store.increment('window', expireAt)).toBe(1);
      // A later increment passing a later expiry must not move the window: the first one fixed it.
      expect(await store.increment('window', Date.now() + DAY_MS)).toBe(2);
      await sleep(expireAt - Date.now() + 150);
      expect(await store.increment('window', Date.now() + DAY_MS)).toBe(1);
    });

    it('treats an expiry already in the past as an immediately expired counter', async () => {
      const { store } = await freshStore();
      expect(await store.increment('stale', Date.now() - 1000)).toBe(1);
      expect(await store.increment('stale', Date.now() - 1000)).toBe(1);
    });

    it('sets the backend expiry of a new counter to the instant it was given', async (context) => {
      const made = await freshStore();
      if (!made.counterTtlMs) {
        context.skip(`${name} has no backend TTL to read; its expiry is checked by the restart test above`);
        return;
      }
      const expireAt = Date.now() + 3 * 60 * 60 * 1000;
      await made.store.increment('ttl', expireAt);
      const ttl = await made.counterTtlMs('ttl');
      const expected = expireAt - Date.now();
      expect(Math.abs(ttl - expected)).toBeLessThan(2000);
    });

    it('answers ping when the backend is up', async () => {
      const { store } = await freshStore();
      await expect(store.ping()).resolves.toBeUndefined();
    });

    it('finds a key it added and reports a key it never saw as absent', async () => {
      const { store } = await freshStore();
      const added = record(randomHash(), 'ci bot');
      await store.addKey(added);
      expect(await store.findKey(added.hash)).toEqual(added);
      expect(await store.findKey(randomHash())).toBeUndefined();
    });

    it('lists every added key, oldest first', async () => {
      const { store } = await freshStore();
      const older = record(randomHash(), 'older', new Date('2026-01-01T00:00:00.000Z'));
      const newer = record(randomHash(), 'newer', new Date('2026-02-01T00:00:00.000Z'));
      await store.addKey(newer);
      await store.addKey(older);
      expect(await store.listKeys()).toEqual([older, newer]);
    });

    it('revokes a key by a unique prefix of its hash, after which it is neither found nor listed', async () => {
      const { store } = await freshStore();
      const kept = record(randomHash(), 'kept');
      const revoked = record(randomHash(), 'revoked');
      await store.addKey(kept);
      await store.addKey(revoked);
      expect(await store.revokeKey(revoked.hash.slice(0, 8).toUpperCase())).toBe(true);
      expect(await store.findKey(revoked.hash)).toBeUndefined();
      expect(await store.listKeys()).toEqual([kept]);
      expect(await store.revokeKey(revoked.hash)).toBe(false);
    });

    it('returns false when no key hash starts with the prefix', async () => {
      const { store } = await freshStore();
      await store.addKey(record(randomHash(), 'someone'));
      const unknown = randomHash();
      expect(await store.revokeKey(unknown.slice(0, 12))).toBe(false);
      expect(await store.listKeys()).toHaveLength(1);
    });

    it('refuses a prefix shared by two keys and revokes neither', async () => {
      const { store } = await freshStore();
      const shared = 'abcdef01';
      const first = record(shared + randomHash().slice(8), 'first');
      const second = record(shared + randomHash().slice(8), 'second');
      await store.addKey(first);
      await store.addKey(second);
      await expect(store.revokeKey(shared)).rejects.toThrow(/matches 2 keys/);
      expect(await store.listKeys()).toHaveLength(2);
    });

    it('refuses a prefix shorter than 8 hex characters', async () => {
      const { store } = await freshStore();
      await expect(store.revokeKey('abc')).rejects.toThrow(/8 to 64 hex characters/);
      await expect(store.revokeKey('zzzzzzzz')).rejects.toThrow(/8 to 64 hex characters/);
    });

    describeNotifyContract(freshStore);
    describeUnknownContract(freshStore);
  });
}
