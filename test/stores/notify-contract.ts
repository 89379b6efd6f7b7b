/**
 * The notification primitives of the store contract (collections, leases, queues): what `src/notify/`
 * relies on, run by every backend inside `describeStoreContract`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import type { StoreUnderTest } from './contract.js';

export function describeNotifyContract(freshStore: () => Promise<StoreUnderTest>): void {
  it('keeps records of a collection apart from another collection, and lists, replaces and deletes them', async () => {
    const { store } = await freshStore();
    expect(await store.recordPut('subs:a', 'one', '{"n":1}')).toBe(true);
    expect(await store.recordPut('subs:a', 'two', '{"n":2}')).toBe(true);
    expect(await store.recordPut('subs:b', 'one', '{"n":3}')).toBe(true);
    expect(await store.recordGet('subs:a', 'one')).toBe('{"n":1}');
    expect(await store.recordGet('subs:a', 'three')).toBeUndefined();
    expect((await store.recordList('subs:a')).sort()).toEqual(['{"n":1}', '{"n":2}']);
    expect(await store.recordPut('subs:a', 'one', '{"n":4}')).toBe(true);
    expect(await store.recordGet('subs:a', 'one')).toBe('{"n":4}');
    expect(await store.recordDelete('subs:a', 'one')).toBe(true);
    expect(await store.recordDelete('subs:a', 'one')).toBe(false);
    expect(await store.recordList('subs:a')).toEqual(['{"n":2}']);
    expect(await store.recordList('nothing-here')).toEqual([]);
  });

  it('writes a record and queues or dequeues its member in one step, only when the condition lets it write', async () => {
    const { store } = await freshStore();
    expect(await store.recordPutQueued('d', 'e1', 'v1', 'absent', 'q', 's e1', 1000)).toBe(true);
    expect(await store.recordPutQueued('d', 'e1', 'v2', 'absent', 'q', 's e1', 5)).toBe(false);
    expect(await store.recordGet('d', 'e1')).toBe('v1');
    expect(await store.queueDue('q', 999, 10)).toEqual([]);
    expect(await store.queueDue('q', 1000, 10)).toEqual(['s e1']);
    expect(await store.recordPutQueued('d', 'e1', 'v3', 'present', 'q', 's e1', 2000)).toBe(true);
    expect(await store.queueDue('q', 1999, 10)).toEqual([]);
    expect(await store.recordPutQueued('d', 'e1', 'v4', 'present', 'q', 's e1', null)).toBe(true);
    expect(await store.recordGet('d', 'e1')).toBe('v4');
    expect(await store.queueDue('q', 10_000, 10)).toEqual([]);
    expect(await store.recordPutQueued('d', 'gone', 'v', 'present', 'q', 's gone', 1)).toBe(false);
    expect(await store.queueDue('q', 10_000, 10)).toEqual([]);
  });

  it('writes a record only when absent or only when present, as asked', async () => {
    const { store } = await freshStore();
    expect(await store.recordPut('c', 'x', 'first', 'present')).toBe(false);
    expect(await store.recordGet('c', 'x')).toBeUndefined();
    expect(await store.recordPut('c', 'x', 'first', 'absent')).toBe(true);
    expect(await store.recordPut('c', 'x', 'second', 'absent')).toBe(false);
    expect(await store.recordGet('c', 'x')).toBe('first');
    expect(await store.recordPut('c', 'x', 'third', 'present')).toBe(true);
    expect(await store.recordGet('c', 'x')).toBe('third');
  });

  it('never lets 30 concurrent new records pass a collection bound of 10, but replaces one already there', async () => {
    const { store } = await freshStore();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, index) => store.recordPut('bounded', `id${index}`, `v${index}`, 'absent', 10)),
    );
    expect(results.filter(Boolean)).toHaveLength(10);
    expect(await store.recordList('bounded')).toHaveLength(10);
    const kept = results.findIndex(Boolean);
    expect(await store.recordPut('bounded', `id${kept}`, 'changed', 'always', 10)).toBe(true);
  });

  it('gives a lease to one owner of many asking at once, renews it for that owner, and frees it on release', async () => {
    const { store } = await freshStore();
    const owners = Array.from({ length: 20 }, (_, index) => `instance-${index}`);
    const granted = await Promise.all(owners.map((owner) => store.leaseAcquire('dispatch', owner, 60_000)));
    expect(granted.filter(Boolean)).toHaveLength(1);
    const holder = owners[granted.indexOf(true)]!;
    const other = owners.find((owner) => owner !== holder)!;
    expect(await store.leaseAcquire('dispatch', holder, 60_000)).toBe(true);
    await store.leaseRelease('dispatch', other);
    expect(await store.leaseAcquire('dispatch', other, 60_000)).toBe(false);
    await store.leaseRelease('dispatch', holder);
    expect(await store.leaseAcquire('dispatch', other, 60_000)).toBe(true);
  });

  it('ends a lease nobody renews once its time has passed', async () => {
    const { store } = await freshStore();
    expect(await store.leaseAcquire('short', 'crashed', 300)).toBe(true);
    expect(await store.leaseAcquire('short', 'next', 300)).toBe(false);
    await sleep(450);
    expect(await store.leaseAcquire('short', 'next', 300)).toBe(true);
  });

  it('hands out the members of a queue that are due, soonest first, up to a limit, until removed', async () => {
    const { store } = await freshStore();
    await store.queueAdd('due', 'later', 3000);
    await store.queueAdd('due', 'first', 1000);
    await store.queueAdd('due', 'second', 2000);
    await store.queueAdd('due', 'future', 9000);
    expect(await store.queueDue('due', 3000, 10)).toEqual(['first', 'second', 'later']);
    expect(await store.queueDue('due', 3000, 2)).toEqual(['first', 'second']);
    await store.queueAdd('due', 'first', 8000);
    await store.queueRemove('due', 'second');
    expect(await store.queueDue('due', 3000, 10)).toEqual(['later']);
    expect(await store.queueDue('due', 10_000, 10)).toEqual(['later', 'first', 'future']);
    expect(await store.queueDue('empty', 10_000, 10)).toEqual([]);
  });
}
