/**
 * `server.removed` for a subscription that watches a server by package or by URL (newcomer's point): the
 * server is gone from the new snapshot, so its package and URL resolve to nothing there; the event is matched
 * against what they resolved to in the snapshot before (memory store, a real local receiver).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNotifications } from '../../src/notify/service.js';
import { loadSnapshot } from '../../src/query/open.js';
import type { QueryEngine } from '../../src/query/types.js';
import { createMemoryStore } from '../../src/stores/memory.js';
import { type Receiver, startReceiver } from './receiver.js';
import { type BuiltSnapshots, buildSnapshots } from './snapshots.js';

describe('server.removed for package and URL watchers', () => {
  let snapshots: BuiltSnapshots;
  let engineA: QueryEngine;
  let engineB: QueryEngine;
  let receiver: Receiver;
  beforeAll(async () => {
    snapshots = await buildSnapshots();
    engineA = await loadSnapshot(snapshots.a);
    engineB = await loadSnapshot(snapshots.b);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    engineA.close();
    engineB.close();
    await receiver.close();
    await snapshots.remove();
  });

  it('sends server.removed to subscriptions watching the removed server by package, by purl and by URL', async () => {
    const clock = { now: Date.UTC(2026, 5, 1) };
    const store = createMemoryStore({ now: () => clock.now });
    const keyHash = 'c'.repeat(64);
    await store.addKey({ hash: keyHash, plan: 'free', label: 't', created_at: new Date(clock.now).toISOString() });
    const settings = { secretsKey: randomBytes(32), allowHttp: true, allowPrivate: true, baseUrl: 'https://t.example' };
    const notifications = createNotifications(store, settings, { now: () => clock.now, random: () => 0.5 })!;
    try {
      const watchers = {
        package: [{ package: 'npm:@example/epsilon' }],
        purl: [{ purl: 'pkg:npm/%40example/epsilon@3.0.0' }],
        url: [{ url: 'https://epsilon.example.com/mcp' }],
        other: [{ package: 'pypi:zeta-mcp' }],
      };
      for (const [path, servers] of Object.entries(watchers)) {
        // Made while snapshot A is served: A is what the items first resolve against.
        await notifications.subscriptions.create(keyHash, { url: `${receiver.url}/${path}`, servers }, engineA);
      }
      receiver.received.length = 0;
      await notifications.dispatcher.run(engineB);
      const got = receiver.received.map((request) => {
        const body = JSON.parse(request.body) as { type: string; data: { server: string } };
        return `${request.path} ${body.type} ${body.data.server}`;
      });
      expect(got.sort()).toEqual([
        '/package server.removed com.example/epsilon',
        '/purl server.removed com.example/epsilon',
        '/url server.removed com.example/epsilon',
      ]);
    } finally {
      notifications.close();
    }
  });
});
