/**
 * The notification primitives of the memory store (`NotifyStore`): collections, leases and queues in this
 * process's memory. Each call reads and writes with no `await` between, so it is atomic within the process;
 * like the counters, they are right on one machine only (Redis and Upstash share them between instances).
 */
import type { NotifyStore } from './types.js';

/** Creates the primitives; `now` is the clock leases expire by, `assertOpen` refuses calls after close. */
export function createMemoryNotify(
  now: () => number,
  assertOpen: (what: string) => void,
): NotifyStore & { clear(): void } {
  const collections = new Map<string, Map<string, string>>();
  const leases = new Map<string, { owner: string; until: number }>();
  const queues = new Map<string, Map<string, number>>();

  const collection = (name: string) => {
    let found = collections.get(name);
    if (found === undefined) collections.set(name, (found = new Map()));
    return found;
  };

  return {
    async recordGet(name, id) {
      assertOpen('recordGet');
      return collections.get(name)?.get(id);
    },

    async recordList(name) {
      assertOpen('recordList');
      return [...(collections.get(name)?.values() ?? [])];
    },

    async recordPut(name, id, value, when = 'always', maxSize = 0) {
      assertOpen('recordPut');
      const records = collection(name);
      const exists = records.has(id);
      if ((when === 'absent' && exists) || (when === 'present' && !exists)) return false;
      if (!exists && maxSize > 0 && records.size >= maxSize) return false;
      records.set(id, value);
      return true;
    },

    async recordPutQueued(name, id, value, when, queueName, member, dueAtMs) {
      assertOpen('recordPutQueued');
      const records = collection(name);
      const exists = records.has(id);
      if ((when === 'absent' && exists) || (when === 'present' && !exists)) return false;
      records.set(id, value);
      let queue = queues.get(queueName);
      if (dueAtMs === null) queue?.delete(member);
      else {
        if (queue === undefined) queues.set(queueName, (queue = new Map()));
        queue.set(member, dueAtMs);
      }
      return true;
    },

    async recordDelete(name, id) {
      assertOpen('recordDelete');
      const records = collections.get(name);
      const deleted = records?.delete(id) ?? false;
      if (records !== undefined && records.size === 0) collections.delete(name);
      return deleted;
    },

    async leaseAcquire(name, owner, ttlMs) {
      assertOpen('leaseAcquire');
      const nowMs = now();
      const held = leases.get(name);
      if (held !== undefined && held.until > nowMs && held.owner !== owner) return false;
      leases.set(name, { owner, until: nowMs + ttlMs });
      return true;
    },

    async leaseRelease(name, owner) {
      assertOpen('leaseRelease');
      if (leases.get(name)?.owner === owner) leases.delete(name);
    },

    async queueAdd(name, member, dueAtMs) {
      assertOpen('queueAdd');
      let queue = queues.get(name);
      if (queue === undefined) queues.set(name, (queue = new Map()));
      queue.set(member, dueAtMs);
    },

    async queueDue(name, nowMs, limit) {
      assertOpen('queueDue');
      const due: [string, number][] = [];
      for (const entry of queues.get(name) ?? []) if (entry[1] <= nowMs) due.push(entry);
      // Soonest first, then by member, as a sorted set orders equal scores.
      due.sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      return due.slice(0, limit).map(([member]) => member);
    },

    async queueRemove(name, member) {
      assertOpen('queueRemove');
      queues.get(name)?.delete(member);
    },

    clear() {
      collections.clear();
      leases.clear();
      queues.clear();
    },
  };
}
