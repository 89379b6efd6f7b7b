/** Get Access: POST /v1/keys issues a free-plan key once, keeps only its hash, and is limited per address. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashKey } from '../src/keys/keys.js';
import { loadConfig } from '../src/service/config.js';
import { harness } from './gateway/harness.js';

type Issued = { data: { key: string; plan: string; daily_limit: number; label: string; created_at: string } };

function post(h: Awaited<ReturnType<typeof harness>>, body: unknown, headers: Record<string, string> = {}) {
  return h.gateway(
    new Request('http://localhost/v1/keys', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }),
  );
}

describe('hashKey', () => {
  it('is the SHA-256 of the UTF-8 bytes, lower-case hex', () => {
    // Known vectors: sha256("abc"), and a non-ASCII key hashed as its UTF-8 bytes.
    expect(hashKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashKey('mts_é')).toBe(createHash('sha256').update(Buffer.from('mts_é', 'utf8')).digest('hex'));
  });
});

describe('POST /v1/keys', () => {
  it('issues a free-plan key with no key needed, shows it once, and stores only its hash', async () => {
    const h = await harness();
    const response = await post(h, { label: 'my laptop' });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const { data } = (await response.json()) as Issued;
    expect(data).toMatchObject({ plan: 'free', daily_limit: 100, label: 'self-service: my laptop' });
    expect(data.key).toMatch(/^mts_[A-Za-z0-9_-]{43}$/);
    const stored = await h.store.listKeys();
    expect(stored.map((record) => record.hash)).toContain(hashKey(data.key));
    expect(JSON.stringify(stored)).not.toContain(data.key);
    expect((await h.call('/v1/stats', { key: data.key })).status).toBe(200);
  });

  it('issues a few keys a day per client address, then 429 with Retry-After', async () => {
    const h = await harness({ config: { selfService: { perDay: 2, trustProxy: true } } });
    const from = (address: string) => ({ 'x-forwarded-for': `${address}, 10.0.0.1` });
    expect((await post(h, {}, from('203.0.113.7'))).status).toBe(201);
    expect((await post(h, {}, from('203.0.113.7'))).status).toBe(201);
    const refused = await post(h, {}, from('203.0.113.7'));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/issued 2 keys today/);
    expect((await post(h, {}, from('198.51.100.9'))).status).toBe(201);
  });

  it('ignores X-Forwarded-For unless told the service runs behind a proxy', async () => {
    const h = await harness({ config: { selfService: { perDay: 1 } } });
    expect((await post(h, {}, { 'x-forwarded-for': '203.0.113.1' })).status).toBe(201);
    // A client naming another address is still counted as the same (unknown) connection address.
    expect((await post(h, {}, { 'x-forwarded-for': '203.0.113.2' })).status).toBe(429);
  });

  it('answers 403 when self-service is turned off, and 400 for a bad label', async () => {
    const off = await harness({ config: { selfService: { enabled: false } } });
    const refused = await post(off, {});
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('self_service_disabled');
    const h = await harness();
    const bad = await post(h, { label: 'x'.repeat(101) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/label must be at most 100/);
    expect((await post(h, { other: 1 })).status).toBe(400);
    expect((await h.call('/v1/keys')).status).toBe(405);
  });

  it('reads its settings from the environment, one line for a bad one', () => {
    expect(loadConfig({}).selfService).toEqual({ enabled: true, perDay: 3, trustProxy: false });
    expect(
      loadConfig({ SELF_SERVICE_KEYS: 'off', SELF_SERVICE_KEYS_PER_DAY: '10', TRUST_PROXY: 'true' }).selfService,
    ).toEqual({
      enabled: false,
      perDay: 10,
      trustProxy: true,
    });
    expect(() => loadConfig({ SELF_SERVICE_KEYS: 'maybe' })).toThrow(/SELF_SERVICE_KEYS must be on or off/);
  });
});
