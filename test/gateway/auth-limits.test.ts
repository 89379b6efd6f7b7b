/**
 * Keys, daily limits and the store's failure policy (specification sections 5 and 8; decisions sections
 * 5 and 6): the order of checks, what counts, the headers, the reset at midnight UTC, the plans, and 502
 * when the counter store does not answer in time. Request → Response, memory store, fixed clock.
 */
import { describe, expect, it } from 'vitest';
import { generateKey, hashKey } from '../../src/keys/keys.js';
import { createMemoryStore } from '../../src/stores/memory.js';
import type { Store } from '../../src/stores/types.js';
import { errorOf, harness, limitsOf, NEXT_MIDNIGHT, NOW, RESET_SECONDS } from './harness.js';

/** Use up `count` requests of the harness key on a route that always answers 200. */
async function spend(call: (path: string) => Promise<Response>, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const response = await call('/v1/stats');
    if (response.status !== 200) throw new Error(`request ${i + 1} answered ${response.status}`);
  }
}

describe('order of checks', () => {
  it('asks for the key (401) before looking at parameters (400)', async () => {
    const h = await harness();
    const response = await h.call('/v1/servers?limit=0&bogus=1', { key: null });
    expect((await errorOf(response)).code).toBe('missing_api_key');
  });

  it('checks the daily limit (429) before parameters (400) and before the handler (404)', async () => {
    const h = await harness({ config: { freeDailyLimit: 2 } });
    await spend((path) => h.call(path), 2);
    expect((await errorOf(await h.call('/v1/servers?limit=0'))).code).toBe('rate_limited');
    expect((await errorOf(await h.call('/v1/servers/no/such'))).code).toBe('rate_limited');
  });

  it('checks parameters (400) before the handler looks for the server (404)', async () => {
    const h = await harness();
    const response = await h.call('/v1/servers/no/such?extra=1');
    expect((await errorOf(response)).code).toBe('invalid_parameter');
  });

  it('checks the route (404 and 405) before the key', async () => {
    const h = await harness();
    expect((await h.call('/v1/nope', { key: 'wrong' })).status).toBe(404);
    expect((await h.call('/v1/stats', { method: 'POST', key: 'wrong' })).status).toBe(405);
  });
});

describe('counting', () => {
  it('reports 99 remaining on a fresh key, 0 on its hundredth request and 429 with Retry-After on the next', async () => {
    const h = await harness();
    const first = await h.call('/v1/stats');
    expect(limitsOf(first)).toEqual({ limit: '100', remaining: '99', reset: RESET_SECONDS });
    await spend((path) => h.call(path), 98);
    const hundredth = await h.call('/v1/stats');
    expect(hundredth.status).toBe(200);
    expect(hundredth.headers.get('x-ratelimit-remaining')).toBe('0');
    const refused = await h.call('/v1/stats');
    expect(refused.status).toBe(429);
    expect(limitsOf(refused)).toEqual({ limit: '100', remaining: '0', reset: RESET_SECONDS });
    expect(refused.headers.get('retry-after')).toBe(String((NEXT_MIDNIGHT - NOW) / 1000));
    const error = await errorOf(refused);
    expect(error.code).toBe('rate_limited');
    expect(error.message).toMatch(/rate limit/i);
  });

  it('counts 400 and 404 answers and 304 revalidations like any keyed request', async () => {
    const h = await harness();
    expect((await h.call('/v1/servers?limit=999')).status).toBe(400);
    expect((await h.call('/v1/servers/no/such')).status).toBe(404);
    const ok = await h.call('/v1/stats');
    expect(ok.headers.get('x-ratelimit-remaining')).toBe('97');
    const etag = ok.headers.get('etag') ?? '';
    const notModified = await h.call('/v1/stats', { headers: { 'if-none-match': etag } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('x-ratelimit-remaining')).toBe('96');
  });

  it('keeps a separate counter per key', async () => {
    const h = await harness({ config: { freeDailyLimit: 1 } });
    const other = await h.issue();
    expect((await h.call('/v1/stats')).status).toBe(200);
    expect((await h.call('/v1/stats')).status).toBe(429);
    expect((await h.call('/v1/stats', { key: other })).status).toBe(200);
  });

  it('starts a new count at midnight UTC', async () => {
    const h = await harness({ config: { freeDailyLimit: 1 } });
    await h.call('/v1/stats');
    expect((await h.call('/v1/stats')).status).toBe(429);
    h.clock.now = NEXT_MIDNIGHT;
    const tomorrow = await h.call('/v1/stats');
    expect(tomorrow.status).toBe(200);
    expect(tomorrow.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(tomorrow.headers.get('x-ratelimit-reset')).toBe(String(NEXT_MIDNIGHT / 1000 + 86_400));
  });

  it('never tells a client to retry in less than one second', async () => {
    const h = await harness({ config: { freeDailyLimit: 1 } });
    h.clock.now = NEXT_MIDNIGHT - 200;
    await h.call('/v1/stats');
    const refused = await h.call('/v1/stats');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
  });

  it('gives exactly 100 answers that are not 429 to 150 parallel requests on a fresh key', async () => {
    const h = await harness();
    const responses = await Promise.all(Array.from({ length: 150 }, () => h.call('/v1/servers?limit=1')));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status !== 429)).toHaveLength(100);
    expect(statuses.filter((status) => status === 429)).toHaveLength(50);
    const remaining = responses
      .filter((r) => r.status === 200)
      .map((r) => Number(r.headers.get('x-ratelimit-remaining')));
    expect(new Set(remaining).size).toBe(100); // every counted request saw its own count
  });
});

