/**
 * The webhook routes' real answers against the OpenAPI document, one for every status it lists: run inside
 * test/openapi.test.ts's "real answers" block, which then checks that no documented status went unchecked.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hashKey } from '../../src/keys/keys.js';
import { createNotifications, type Notifications } from '../../src/notify/service.js';
import { createMemoryStore } from '../../src/stores/memory.js';
import { harness, type Harness, NOW } from '../gateway/harness.js';
import { type Receiver, startReceiver } from './receiver.js';

type Conforms = (response: Response, pathname: string, method?: string) => Promise<Record<string, any> | undefined>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A harness whose gateway has webhooks on (memory store, a local receiver allowed). */
export async function webhookHarness(
  options: Parameters<typeof harness>[0] = {},
): Promise<Harness & { notifications: () => Notifications }> {
  let made: Notifications | undefined;
  const h = await harness({
    ...options,
    webhooks: (store, now) => {
      made = createNotifications(
        store,
        { secretsKey: randomBytes(32), allowHttp: true, allowPrivate: true, baseUrl: 'http://localhost' },
        { now },
      );
      return made?.subscriptions;
    },
  });
  return Object.assign(h, { notifications: () => made! });
}

export function describeWebhookAnswers(conforms: Conforms): void {
  let h: Awaited<ReturnType<typeof webhookHarness>>;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    h = await webhookHarness();
  });
  afterAll(async () => {
    h.notifications().close();
    await receiver.close();
  });

  const create = (url: string, key = h.key) =>
    h.call('/v1/webhooks', { method: 'POST', key, body: JSON.stringify({ url }) });

  it('answers every webhook route with its documented success', async () => {
    const created = await create(`${receiver.url}/hook?token=abc`);
    expect(created.status).toBe(201);
    const body = await conforms(created, '/v1/webhooks', 'POST');
    const id = body?.data.id as string;
    expect(body?.data.secret).toMatch(/^whsec_/);
    const list = await h.call('/v1/webhooks');
    expect(list.status).toBe(200);
    expect((await conforms(list, '/v1/webhooks'))?.data).toHaveLength(1);
    const test = await h.call(`/v1/webhooks/${id}/test`, { method: 'POST' });
    expect(test.status).toBe(200);
    expect((await conforms(test, `/v1/webhooks/${id}/test`, 'POST'))?.data).toMatchObject({
      delivered: true,
      status: 200,
    });
    const one = await h.call(`/v1/webhooks/${id}`);
    expect(one.status).toBe(200);
    expect((await conforms(one, `/v1/webhooks/${id}`))?.data.deliveries).toEqual([]);
    const gone = await h.call(`/v1/webhooks/${id}`, { method: 'DELETE' });
    expect(gone.status).toBe(204);
    await conforms(gone, `/v1/webhooks/${id}`, 'DELETE');
  });

  const ROUTES = [
    ['/v1/webhooks', 'POST'],
    ['/v1/webhooks', 'GET'],
    ['/v1/webhooks/wh_AAAAAAAAAAAAAAAA', 'GET'],
    ['/v1/webhooks/wh_AAAAAAAAAAAAAAAA', 'DELETE'],
    ['/v1/webhooks/wh_AAAAAAAAAAAAAAAA/test', 'POST'],
  ] as const;
  const bodyFor = (method: string, path: string) =>
    method === 'POST' && path === '/v1/webhooks' ? JSON.stringify({ url: 'https://hooks.example.com/' }) : undefined;

  it('answers 400, 401, 404, 405, 414, 429, 502 and 503 on the webhook routes as documented', async () => {
    const limited = await webhookHarness({ config: { freeDailyLimit: 1 } });
    const closed = createMemoryStore({ now: () => NOW });
    await closed.close();
    const down = await webhookHarness({ store: closed, config: { apiKeyHashes: [hashKey('a-static-test-key')] } });
    const off = await harness();
    for (const [path, method] of ROUTES) {
      const body = bodyFor(method, path);
      const expectStatus = async (response: Response, status: number, code?: string) => {
        expect(response.status, `${method} ${path}`).toBe(status);
        const answer = await conforms(response, path, method);
        if (code !== undefined) expect(answer?.error.code).toBe(code);
      };
      await expectStatus(await h.call(`${path}?x=1`, { method, ...(body ? { body } : {}) }), 400, 'invalid_parameter');
      await expectStatus(await h.call(path, { method, key: null, ...(body ? { body } : {}) }), 401, 'missing_api_key');
      if (path !== '/v1/webhooks') await expectStatus(await h.call(path, { method }), 404, 'webhook_not_found');
      await expectStatus(
        await h.call(path, { method: method === 'DELETE' ? 'POST' : 'PUT' }),
        405,
        'method_not_allowed',
      );
      await expectStatus(await h.call(`${path}?q=${'a'.repeat(2048)}`, { method }), 414, 'uri_too_long');
      const key = await limited.issue();
      await limited.call(path, { method, key, ...(body ? { body } : {}) });
      await expectStatus(await limited.call(path, { method, key, ...(body ? { body } : {}) }), 429, 'rate_limited');
      await expectStatus(
        await down.call(path, { method, key: 'a-static-test-key', ...(body ? { body } : {}) }),
        502,
        'store_unavailable',
      );
      await expectStatus(await off.call(path, { method, ...(body ? { body } : {}) }), 503, 'webhooks_not_configured');
    }
    limited.notifications().close();
    down.notifications().close();
  });
}
