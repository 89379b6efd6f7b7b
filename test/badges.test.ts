/** GET /badges/{namespace}/{id}.svg: keyless, public, safe SVG, at the gateway (Request → Response). */
import { describe, expect, it } from 'vitest';
import { escapeXml, notScoredBadge, trustBadge } from '../src/api/badge.js';
import { harness } from './gateway/harness.js';

describe('the trust badge', () => {
  it('answers a scored server with its score and band, as a public, cacheable SVG that needs no key', async () => {
    const h = await harness();
    const response = await h.call('/badges/io.github.acme/postgres-mcp.svg', { key: null });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300, s-maxage=3600');
    const body = await response.text();
    expect(body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(body).toContain('>91 · High<');
    expect(body).not.toMatch(/<script|href=|xlink|url\(/i);
  });

  it('answers an unknown server with a grey "not scored" badge and status 404, so an image never breaks', async () => {
    const h = await harness();
    const response = await h.call('/badges/io.github.nobody/nothing.svg', { key: null });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(await response.text()).toContain('>not scored<');
  });

  it('escapes a hostile name everywhere it appears', async () => {
    const h = await harness();
    const response = await h.call(`/badges/${encodeURIComponent('a"><img src=x onerror=alert(1)>')}/b.svg`, {
      key: null,
    });
    expect(response.status).toBe(404);
    const body = await response.text();
    expect(body).not.toContain('<img');
    expect(body).toContain('a&#34;&#62;&#60;img src=x onerror=alert(1)&#62;/b: not scored');
    expect(escapeXml(`<&>"'`)).toBe('&#60;&#38;&#62;&#34;&#39;');
    for (const svg of [trustBadge('a<b/c', 50), notScoredBadge('a&b/c')]) expect(svg).not.toMatch(/<b\/c|&b\//);
  });

  it('is never counted, ignores the query string, and answers 304 to its ETag', async () => {
    const h = await harness({ config: { freeDailyLimit: 5 } });
    for (let i = 0; i < 8; i++) {
      const response = await h.call(`/badges/io.github.acme/postgres-mcp.svg?v=${i}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-remaining')).toBe('5');
    }
    expect((await h.call('/v1/stats')).headers.get('x-ratelimit-remaining')).toBe('4');
    const first = await h.call('/badges/io.github.acme/postgres-mcp.svg', { key: null });
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/"/);
    const again = await h.call('/badges/io.github.acme/postgres-mcp.svg', {
      key: null,
      headers: { 'if-none-match': etag! },
    });
    expect(again.status).toBe(304);
  });

  it('answers only GET, HEAD and OPTIONS, and a malformed name with the JSON 400', async () => {
    const h = await harness();
    const post = await h.call('/badges/a/b.svg', { method: 'POST', key: null });
    expect(post.status).toBe(405);
    expect((await h.call('/badges/a%2Fb/c.svg', { key: null })).status).toBe(400);
    expect((await h.call('/badges/a/b.png', { key: null })).status).toBe(404);
  });
});
