/**
 * Deliveries no subscriber can starve (M3), with real receivers on 127.0.0.1 (hanging, slow, healthy) and
 * the real clock, every wait bounded: healthy receivers get their events while hanging ones time out; a
 * failing receiver is tried once per run, not once per event; the store commands a delivered event costs
 * (figures in docs/performance.md); and a stop that ends the run within its grace, its events still due.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DUE_QUEUE } from '../../src/notify/delivery.js';
import { createNotifications } from '../../src/notify/service.js';
import { loadSnapshot } from '../../src/query/open.js';
import type { QueryEngine } from '../../src/query/types.js';
import { createMemoryStore } from '../../src/stores/memory.js';
import type { NotifyStore, Store } from '../../src/stores/types.js';
import { listenLocally, type LocalServer } from '../support/local-server.js';
import { type BuiltSnapshots, buildSnapshots } from './snapshots.js';

/** A receiver that answers 200 after `delayMs`, or never (`delayMs` undefined); it notes when each arrived. */
async function receiverAnswering(delayMs: number | undefined) {
  const arrivals: number[] = [];
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      arrivals.push(performance.now());
      if (delayMs !== undefined) setTimeout(() => response.writeHead(200).end(), delayMs);
    });
  });
  const local = await listenLocally(server);
  return { ...local, arrivals };
}

type TestReceiver = LocalServer & { arrivals: number[] };

const NOTIFY_METHODS = new Set([
  'recordGet',
  'recordList',
  'recordPut',
  'recordPutQueued',
  'recordDelete',
  'leaseAcquire',
  'leaseRelease',
  'queueAdd',
  'queueDue',
  'queueRemove',
  'findKey',
]);

/** The memory store, counting every command the notifications send it (as Redis would count them). */
function countingStore(store: Store): { store: Store; commands: () => number } {
  let commands = 0;
  const counted = new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function' || !NOTIFY_METHODS.has(String(name))) return value;
      return (...args: unknown[]) => {
        commands++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: counted, commands: () => commands };
}

const settings = { secretsKey: randomBytes(32), allowHttp: true, allowPrivate: true, baseUrl: 'https://t.example' };

describe('fair delivery', { timeout: 60_000 }, () => {
  let snapshots: BuiltSnapshots;
  let engine: QueryEngine;
  const receivers: TestReceiver[] = [];
  beforeAll(async () => {
    snapshots = await buildSnapshots();
    engine = await loadSnapshot(snapshots.b);
  });
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
  });
  afterAll(async () => {
    engine.close();
    await snapshots.remove();
  });

  async function subscribe(store: Store, create: (keyHash: string, url: string) => Promise<unknown>, url: string) {
    const keyHash = randomBytes(32).toString('hex');
    await store.addKey({ hash: keyHash, plan: 'free', label: 'm3', created_at: new Date().toISOString() });
    await create(keyHash, url);
  }

  it('delivers to healthy receivers at once while 12 hanging receivers time out, each tried once', async () => {
    const store = createMemoryStore();
    const notifications = createNotifications(store, settings, {
      concurrency: 4,
      slowAfterMs: 200,
      timeoutMs: 3000,
    })!;
    try {
      const hanging = await Promise.all(Array.from({ length: 12 }, () => receiverAnswering(undefined)));
      const slow = await receiverAnswering(300);
      const healthy = await Promise.all([receiverAnswering(0), receiverAnswering(0)]);
      receivers.push(...hanging, slow, ...healthy);
      const create = (keyHash: string, url: string) => notifications.subscriptions.create(keyHash, { url });
      // The hanging ones first: made first, they come first in the queue's order of equal times too.
      for (const receiver of [...hanging, slow, ...healthy]) await subscribe(store, create, `${receiver.url}/hook`);

      const started = performance.now();
      const report = await notifications.dispatcher.run(engine);
      const took = performance.now() - started;
      // Every subscription watches every server: 6 events each.
      for (const receiver of healthy) {
        expect(receiver.arrivals).toHaveLength(6);
        expect(Math.max(...receiver.arrivals) - started).toBeLessThan(1500);
      }
      expect(slow.arrivals).toHaveLength(6);
      // A hanging receiver is tried once; its other 5 events wait for that attempt's retry time.
      for (const receiver of hanging) expect(receiver.arrivals).toHaveLength(1);
      expect(report).toMatchObject({ delivered: 18, retrying: 12, failed: 0, attempts: 30 });
      expect(took).toBeLessThan(8000);
      expect((await store.queueDue(DUE_QUEUE, Date.now(), 1000)).length).toBe(0);
    } finally {
      notifications.close();
    }
  });

  it('costs at most 4 store commands per delivered event, fan-out included', async () => {
    const { store, commands } = countingStore(createMemoryStore());
    const notifications = createNotifications(store, settings)!;
    try {
      const receiver = await receiverAnswering(0);
      receivers.push(receiver);
      const create = (keyHash: string, url: string) => notifications.subscriptions.create(keyHash, { url });
      for (let i = 0; i < 20; i++) await subscribe(store, create, `${receiver.url}/hook/${i}`);
      const before = commands();
      const report = await notifications.dispatcher.run(engine);
      const perEvent = (commands() - before) / report.delivered;
      console.log(
        `store commands per delivered event: ${perEvent.toFixed(2)} (${commands() - before} for ${report.delivered})`,
      );
      expect(report.delivered).toBe(120);
      expect(perEvent).toBeLessThanOrEqual(4);
    } finally {
      notifications.close();
    }
  });

  it('stops within its grace: attempts under way are interrupted, not counted, and their events stay due', async () => {
    const store = createMemoryStore();
    const notifications = createNotifications(store, settings)!;
    try {
      const hanging = await Promise.all(Array.from({ length: 3 }, () => receiverAnswering(undefined)));
      receivers.push(...hanging);
      const create = (keyHash: string, url: string) =>
        notifications.subscriptions.create(keyHash, { url, servers: ['io.github.acme/beta'] });
      for (const receiver of hanging) await subscribe(store, create, `${receiver.url}/hook`);
      const started = performance.now();
      const run = notifications.dispatcher.run(engine);
      await expect.poll(() => hanging.every((receiver) => receiver.arrivals.length === 1)).toBe(true);
      notifications.dispatcher.stop(500);
      const report = await run;
      // The attempts' own timeout is 10 s: the run ended on the stop's grace instead.
      expect(performance.now() - started).toBeLessThan(3000);
      expect(report).toMatchObject({ attempts: 0, delivered: 0, retrying: 0, failed: 0 });
      expect(await (store as NotifyStore).queueDue(DUE_QUEUE, Date.now(), 100)).toHaveLength(3);
    } finally {
      notifications.close();
    }
  });
});
