/** CORS (specification section 1, decisions section 5): every origin, the listed headers, preflight 204. */
import { describe, expect, it } from 'vitest';
import { harness } from './harness.js';

const EXPOSED = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, ETag';

describe('CORS', () => {
  it('answers a preflight with 204, every origin, the methods, the request headers and a max age, without a key', async () => {
    const h = await harness();
    const response = await h.call('/v1/servers', {
      method: 'OPTIONS',
      key: null,
      headers: {
        origin: 'https://dashboard.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-api-key, if-none-match',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
    expect(response.headers.get('access-control-allow-headers')).toBe('X-API-Key, Content-Type, If-None-Match');
    expect(response.headers.get('access-control-expose-headers')).toBe(EXPOSED);
    expect(Number(response.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    expect(response.headers.get('x-ratelimit-limit')).toBe('100');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('puts the allow-origin and expose headers on every kind of response', async () => {
    const h = await harness({ config: { freeDailyLimit: 1 } });
    const responses = [
      await h.call('/v1/health', { key: null }),
      await h.call('/v1/stats'), // 200
      await h.call('/v1/stats'), // 429
      await h.call('/v1/stats', { key: null }), // 401
      await h.call('/v1/nope'), // 404
      await h.call('/v1/stats', { method: 'POST' }), // 405
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 429, 401, 404, 405]);
    for (const response of responses) {
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-expose-headers')).toBe(EXPOSED);
    }
  });

  it('does not answer a preflight for a route that does not exist', async () => {
    const h = await harness();
    expect((await h.call('/v1/nope', { method: 'OPTIONS', key: null })).status).toBe(404);
  });
});
