/**
 * The response cache (specification 8.7, decisions section 5): `meta.cached` exactly when the body came
 * from the cache, at most one hour, bounded, keyed by snapshot and normalised request; ETag and 304.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_CACHE_TTL_MS, ResponseCache, type CachedAnswer } from '../../src/gateway/cache.js';
import { bodyBytes } from '../../src/gateway/respond.js';
import type { QueryEngine } from '../../src/query/types.js';
import { loadSnapshot } from '../../src/query/open.js';
import { buildTestSnapshot, makeRecord } from '../support/records.js';
import { envelopeOf, harness, NOW, testEngine } from './harness.js';

const answer = (data: string): CachedAnswer => ({ etag: 'W/"x"', data, metaTail: '' });

/** The answers a cache holds, least recently used first (read through its entries, for these tests only). */
function cacheEntries(cache: ResponseCache): CachedAnswer[] {
  return [...(cache as unknown as { entries: Map<string, { answer: CachedAnswer }> }).entries.values()].map(
    (entry) => entry.answer,
  );
}

describe('meta.cached', () => {
  it('is false on the first request and true on the same request again, with the same data', async () => {
    const h = await harness();
    for (const path of ['/v1/stats', '/v1/servers?limit=2', '/v1/servers/com.example/mcp', '/v1/search?q=slack']) {
      const first = await envelopeOf(await h.call(path));
      const second = await envelopeOf(await h.call(path));
      expect(first.meta.cached, path).toBe(false);
      expect(second.meta.cached, path).toBe(true);
      expect(second.data).toEqual(first.data);
      expect({ ...second.meta, cached: false }).toEqual(first.meta);
    }
    expect(h.logs.map((line) => line.cached)).toEqual([false, true, false, true, false, true, false, true]);
  });

  it('keeps an answer of records as its ids, off the heap, until it is asked for again, then as its bytes', async () => {
    const h = await harness();
    // Bytes (a binary string) as their text, to compare with the bodies.
    const kept = () =>
      [...cacheEntries(h.gateway.cache)].map((entry) =>
        typeof entry.data === 'object' && 'binary' in entry.data
          ? Buffer.from(entry.data.binary, 'latin1').toString('utf8')
          : entry.data,
      );
    const path = '/v1/servers?limit=3';
    const bodies = [];
    for (let i = 0; i < 3; i++) {
      bodies.push(await envelopeOf(await h.call(path)));
      if (i === 0) {
        // The page's ids, in the first-ask store: nothing in the map.
        expect(kept()).toEqual([]);
        expect(h.gateway.cache.firstAskCount).toBe(1);
      } else {
        expect(kept()).toEqual([JSON.stringify(bodies[0]!.data)]);
        expect(h.gateway.cache.firstAskCount).toBe(0);
      }
    }
    expect(bodies.map((body) => body.meta.cached)).toEqual([false, true, true]);
    expect(bodies[1]!.data).toEqual(bodies[0]!.data);
    expect(bodies[2]!.data).toEqual(bodies[0]!.data);
    expect({ ...bodies[1]!.meta, cached: false }).toEqual(bodies[0]!.meta);
    // One record: its id, then its bytes.
    await h.call('/v1/servers/com.example/mcp');
    expect(kept()).toHaveLength(1);
    expect(h.gateway.cache.firstAskCount).toBe(1);
    const again = await envelopeOf(await h.call('/v1/servers/com.example/mcp'));
    expect(again.meta.cached).toBe(true);
    expect(kept()[1]).toBe(JSON.stringify(again.data));
  });

  it('keeps an answer of records in the map at once when it is too large for the first-ask store', async () => {
    // A sixteenth of 4 KB is a ring of 256 bytes; its entries are at most 4 bytes, less than any answer.
    const h = await harness({ config: { cache: { maxBytes: 4096 } } });
    const first = await envelopeOf(await h.call('/v1/servers?limit=2'));
    expect(h.gateway.cache.firstAskCount).toBe(0);
    expect(cacheEntries(h.gateway.cache).map((entry) => entry.data)).toEqual([expect.any(Array)]);
    const second = await envelopeOf(await h.call('/v1/servers?limit=2'));
    expect([first.meta.cached, second.meta.cached]).toEqual([false, true]);
    expect(second.data).toEqual(first.data);
  });

  it('keeps an answer asked for again no longer than it would have been kept at first', async () => {
    const h = await harness();
    await h.call('/v1/servers?limit=2');
    h.clock.now = NOW + MAX_CACHE_TTL_MS - 2;
    expect((await envelopeOf(await h.call('/v1/servers?limit=2'))).meta.cached).toBe(true);
    h.clock.now = NOW + MAX_CACHE_TTL_MS - 1;
    expect((await envelopeOf(await h.call('/v1/servers?limit=2'))).meta.cached).toBe(true);
    h.clock.now = NOW + MAX_CACHE_TTL_MS;
    expect((await envelopeOf(await h.call('/v1/servers?limit=2'))).meta.cached).toBe(false);
  });

  it('answers records as their stored UTF-8 bytes, the length exact, the same on every request', async () => {
    // Characters of one, two, three and four bytes, and an escaped one, in the records' text.
    const description = 'Prévisions météo — 日本の天気 😀, "quoted" \\ and a tab\t';
    const engine = await loadSnapshot(
      await buildTestSnapshot([
        makeRecord({ name: 'io.github.météo/prévisions', description }),
        makeRecord({ name: 'io.github.acme/plain' }),
      ]),
    );
    const h = await harness({ engine });
    const headers = new Map([['x-api-key', h.key]]);
    const send = (url: string) =>
      h.gateway.handle({ method: 'GET', url, headers: { get: (name) => headers.get(name.toLowerCase()) ?? null } });
    for (const url of [
      '/v1/servers/io.github.m%C3%A9t%C3%A9o/pr%C3%A9visions',
      '/v1/servers?sort=name',
      '/v1/search?q=previsions',
    ]) {
      const bodies: string[] = [];
      for (let i = 0; i < 3; i++) {
        const response = await send(url);
        expect(response.status, url).toBe(200);
        const bytes = Buffer.from(bodyBytes(response));
        expect(response.headers['content-length']).toBe(String(bytes.length));
        bodies.push(bytes.toString('utf8'));
      }
      // Computed, then from the ids, then from the kept bytes: the same text but for `cached`.
      expect(bodies[1]).toBe(bodies[0]!.replace('"cached":false', '"cached":true'));
      expect(bodies[2]).toBe(bodies[1]);
      const data = (JSON.parse(bodies[0]!) as { data: unknown }).data;
      const records = Array.isArray(data) ? data : [data];
      expect(records).toContainEqual(expect.objectContaining({ description }));
    }
    const record = JSON.parse(engine.getJson('io.github.météo/prévisions') ?? '') as unknown;
    const viaWeb = await envelopeOf(await h.call('/v1/servers/io.github.m%C3%A9t%C3%A9o/pr%C3%A9visions'));
    expect(viaWeb.data).toEqual(record);
  });

  it('treats requests that differ only in what normalisation removes as one entry', async () => {
    const h = await harness();
    await h.call('/v1/servers/io.github.acme/slack-bot');
    expect((await envelopeOf(await h.call('/v1/servers/IO.github.acme/SLACK-BOT'))).meta.cached).toBe(true);
    await h.call('/v1/servers?order=asc&limit=5');
    expect((await envelopeOf(await h.call('/v1/servers?limit=5&order=ASC'))).meta.cached).toBe(true);
    await h.call('/v1/servers?flags=NO_SOURCE');
    expect((await envelopeOf(await h.call('/v1/servers?flags=no_source'))).meta.cached).toBe(true);
  });

  it('keeps requests with different answers apart', async () => {
    const h = await harness();
    await h.call('/v1/servers?limit=1');
    expect((await envelopeOf(await h.call('/v1/servers?limit=2'))).meta.cached).toBe(false);
    await h.call('/v1/search?q=slack');
    expect((await envelopeOf(await h.call('/v1/search?q=slack&limit=1'))).meta.cached).toBe(false);
  });

  it('is false on health, always', async () => {
    const h = await harness();
    await h.call('/v1/health');
    expect((await envelopeOf(await h.call('/v1/health'))).meta.cached).toBe(false);
  });

  it('never serves an entry older than one hour', async () => {
    const h = await harness();
    await h.call('/v1/stats');
    h.clock.now = NOW + MAX_CACHE_TTL_MS - 1;
    expect((await envelopeOf(await h.call('/v1/stats'))).meta.cached).toBe(true);
    h.clock.now = NOW + MAX_CACHE_TTL_MS;
    expect((await envelopeOf(await h.call('/v1/stats'))).meta.cached).toBe(false);
  });

  it('clamps a configured time to live to one hour', async () => {
    const h = await harness({ config: { cache: { ttlMs: 10 * MAX_CACHE_TTL_MS } } });
    await h.call('/v1/stats');
    h.clock.now = NOW + MAX_CACHE_TTL_MS;
    expect((await envelopeOf(await h.call('/v1/stats'))).meta.cached).toBe(false);
  });

  it('does not answer from an entry of another snapshot after the engine changes', async () => {
    const first = await testEngine();
    const second = await loadSnapshot(await buildTestSnapshot([makeRecord({ name: 'only/one' })]));
    let current: QueryEngine = first;
    const h = await harness({ engine: () => current });
    await h.call('/v1/stats');
    current = second;
    const body = await envelopeOf<{ total_servers: number }>(await h.call('/v1/stats'));
    expect(body.meta.cached).toBe(false);
    expect(body.data.total_servers).toBe(1);
    expect(body.meta.snapshot_id).toBe(second.snapshot.id);
  });
});

