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
    const h = await harness({ config: { selfService: { perDay: 2, trustProxyHops: 1 } } });
    // What one appending proxy writes: whatever the client sent, then the address it saw.
    const from = (address: string) => ({ 'x-forwarded-for': `10.0.0.1, ${address}` });
    expect((await post(h, {}, from('203.0.113.7'))).status).toBe(201);
    expect((await post(h, {}, from('203.0.113.7'))).status).toBe(201);
    const refused = await post(h, {}, from('203.0.113.7'));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/issued 2 keys today/);
    expect((await post(h, {}, from('198.51.100.9'))).status).toBe(201);
  });

  it('counts the address the trusted proxy appended, so spoofed entries to its left mint no keys', async () => {
    const h = await harness({ config: { selfService: { perDay: 3, trustProxyHops: 1 } } });
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const spoofed = `198.51.100.${i}, 2001:db8::${i}`;
      statuses.push((await post(h, {}, { 'x-forwarded-for': `${spoofed}, 203.0.113.7` })).status);
    }
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    expect(statuses.slice(3).every((status) => status === 429)).toBe(true);
  });

  it('takes the n-th address from the right behind n proxies', async () => {
    const h = await harness({ config: { selfService: { perDay: 1, trustProxyHops: 2 } } });
    const via = (client: string, spoof: string) => ({ 'x-forwarded-for': `${spoof}, ${client}, 10.0.0.2` });
    expect((await post(h, {}, via('203.0.113.7', '1.1.1.1'))).status).toBe(201);
    expect((await post(h, {}, via('203.0.113.7', '2.2.2.2'))).status).toBe(429);
    expect((await post(h, {}, via('203.0.113.8', '2.2.2.2'))).status).toBe(201);
  });

  it('ignores an entry that is not an IP address: the connection is counted instead', async () => {
    const h = await harness({ config: { selfService: { perDay: 1, trustProxyHops: 1 } } });
    const answers = [];
    for (const header of ['not-an-address', 'a, <script>', '203.0.113.7:80', '999.1.1.1', '', ' , ']) {
      answers.push((await post(h, {}, { 'x-forwarded-for': header })).status);
    }
    // Six different texts, one (unknown) connection address: one key, then refusals.
    expect(answers).toEqual([201, 429, 429, 429, 429, 429]);
  });

  it('counts IPv6 clients by their /64, and an IPv4-mapped address as the IPv4 one', async () => {
    const h = await harness({ config: { selfService: { perDay: 2, trustProxyHops: 1 } } });
    const from = (address: string) => ({ 'x-forwarded-for': address });
    expect((await post(h, {}, from('2001:db8:1:2::1'))).status).toBe(201);
    expect((await post(h, {}, from('2001:DB8:1:2:ffff:ffff:ffff:ffff'))).status).toBe(201);
    expect((await post(h, {}, from('2001:db8:1:2:abcd::9'))).status).toBe(429);
    expect((await post(h, {}, from('2001:db8:1:3::1'))).status).toBe(201);
    expect((await post(h, {}, from('192.0.2.1'))).status).toBe(201);
    expect((await post(h, {}, from('192.0.2.1'))).status).toBe(201);
    expect((await post(h, {}, from('::ffff:192.0.2.1'))).status).toBe(429);
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
    expect(loadConfig({}).selfService).toEqual({ enabled: true, perDay: 3, trustProxyHops: 0 });
    expect(
      loadConfig({ SELF_SERVICE_KEYS: 'off', SELF_SERVICE_KEYS_PER_DAY: '10', TRUST_PROXY: 'true' }).selfService,
    ).toEqual({
      enabled: false,
      perDay: 10,
      trustProxyHops: 1,
    });
    expect(loadConfig({ TRUST_PROXY_HOPS: '2' }).selfService.trustProxyHops).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'false', TRUST_PROXY_HOPS: '0' }).selfService.trustProxyHops).toBe(0);
    expect(() => loadConfig({ TRUST_PROXY_HOPS: '11' })).toThrow(
      /TRUST_PROXY_HOPS must be a whole number from 0 to 10/,
    );
    expect(() => loadConfig({ TRUST_PROXY: 'true', TRUST_PROXY_HOPS: '2' })).toThrow(
      /TRUST_PROXY=true and TRUST_PROXY_HOPS=2 disagree/,
    );
    expect(() => loadConfig({ SELF_SERVICE_KEYS: 'maybe' })).toThrow(/SELF_SERVICE_KEYS must be on or off/);
  });
});
