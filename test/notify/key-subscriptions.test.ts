/**
 * Webhook subscriptions through the gateway (memory store, a fixed clock): per key, bounded, validated,
 * the secret shown once and kept only sealed, and nothing of them in a log line.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { errorOf, envelopeOf, harness } from '../gateway/harness.js';
import { subscriptionsOf } from '../../src/notify/subscription-schema.js';
import { hashKey } from '../../src/keys/keys.js';
import { type Receiver, startReceiver } from './receiver.js';
import { webhookHarness } from './openapi-answers.js';

type Created = {
  id: string;
  secret: string;
  url: string;
  events: string[];
  servers: unknown;
  min_change: number | null;
};

describe('webhook subscriptions', () => {
  let receiver: Receiver;
  let h: Awaited<ReturnType<typeof webhookHarness>>;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());
  afterEach(() => h?.notifications().close());

  const post = (body: unknown, key?: string) =>
    h.call('/v1/webhooks', { method: 'POST', body: JSON.stringify(body), ...(key === undefined ? {} : { key }) });

  it('creates a subscription with every event by default and shows its secret only in the 201', async () => {
    h = await webhookHarness();
    const response = await post({ url: `${receiver.url}/in?token=s3cr3t-query` });
    expect(response.status).toBe(201);
    const { data } = await envelopeOf<Created>(response);
    expect(data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(data.events).toEqual([
      'score.changed',
      'label.changed',
      'flags.raised',
      'flags.cleared',
      'server.removed',
      'tools.changed',
      'advisory.added',
    ]);
    expect(data.servers).toBeNull();
    const listed = JSON.stringify(await (await h.call('/v1/webhooks')).json());
    const shown = JSON.stringify(await (await h.call(`/v1/webhooks/${data.id}`)).json());
    for (const text of [listed, shown]) {
      expect(text).toContain(data.id);
      expect(text).not.toContain(data.secret);
      expect(text).not.toContain('secret');
    }
    // At rest: sealed, so neither the secret nor its base64 body is in what the store keeps.
    const stored = await h.store.recordGet(subscriptionsOf(hashKey(h.key)), data.id);
    expect(stored).toBeDefined();
    expect(stored).not.toContain(data.secret.slice('whsec_'.length));
    // The secret works: the test ping verifies with it (signed now: the library refuses an old timestamp).
    h.clock.now = Date.now();
    receiver.received.length = 0;
    expect((await h.call(`/v1/webhooks/${data.id}/test`, { method: 'POST' })).status).toBe(200);
    const [ping] = receiver.received;
    const payload = new Webhook(data.secret).verify(ping!.body, ping!.headers as Record<string, string>);
    expect(payload).toMatchObject({ type: 'ping', data: { subscription_id: data.id } });
    // No log line holds the receiver's query string or the secret.
    const logs = JSON.stringify(h.logs);
    expect(logs).not.toContain('s3cr3t-query');
    expect(logs).not.toContain(data.secret);
  });

  it('keeps events, servers as POST /v1/check takes them and min_change', async () => {
    h = await webhookHarness();
    const servers = [
      'io.github.acme/postgres-mcp',
      { package: 'npm:@acme/postgres-mcp' },
      { url: 'https://slack.acme.io/mcp' },
    ];
    const response = await post({
      url: `${receiver.url}/`,
      events: ['flags.raised', 'score.changed'],
      servers,
      min_change: 5,
    });
    const { data } = await envelopeOf<Created>(response);
    expect(data).toMatchObject({ events: ['score.changed', 'flags.raised'], servers, min_change: 5 });
  });

  const hook = 'https://hooks.example.com/';
  it.each([
    ['user info in the url', { url: 'https://user:pw@hooks.example.com/' }, /user info/],
    ['a url over 2,000 characters', { url: `${hook}${'a'.repeat(2000)}` }, /at most 2000 characters/],
    ['an unknown event type', { url: hook, events: ['score.moved'] }, /each of events is one of/],
    ['an empty event list', { url: hook, events: [] }, /at least one event type/],
    ['a server item that is no name', { url: hook, servers: ['not a name'] }, /servers\.0: name must/],
    ['501 servers', { url: hook, servers: Array.from({ length: 501 }, (_, i) => `a.b/s${i}`) }, /at most 500 items/],
    ['min_change 0', { url: hook, min_change: 0 }, /min_change must be a whole number of points from 1 to 100/],
    ['a fractional min_change', { url: hook, min_change: 2.5 }, /min_change must be a whole number/],
    ['an unknown member', { url: hook, other: 1 }, /other/],
    ['no url', {}, /url/],
  ])('refuses %s with a 400 naming the rule', async (_name, body, rule) => {
    h = await webhookHarness();
    const response = await post(body);
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('invalid_body');
    expect(error.message).toMatch(rule as RegExp);
  });

  it('refuses http:// unless WEBHOOKS_ALLOW_HTTP, and a receiver on a private network, naming the rule', async () => {
    const { createNotifications } = await import('../../src/notify/service.js');
    const strict = await harness({
      webhooks: (store, now) =>
        createNotifications(
          store,
          { secretsKey: Buffer.alloc(32, 7), allowHttp: false, allowPrivate: false, baseUrl: 'x' },
          { now },
        )?.subscriptions,
    });
    const call = (url: string) => strict.call('/v1/webhooks', { method: 'POST', body: JSON.stringify({ url }) });
    const http = await errorOf(await call('http://hooks.example.com/'));
    expect(http).toMatchObject({ code: 'invalid_body', message: 'url must start with https://' });
    const loopback = await errorOf(await call('https://127.0.0.1/hook'));
    expect(loopback).toMatchObject({ code: 'address_not_allowed', message: expect.stringMatching(/loopback address/) });
    const metadata = await errorOf(await call('https://169.254.169.254/latest/meta-data'));
    expect(metadata.message).toMatch(/cloud metadata service/);
    const named = await errorOf(await call('https://localhost:8443/hook'));
    expect(named).toMatchObject({ code: 'address_not_allowed', message: expect.stringMatching(/host is not allowed/) });
    expect(named.message).not.toMatch(/127\.0\.0\.1|::1|loopback|resolves to/);
  });

  it('allows 10 subscriptions per key and answers the 11th with a 400, while another key still has room', async () => {
    h = await webhookHarness();
    for (let i = 0; i < 10; i++) expect((await post({ url: `${receiver.url}/${i}` })).status).toBe(201);
    const eleventh = await post({ url: `${receiver.url}/10` });
    expect(eleventh.status).toBe(400);
    expect(await errorOf(eleventh)).toMatchObject({ code: 'too_many_webhooks' });
    const other = await h.issue();
    expect((await post({ url: `${receiver.url}/other` }, other)).status).toBe(201);
    expect((await envelopeOf<unknown[]>(await h.call('/v1/webhooks'))).data).toHaveLength(10);
  });

  it("lets a key see, test and delete only its own subscriptions: another key's id is a 404", async () => {
    h = await webhookHarness();
    const { data } = await envelopeOf<Created>(await post({ url: `${receiver.url}/mine` }));
    const other = await h.issue();
    for (const [path, method] of [
      [`/v1/webhooks/${data.id}`, 'GET'],
      [`/v1/webhooks/${data.id}/test`, 'POST'],
      [`/v1/webhooks/${data.id}`, 'DELETE'],
    ] as const) {
      const response = await h.call(path, { method, key: other });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect((await errorOf(response)).code).toBe('webhook_not_found');
    }
    expect((await envelopeOf<unknown[]>(await h.call('/v1/webhooks', { key: other }))).data).toEqual([]);
    expect((await h.call(`/v1/webhooks/${data.id}`)).status).toBe(200);
    expect((await h.call(`/v1/webhooks/${data.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await h.call(`/v1/webhooks/${data.id}`)).status).toBe(404);
    expect((await h.call(`/v1/webhooks/${data.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('counts every webhook request against the daily limit, like any keyed request', async () => {
    h = await webhookHarness();
    const first = await h.call('/v1/webhooks');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('99');
    await post({ url: `${receiver.url}/` });
    const third = await h.call('/v1/webhooks/wh_AAAAAAAAAAAAAAAA');
    expect(third.status).toBe(404);
    expect(third.headers.get('x-ratelimit-remaining')).toBe('97');
  });

  it('answers 503 naming WEBHOOK_SECRETS_KEY on the webhook routes only when it is not set', async () => {
    const off = await harness();
    for (const [path, method] of [
      ['/v1/webhooks', 'GET'],
      ['/v1/webhooks', 'POST'],
      ['/v1/webhooks/wh_AAAAAAAAAAAAAAAA', 'GET'],
      ['/v1/webhooks/wh_AAAAAAAAAAAAAAAA', 'DELETE'],
      ['/v1/webhooks/wh_AAAAAAAAAAAAAAAA/test', 'POST'],
    ] as const) {
      const response = await off.call(path, {
        method,
        ...(method === 'POST' && path === '/v1/webhooks' ? { body: '{"url":"https://a.example/"}' } : {}),
      });
      expect(response.status).toBe(503);
      const error = await errorOf(response);
      expect(error.code).toBe('webhooks_not_configured');
      expect(error.message).toMatch(/set WEBHOOK_SECRETS_KEY/);
    }
    for (const path of ['/v1/stats', '/v1/servers', '/v1/health']) expect((await off.call(path)).status).toBe(200);
  });

  it('answers a preflight and a wrong method with the methods of the whole path', async () => {
    h = await webhookHarness();
    const preflight = await h.call('/v1/webhooks', { method: 'OPTIONS', key: null });
    expect(preflight.status).toBe(204);
    const put = await h.call('/v1/webhooks/wh_AAAAAAAAAAAAAAAA', { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, DELETE, OPTIONS');
    expect((await h.call('/v1/webhooks', { method: 'DELETE' })).headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
  });
});
