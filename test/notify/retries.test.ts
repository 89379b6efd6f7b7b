/**
 * The retry schedule and its end (memory store, an injected clock and jitter, a real local receiver): a day
 * of failures in a few runs, `Retry-After` honoured, the subscription disabled after 24 hours with the
 * reason shown, and a crash between fan-out and delivery picked up by the next run.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveriesOf, decodeDelivery, nextAttemptAt, RETRY_DELAYS_MS } from '../../src/notify/delivery.js';
import { fanOut } from '../../src/notify/fan-out.js';
import { createNotifications } from '../../src/notify/service.js';
import { loadSnapshot } from '../../src/query/open.js';
import type { QueryEngine } from '../../src/query/types.js';
import { createMemoryStore } from '../../src/stores/memory.js';
import { type Receiver, startReceiver } from './receiver.js';
import { type BuiltSnapshots, buildSnapshots } from './snapshots.js';

const HOUR = 60 * 60_000;

describe('retries', () => {
  let snapshots: BuiltSnapshots;
  let engine: QueryEngine;
  let receiver: Receiver;
  beforeAll(async () => {
    snapshots = await buildSnapshots();
    engine = await loadSnapshot(snapshots.b);
    receiver = await startReceiver({ status: 500 });
  });
  afterAll(async () => {
    engine.close();
    await receiver.close();
    await snapshots.remove();
  });

  async function setUp(servers: string[] = ['io.github.acme/gamma']) {
    const clock = { now: Date.UTC(2026, 5, 1) };
    const store = createMemoryStore({ now: () => clock.now });
    const settings = { secretsKey: randomBytes(32), allowHttp: true, allowPrivate: true, baseUrl: 'https://t.example' };
    const notifications = createNotifications(store, settings, { now: () => clock.now, random: () => 0.5 })!;
    const keyHash = 'a'.repeat(64);
    for (const hash of [keyHash, 'b'.repeat(64)])
      await store.addKey({ hash, plan: 'free', label: 'retries', created_at: new Date(clock.now).toISOString() });
    const created = await notifications.subscriptions.create(keyHash, { url: `${receiver.url}/hook`, servers });
    return { clock, store, notifications, keyHash, created };
  }

  it('waits 5 s, 5 min, 30 min, 2 h, 5 h and 10 h with ±10% jitter, then tries once more 24 h after the first', () => {
    const first = 0;
    let now = first;
    const times: number[] = [];
    for (let attempt = 1; ; attempt++) {
      const next = nextAttemptAt(attempt, first, now, undefined, () => 0.5);
      if (next === undefined) break;
      times.push(next - now);
      now = next;
    }
    expect(times).toEqual([...RETRY_DELAYS_MS, 24 * HOUR - RETRY_DELAYS_MS.reduce((a, b) => a + b, 0)]);
    expect(nextAttemptAt(1, 0, 0, undefined, () => 0)).toBe(4500);
    expect(nextAttemptAt(1, 0, 0, undefined, () => 0.999_999)).toBe(5500);
    expect(nextAttemptAt(1, 0, 0, 120_000, () => 0.5)).toBe(120_000);
  });

  it('fails every attempt for a day, then disables the subscription and says why', async () => {
    const { clock, store, notifications, keyHash, created } = await setUp();
    receiver.received.length = 0;
    await notifications.dispatcher.run(engine);
    for (let i = 0; i < 20; i++) {
      const [delivery] = (await store.recordList(deliveriesOf(created.id))).map(decodeDelivery);
      if (delivery?.next_attempt_at === null || delivery?.next_attempt_at === undefined) break;
      clock.now = Date.parse(delivery.next_attempt_at);
      await notifications.dispatcher.run(engine);
    }
    expect(receiver.received).toHaveLength(8);
    expect(new Set(receiver.received.map((request) => request.headers['webhook-id'])).size).toBe(1);
    const shown = await notifications.subscriptions.get(keyHash, created.id);
    expect(shown.status).toBe('disabled');
    expect(shown.disabled_reason).toMatch(
      /^every delivery failed for 24 hours, since 2026-06-01T00:00:00\.000Z; the last answered 500$/,
    );
    expect(shown.deliveries).toEqual([expect.objectContaining({ status: 'failed', attempts: 8, last_status: 500 })]);
    notifications.close();
  });

  it('honours Retry-After', async () => {
    const { clock, store, notifications, created } = await setUp();
    receiver.script = [{ status: 503, headers: { 'retry-after': '600' } }];
    await notifications.dispatcher.run(engine);
    const [delivery] = (await store.recordList(deliveriesOf(created.id))).map(decodeDelivery);
    expect(Date.parse(delivery!.next_attempt_at!) - clock.now).toBe(600_000);
    notifications.close();
  });

  it('delivers what a crashed run fanned out but never sent, once, on the next run', async () => {
    const { clock, store, notifications } = await setUp([]);
    receiver.fallback = { status: 200 };
    receiver.received.length = 0;
    try {
      // Every server: all six events. The "crashed" instance fanned out and stopped.
      const all = await notifications.subscriptions.create('b'.repeat(64), { url: `${receiver.url}/all` });
      await fanOut(store, engine, 'https://t.example', clock.now);
      expect(receiver.received).toHaveLength(0);
      await notifications.dispatcher.run(engine);
      await notifications.dispatcher.run(engine);
      expect(receiver.received.filter((request) => request.path === '/all')).toHaveLength(6);
      expect(
        (await notifications.subscriptions.get('b'.repeat(64), all.id)).deliveries.every(
          (d) => d.status === 'delivered',
        ),
      ).toBe(true);
    } finally {
      receiver.fallback = { status: 500 };
      notifications.close();
    }
  });
});
