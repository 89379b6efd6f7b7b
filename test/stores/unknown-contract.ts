/**
 * The unknown-identifier tallies of the store contract: what the gateway's counting and the night's reading
 * rely on, run by every backend inside `describeStoreContract`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import type { StoreUnderTest } from './contract.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export function describeUnknownContract(freshStore: () => Promise<StoreUnderTest>): void {
  it('counts each identifier per day and sums days, most counted first, ties by identifier', async () => {
    const { store } = await freshStore();
    const expireAt = Date.now() + DAY_MS;
    expect(await store.countUnknown('2026-11-28', ['pkg:npm/b', 'pkg:npm/a', 'pkg:npm/b'], 100, expireAt)).toBe(3);
    expect(await store.countUnknown('2026-11-29', ['pkg:npm/a', 'https://x.example/mcp'], 100, expireAt)).toBe(2);
    expect(await store.topUnknown(['2026-11-28', '2026-11-29'], 10)).toEqual([
      { identifier: 'pkg:npm/a', count: 2 },
      { identifier: 'pkg:npm/b', count: 2 },
      { identifier: 'https://x.example/mcp', count: 1 },
    ]);
    expect(await store.topUnknown(['2026-11-29'], 1)).toEqual([{ identifier: 'https://x.example/mcp', count: 1 }]);
    expect(await store.topUnknown(['2026-11-28', '2026-11-28'], 1)).toEqual([{ identifier: 'pkg:npm/b', count: 2 }]);
    expect(await store.topUnknown(['2026-11-27'], 10)).toEqual([]);
  });

  it('refuses a new identifier once a day holds the most distinct ones, and still counts the ones there', async () => {
    const { store } = await freshStore();
    const expireAt = Date.now() + DAY_MS;
    expect(await store.countUnknown('2026-11-29', ['pkg:npm/a', 'pkg:npm/b', 'pkg:npm/c'], 2, expireAt)).toBe(2);
    expect(await store.countUnknown('2026-11-29', ['pkg:npm/d', 'pkg:npm/a'], 2, expireAt)).toBe(1);
    expect(await store.topUnknown(['2026-11-29'], 10)).toEqual([
      { identifier: 'pkg:npm/a', count: 2 },
      { identifier: 'pkg:npm/b', count: 1 },
    ]);
    // Another day has a bound of its own.
    expect(await store.countUnknown('2026-11-30', ['pkg:npm/d'], 2, expireAt)).toBe(1);
  });

  it('never lets concurrent counts together pass the bound on distinct identifiers', async () => {
    const { store } = await freshStore();
    const expireAt = Date.now() + DAY_MS;
    const counted = await Promise.all(
      Array.from({ length: 40 }, (_, index) => store.countUnknown('2026-11-29', [`pkg:npm/p${index}`], 25, expireAt)),
    );
    expect(counted.reduce((sum, value) => sum + value, 0)).toBe(25);
    expect(await store.topUnknown(['2026-11-29'], 100)).toHaveLength(25);
  });

  it('forgets a day at the expiry its first count gave it', async () => {
    const { store } = await freshStore();
    expect(await store.countUnknown('2026-11-29', ['pkg:npm/a'], 10, Date.now() + 1500)).toBe(1);
    // A later count does not move the expiry.
    expect(await store.countUnknown('2026-11-29', ['pkg:npm/a'], 10, Date.now() + DAY_MS)).toBe(1);
    expect(await store.topUnknown(['2026-11-29'], 10)).toEqual([{ identifier: 'pkg:npm/a', count: 2 }]);
    await sleep(2000);
    expect(await store.topUnknown(['2026-11-29'], 10)).toEqual([]);
  });

  it('refuses a malformed day or bound before touching the data', async () => {
    const { store } = await freshStore();
    await expect(store.countUnknown('29/11/2026', ['x'], 10, Date.now() + DAY_MS)).rejects.toThrow(/YYYY-MM-DD/);
    await expect(store.countUnknown('2026-11-29', ['x'], -1, Date.now() + DAY_MS)).rejects.toThrow(/whole number/);
    await expect(store.topUnknown(['2026-11-29'], 1.5)).rejects.toThrow(/whole number/);
  });
}