describe('keys and plans', () => {
  it('accepts API_KEYS keys (given as hashes) as free-plan keys', async () => {
    const plain = generateKey();
    const h = await harness({ config: { apiKeyHashes: [hashKey(plain)], freeDailyLimit: 3 } });
    const response = await h.call('/v1/stats', { key: plain });
    expect(response.status).toBe(200);
    expect(limitsOf(response)).toMatchObject({ limit: '3', remaining: '2' });
  });

  it('refuses a key that is neither an API_KEYS key nor in the store, and takes both that are', async () => {
    const plain = generateKey();
    const h = await harness({ config: { apiKeyHashes: [hashKey(plain)] } });
    const refused = await h.call('/v1/stats', { key: generateKey() });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
    expect((await h.call('/v1/stats', { key: plain })).status).toBe(200);
    expect((await h.call('/v1/stats')).status).toBe(200); // the harness's key, from the store
  });

  it('applies FREE_DAILY_LIMIT to free keys and to the limit reported without a key', async () => {
    const h = await harness({ config: { freeDailyLimit: 7 } });
    expect((await h.call('/v1/stats')).headers.get('x-ratelimit-limit')).toBe('7');
    expect((await h.call('/v1/health', { key: null })).headers.get('x-ratelimit-limit')).toBe('7');
    expect((await h.call('/v1/stats', { key: null })).headers.get('x-ratelimit-remaining')).toBe('7');
  });

  it('gives a pro-plan key its 10,000 a day whatever FREE_DAILY_LIMIT says', async () => {
    const h = await harness({ config: { freeDailyLimit: 5 } });
    const pro = await h.issue('pro');
    const response = await h.call('/v1/stats', { key: pro });
    expect(limitsOf(response)).toMatchObject({ limit: '10000', remaining: '9999' });
  });

  it('refuses a revoked key with 401', async () => {
    const h = await harness();
    expect((await h.call('/v1/stats')).status).toBe(200);
    expect(await h.store.revokeKey(hashKey(h.key).slice(0, 8))).toBe(true);
    const response = await h.call('/v1/stats');
    expect((await errorOf(response)).code).toBe('invalid_api_key');
  });

  it('refuses an absurdly long key without looking it up', async () => {
    const h = await harness();
    expect((await errorOf(await h.call('/v1/stats', { key: 'k'.repeat(5000) }))).code).toBe('invalid_api_key');
  });
});

/**
 * The store failure policy. These stores are real `Store` implementations whose backend never answers (a
 * promise that never settles) or refuses: what a Redis that hangs or is down looks like to the gateway.
 * Nothing here shortens the timeout: the gateway's own bound (1000 ms) must end the wait.
 */
describe('when the counter store does not answer', () => {
  function failing(overrides: Partial<Store>): { store: Store; key: string } {
    const base = createMemoryStore({ now: () => NOW });
    const key = generateKey();
    void base.addKey({ hash: hashKey(key), plan: 'free', label: 'test', created_at: new Date(NOW).toISOString() });
    return { store: { ...base, kind: base.kind, ...overrides }, key };
  }
  const never = () => new Promise<never>(() => {});

  it('answers 502 store_unavailable within about a second when the increment never settles, and lets nothing through', async () => {
    const { store, key } = failing({ increment: never });
    const h = await harness({ store });
    const started = performance.now();
    const responses = await Promise.all(Array.from({ length: 5 }, () => h.call('/v1/stats', { key })));
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(1600);
    for (const response of responses) {
      expect(response.status).toBe(502);
      expect((await errorOf(response)).code).toBe('store_unavailable');
      expect(response.headers.get('x-ratelimit-limit')).toBe('100');
      expect(response.headers.get('x-ratelimit-remaining')).toBe('100'); // the count is unknown
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('answers 502 when the key lookup never settles', async () => {
    const { store, key } = failing({ findKey: never });
    const h = await harness({ store });
    const started = performance.now();
    const response = await h.call('/v1/servers', { key });
    expect(response.status).toBe(502);
    expect(performance.now() - started).toBeLessThan(1600);
  });

  it('answers 502 at once when the store refuses', async () => {
    const { store, key } = failing({ increment: () => Promise.reject(new Error('ECONNREFUSED')) });
    const h = await harness({ store });
    const started = performance.now();
    const response = await h.call('/v1/search?q=mcp', { key });
    expect(performance.now() - started).toBeLessThan(200);
    const error = await errorOf(response);
    expect(error.code).toBe('store_unavailable');
    expect(error.message).not.toContain('ECONNREFUSED'); // the backend's own error stays in the server's logs
  });

  it('still answers health without a key, reporting the store as unavailable', async () => {
    const { store } = failing({ ping: never, dataKept: never });
    const h = await harness({ store });
    const response = await h.call('/v1/health', { key: null });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { status: string; store: { status: string } } };
    expect(body.data.status).toBe('degraded');
    expect(body.data.store.status).toBe('unavailable');
  });
});
