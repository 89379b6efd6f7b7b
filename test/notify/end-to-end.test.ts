/**
 * "Done when", end to end: snapshot A served with Redis as the store (a real Redis, a key prefix of this
 * test's own, deleted afterwards), three subscriptions made through the API, snapshot B (built with
 * `previous`) going live, local receivers getting exactly the matching events once each, signed so that
 * `standardwebhooks` verifies them with the secret from the 201; a receiver answering 500 twice then 200
 * getting the same `webhook-id` three times; a 410 disabling; two instances on one Redis delivering once.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../../src/gateway/gateway.js';
import { generateKey, hashKey } from '../../src/keys/keys.js';
import { NOTIFIED_SNAPSHOTS } from '../../src/notify/fan-out.js';
import { createNotifications, type Notifications } from '../../src/notify/service.js';
import { loadSnapshot } from '../../src/query/open.js';
import type { QueryEngine } from '../../src/query/types.js';
import { createRedisStore } from '../../src/stores/redis.js';
import type { Store } from '../../src/stores/types.js';
import { deleteKeysWithPrefix, redisSkipReason, testRedisUrl, withSkipReason } from '../support/redis-server.js';
import { type Receiver, type ReceivedRequest, startReceiver } from './receiver.js';
import { ALL_EVENTS, type BuiltSnapshots, buildSnapshots } from './snapshots.js';

const url = testRedisUrl();
const skipReason = await redisSkipReason(url);

const eventOf = (request: ReceivedRequest) => {
  const body = JSON.parse(request.body) as { type: string; data: { server: string } };
  return `${body.type} ${body.data.server}`;
};

describe.skipIf(skipReason !== undefined)(withSkipReason(`webhooks end to end on Redis at ${url}`, skipReason), () => {
  const prefix = `mts-test-${randomBytes(4).toString('hex')}:`;
  // Near the real time (the library refuses a signature more than 5 minutes off), moved by hand for retries.
  const clock = { now: Date.now() - 150_000 };
  let snapshots: BuiltSnapshots;
  let store: Store;
  let engineA: QueryEngine;
  let engineB: QueryEngine;
  let served: QueryEngine;
  let one: Notifications;
  let two: Notifications;
  let gateway: Gateway;
  let receiver: Receiver;
  let flaky: Receiver;
  let gone: Receiver;
  const key = generateKey();
  const secrets = new Map<string, string>();
  const ids = new Map<string, string>();

  const call = (path: string, method = 'GET', body?: unknown) =>
    gateway(
      new Request(`http://localhost${path}`, {
        method,
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );

  beforeAll(async () => {
    snapshots = await buildSnapshots();
    engineA = await loadSnapshot(snapshots.a);
    engineB = await loadSnapshot(snapshots.b);
    served = engineA;
    store = createRedisStore({ url, prefix, timeoutMs: 5000 });
    await store.addKey({ hash: hashKey(key), plan: 'free', label: 'e2e', created_at: new Date().toISOString() });
    const settings = {
      secretsKey: randomBytes(32),
      allowHttp: true,
      allowPrivate: true,
      baseUrl: 'https://trust.example',
    };
    const options = { now: () => clock.now, random: () => 0.5 };
    one = createNotifications(store, settings, { ...options, owner: 'instance-one' })!;
    two = createNotifications(store, settings, { ...options, owner: 'instance-two' })!;
    gateway = createGateway({
      engine: () => served,
      store,
      config: { freeDailyLimit: 1000 },
      webhooks: one.subscriptions,
    });
    receiver = await startReceiver();
    flaky = await startReceiver();
    flaky.script = [{ status: 500 }, { status: 500 }];
    gone = await startReceiver({ status: 410 });
  });

  afterAll(async () => {
    one?.close();
    two?.close();
    await Promise.all([receiver?.close(), flaky?.close(), gone?.close()]);
    await store?.close();
    await deleteKeysWithPrefix(url, prefix);
    engineA?.close();
    engineB?.close();
    await snapshots?.remove();
  });

  it('makes the subscriptions through the API while snapshot A is served', async () => {
    const subscriptions: [string, unknown][] = [
      ['all', { url: `${receiver.url}/all?token=t` }],
      [
        'named',
        { url: `${receiver.url}/named`, servers: ['io.github.acme/alpha', 'io.github.acme/beta'], min_change: 5 },
      ],
      [
        'configuration',
        {
          url: `${receiver.url}/configuration`,
          servers: [{ package: 'npm:@example/delta' }, { package: 'pypi:zeta-mcp' }],
        },
      ],
      ['flaky', { url: `${flaky.url}/`, servers: ['io.github.acme/gamma'], events: ['flags.raised'] }],
      ['gone', { url: `${gone.url}/`, servers: ['io.github.acme/beta'] }],
    ];
    for (const [name, body] of subscriptions) {
      const response = await call('/v1/webhooks', 'POST', body);
      expect(response.status, name).toBe(201);
      const { data } = (await response.json()) as { data: { id: string; secret: string } };
      ids.set(name, data.id);
      secrets.set(name, data.secret);
    }
    // Nothing goes out for snapshot A: it has no earlier snapshot to compare with.
    const first = await one.dispatcher.run(engineA);
    expect(first.fanOut?.skipped).toBe('no earlier snapshot in its history');
    expect(receiver.received).toHaveLength(0);
  });

  it('delivers exactly the matching events of snapshot B once each, signed, with one instance at work', async () => {
    served = engineB;
    const runs = await Promise.all([one.dispatcher.run(engineB), two.dispatcher.run(engineB)]);
    expect(runs.filter((run) => run.ran).length).toBeGreaterThanOrEqual(1);
    // Both instances keep running, as their timers would; nothing is sent twice.
    for (let i = 0; i < 3; i++) await Promise.all([one.dispatcher.run(engineB), two.dispatcher.run(engineB)]);
    const byPath = (path: string) => receiver.received.filter((request) => request.path.startsWith(path));
    expect(byPath('/all').map(eventOf).sort()).toEqual([...ALL_EVENTS].sort());
    expect(byPath('/named').map(eventOf).sort()).toEqual([
      'label.changed io.github.acme/alpha',
      'score.changed io.github.acme/alpha',
    ]);
    expect(byPath('/configuration').map(eventOf)).toEqual(['flags.cleared com.example/delta']);
    expect(receiver.received).toHaveLength(9);
    for (const request of receiver.received) {
      const name = request.path.slice(1).split('?')[0]!;
      const payload = new Webhook(secrets.get(name)!).verify(request.body, request.headers as Record<string, string>);
      expect(payload).toMatchObject({ type: expect.any(String), timestamp: expect.any(String) });
      expect(() =>
        new Webhook(secrets.get(name === 'all' ? 'named' : 'all')!).verify(
          request.body,
          request.headers as Record<string, string>,
        ),
      ).toThrow();
    }
    const alpha = byPath('/all').find((request) => eventOf(request) === 'score.changed io.github.acme/alpha')!;
    expect(JSON.parse(alpha.body)).toEqual({
      type: 'score.changed',
      timestamp: engineB.snapshot.generatedAt,
      data: {
        server: 'io.github.acme/alpha',
        snapshot: { before: engineA.snapshot.id, after: engineB.snapshot.id },
        trust_score: { old: 80, new: 45 },
        trust_label: { old: 'High Trust', new: 'Low Trust' },
        flags: { old: [], new: [] },
        flags_raised: [],
        flags_cleared: [],
        tools: null,
        advisories_added: [],
        record_url: 'https://trust.example/v1/servers/io.github.acme/alpha',
      },
    });
  });

  it('retries a receiver that answers 500 twice with the same webhook-id, until its 200', async () => {
    expect(flaky.received).toHaveLength(1);
    clock.now += 5_000;
    await Promise.all([one.dispatcher.run(engineB), two.dispatcher.run(engineB)]);
    expect(flaky.received).toHaveLength(2);
    clock.now += 5 * 60_000;
    await Promise.all([two.dispatcher.run(engineB), one.dispatcher.run(engineB)]);
    expect(flaky.received).toHaveLength(3);
    expect(new Set(flaky.received.map((request) => request.headers['webhook-id'])).size).toBe(1);
    for (const request of flaky.received) {
      new Webhook(secrets.get('flaky')!).verify(request.body, request.headers as Record<string, string>);
    }
    const shown = (await (await call(`/v1/webhooks/${ids.get('flaky')}`)).json()) as { data: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(shown.data.deliveries).toEqual([
      expect.objectContaining({
        type: 'flags.raised',
        status: 'delivered',
        attempts: 3,
        last_status: 200,
        last_error: null,
      }),
    ]);
    expect(shown.data.status).toBe('active');
  });

  it('disables a subscription whose receiver answers 410, and says why', async () => {
    expect(gone.received).toHaveLength(1);
    const shown = (await (await call(`/v1/webhooks/${ids.get('gone')}`)).json()) as { data: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(shown.data).toMatchObject({
      status: 'disabled',
      disabled_reason: expect.stringMatching(/answered 410 Gone/),
    });
    clock.now += 24 * 60 * 60_000;
    await one.dispatcher.run(engineB);
    expect(gone.received).toHaveLength(1);
  });

  it('sends nothing again when the fan-out of B is run once more, as after a crash before it was marked', async () => {
    const before = receiver.received.length + flaky.received.length;
    await store.recordDelete(NOTIFIED_SNAPSHOTS, engineB.snapshot.id);
    const run = await one.dispatcher.run(engineB);
    expect(run.fanOut).toMatchObject({ events: ALL_EVENTS.length, queued: 0 });
    await two.dispatcher.run(engineB);
    expect(receiver.received.length + flaky.received.length).toBe(before);
  });
});