describe('ETag and If-None-Match', () => {
  it('gives the same weak ETag to the computed and the cached answer, and a different one to another request', async () => {
    const h = await harness();
    const a = (await h.call('/v1/servers?limit=1')).headers.get('etag');
    const b = (await h.call('/v1/servers?limit=1')).headers.get('etag');
    const c = (await h.call('/v1/servers?limit=2')).headers.get('etag');
    expect(a).toMatch(/^W\/"[^"]+"$/);
    expect(b).toBe(a);
    expect(c).not.toBe(a);
  });

  it('answers 304 with no body and only cache, CORS and limit headers to a matching If-None-Match', async () => {
    const h = await harness();
    const etag = (await h.call('/v1/stats')).headers.get('etag') ?? '';
    for (const header of [etag, etag.slice(2), `"other", ${etag}`, '*']) {
      const response = await h.call('/v1/stats', { headers: { 'if-none-match': header } });
      expect(response.status, header).toBe(304);
      expect(await response.text()).toBe('');
      expect(response.headers.get('etag')).toBe(etag);
      expect(response.headers.get('cache-control')).toBe('private');
      expect(response.headers.get('content-type')).toBeNull();
      expect(response.headers.get('x-ratelimit-remaining')).not.toBeNull();
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  it('answers 200 to an If-None-Match that does not match, and 404 stays 404 whatever it says', async () => {
    const h = await harness();
    expect((await h.call('/v1/stats', { headers: { 'if-none-match': 'W/"nope"' } })).status).toBe(200);
    expect((await h.call('/v1/servers/no/such', { headers: { 'if-none-match': '*' } })).status).toBe(404);
  });
});

describe('ResponseCache', () => {
  it('evicts the least recently used entry past the entry bound', () => {
    const cache = new ResponseCache({ maxEntries: 2 });
    cache.set('a', answer('1'), 0);
    cache.set('b', answer('2'), 0);
    cache.get('a', 0); // a is now the most recently used
    cache.set('c', answer('3'), 0);
    expect(cache.get('b', 0)).toBeUndefined();
    expect(cache.get('a', 0)?.data).toBe('1');
    expect(cache.get('c', 0)?.data).toBe('3');
    expect(cache.size).toBe(2);
  });

  it('stays within its byte bound', () => {
    const cache = new ResponseCache({ maxBytes: 1000 });
    for (let i = 0; i < 50; i++) cache.set(`k${i}`, answer('x'.repeat(100)), 0);
    expect(cache.totalBytes).toBeLessThanOrEqual(1000);
    expect(cache.size).toBeGreaterThan(0);
    expect(cache.get('k49', 0)).toBeDefined();
  });

  it('does not keep one answer larger than a quarter of the byte bound', () => {
    const cache = new ResponseCache({ maxBytes: 1000 });
    cache.set('big', answer('x'.repeat(300)), 0);
    expect(cache.get('big', 0)).toBeUndefined();
  });

  it('turns records kept as ids into their JSON, text or bytes, with the same expiry, counting the new size', () => {
    const cache = new ResponseCache({ maxBytes: 1000, ttlMs: 100 });
    cache.set('page', { etag: 'W/"x"', data: [4, 2, 7], metaTail: '' }, 0);
    expect(cache.totalBytes).toBe('page'.length + 3 * 8 + 'W/"x"'.length);
    cache.set('one', { etag: 'W/"x"', data: 9, metaTail: '' }, 50);
    cache.keepData('page', '[{"a":1}]');
    expect(cache.get('page', 99)?.data).toBe('[{"a":1}]');
    expect(cache.totalBytes).toBe('page'.length + 9 + 'W/"x"'.length + 'one'.length + 8 + 'W/"x"'.length);
    expect(cache.get('page', 100)).toBeUndefined(); // expired when the ids would have
    const bytes = { binary: Buffer.from('{"é":1}').toString('latin1') }; // 8 bytes for 7 characters
    cache.keepData('one', bytes);
    expect(cache.get('one', 60)?.data).toBe(bytes);
    expect(cache.totalBytes).toBe('one'.length + 8 + 'W/"x"'.length);
    cache.keepData('one', 'x'.repeat(300)); // past a quarter of the bound: dropped, not kept as ids
    expect(cache.get('one', 60)).toBeUndefined();
    expect(cache.totalBytes).toBe(0);
    cache.keepData('absent', 'text'); // nothing to replace: nothing kept
    expect(cache.size).toBe(0);
  });

  it('keeps at most 32,768 answers asked for once, in 4 MB, by default', () => {
    const cache = new ResponseCache();
    const page = Array.from({ length: 20 }, (_, i) => i);
    const keep = (count: number, ids: number | number[]) => {
      for (let i = 0; i < count; i++) {
        cache.set(`snapshot\nlist\n${i}`, { etag: 'W/"abc-1"', data: ids, metaTail: ',"total":20' }, 0);
      }
    };
    // Entries of 56 bytes (a 12-byte header, key, ETag and meta in 52, one id), 2.2 MB in all: the table's
    // 32,768 slots are the bound.
    keep(40_000, 1);
    expect(cache.firstAskCount).toBeLessThanOrEqual(32_768);
    expect(cache.firstAskCount).toBeGreaterThan(30_000);
    // Entries of 132 bytes (52, and 20 ids): the ring's 4 MB, 31,775 of them, is the bound.
    keep(80_000, page);
    expect(cache.firstAskCount).toBeLessThanOrEqual(Math.floor((4 * 1024 * 1024) / 132));
    expect(cache.firstAskCount).toBeGreaterThan(25_000);
    expect(cache.size).toBe(0);
  });

  it('replaces an entry under the same key without counting it twice', () => {
    const cache = new ResponseCache();
    cache.set('a', answer('12345'), 0);
    const bytes = cache.totalBytes;
    cache.set('a', answer('12345'), 0);
    expect(cache.totalBytes).toBe(bytes);
    expect(cache.size).toBe(1);
  });

  it('answers as a plain list kept in recency order would, whatever the operations', () => {
    type Operation =
      { kind: 'set'; key: number; length: number; now: number } | { kind: 'get'; key: number; now: number };
    const operation = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), key: fc.nat(12), length: fc.nat(120), now: fc.nat(50) }),
      fc.record({ kind: fc.constant('get' as const), key: fc.nat(12), now: fc.nat(50) }),
    );
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 200 }), fc.nat(8), (operations: Operation[], extra) => {
        const maxEntries = 1 + extra;
        const options = { maxEntries, maxBytes: 400, ttlMs: 20 };
        const cache = new ResponseCache(options);
        // The reference: entries from least to most recently used.
        let model: { key: string; data: string; expires: number; size: number }[] = [];
        const bytes = () => model.reduce((sum, entry) => sum + entry.size, 0);
        for (const op of operations) {
          const key = `k${op.key}`;
          if (op.kind === 'get') {
            const found = model.find((entry) => entry.key === key);
            model = model.filter((entry) => entry.key !== key);
            const live = found !== undefined && found.expires > op.now;
            if (live) model.push(found);
            expect(cache.get(key, op.now)?.data).toBe(live ? found.data : undefined);
          } else {
            const data = 'x'.repeat(op.length);
            const size = key.length + data.length + 'W/"x"'.length;
            cache.set(key, answer(data), op.now);
            if (size > options.maxBytes / 4) continue;
            model = model.filter((entry) => entry.key !== key);
            model.push({ key, data, expires: op.now + options.ttlMs, size });
            while (model.length > maxEntries || bytes() > options.maxBytes) model.shift();
          }
          expect(cache.size).toBe(model.length);
          expect(cache.totalBytes).toBe(bytes());
        }
      }),
    );
  });
});
