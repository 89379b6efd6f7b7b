/**
 * The identifiers lookups and checks ask about that the snapshot does not know: counted in the store in one
 * form each, nothing else of the request; not at all when the setting is off; never at the answer's cost.
 */
import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createUnknownCounter } from '../../src/gateway/unknown-counter.js';
import { createMemoryStore } from '../../src/stores/memory.js';
import type { Store } from '../../src/stores/types.js';
import { envelopeOf, harness, NOW } from './harness.js';

const TODAY = ['2026-03-10'];

async function counted(store: Store) {
  await tick();
  return store.topUnknown(TODAY, 100);
}

const check = (servers: unknown[]) => ({ method: 'POST', body: JSON.stringify({ servers }) });

describe('counting unknown identifiers', () => {
  it('counts an unknown package of a lookup as its package URL, whichever form asked, on every request', async () => {
    const { call, store } = await harness({ countUnknown: true });
    expect((await call('/v1/lookup?package=npm:@nobody/thing@1.2.0')).status).toBe(200);
    expect((await call(`/v1/lookup?purl=${encodeURIComponent('pkg:npm/%40nobody/thing')}`)).status).toBe(200);
    // Asked again: answered from the cache, and counted all the same.
    const again = await envelopeOf(await call('/v1/lookup?package=npm:@nobody/thing'));
    expect(again.meta.cached).toBe(true);
    expect(again.data).toEqual([]);
    expect(await counted(store)).toEqual([{ identifier: 'pkg:npm/%40nobody/thing', count: 3 }]);
  });

  it('does not count what the snapshot knows, nor a repository', async () => {
    const { call, store } = await harness({ countUnknown: true });
    expect((await envelopeOf<unknown[]>(await call('/v1/lookup?package=npm:@acme/postgres-mcp'))).data).toHaveLength(2);
    await call(`/v1/lookup?url=${encodeURIComponent('https://slack.acme.io/mcp')}`);
    await call(`/v1/lookup?repo=${encodeURIComponent('https://github.com/nobody/nothing')}`);
    expect(await counted(store)).toEqual([]);
  });

  it('counts a remote by origin and path, without credentials, query or fragment', async () => {
    const { call, store } = await harness({ countUnknown: true });
    const url = 'https://user:secret@Unknown.Example:443/mcp/?api_key=abc#frag';
    expect((await call(`/v1/lookup?url=${encodeURIComponent(url)}`)).status).toBe(200);
    expect(await counted(store)).toEqual([{ identifier: 'https://unknown.example/mcp', count: 1 }]);
  });

  it('counts the unknown items of a check once each, and none of the known ones or names', async () => {
    const { call, store } = await harness({ countUnknown: true });
    const response = await call(
      '/v1/check',
      check([
        'io.nobody/unknown-name',
        { package: 'pypi:Some_Unknown.Tool==1.0' },
        { purl: 'pkg:pypi/some-unknown-tool' },
        { package: 'npm:@acme/postgres-mcp' },
        { url: 'https://example.com/mcp' },
        { url: 'https://gone.example/sse?token=t' },
      ]),
    );
    expect(response.status).toBe(200);
    expect(await counted(store)).toEqual([
      { identifier: 'https://gone.example/sse', count: 1 },
      { identifier: 'pkg:pypi/some-unknown-tool', count: 1 },
    ]);
  });

  it('counts nothing when the setting is off', async () => {
    const { call, store } = await harness({ countUnknown: false });
    await call('/v1/lookup?package=npm:@nobody/thing');
    await call('/v1/check', check([{ package: 'npm:@nobody/thing' }]));
    expect(await counted(store)).toEqual([]);
  });

  it('does not count an identifier past the length bound, rather than cut it', async () => {
    const { call, store } = await harness({ countUnknown: true });
    await call(`/v1/lookup?package=npm:${'a'.repeat(400)}`);
    await call('/v1/lookup?package=npm:short-one');
    expect(await counted(store)).toEqual([{ identifier: 'pkg:npm/short-one', count: 1 }]);
  });

  it('answers a lookup and a check while the store never settles a count, and answers them the same', async () => {
    const memory = createMemoryStore({ now: () => NOW });
    let pending = 0;
    const store: Store = {
      ...memory,
      kind: memory.kind,
      countUnknown: () => {
        pending++;
        return new Promise<never>(() => {});
      },
    };
    const { call, issue } = await harness({ store, countUnknown: true });
    const key = await issue();
    const lookup = await call('/v1/lookup?package=npm:@nobody/thing', { key });
    expect(lookup.status).toBe(200);
    expect((await envelopeOf(lookup)).data).toEqual([]);
    const verdict = await call('/v1/check', { ...check([{ package: 'npm:@nobody/thing' }]), key });
    expect(verdict.status).toBe(200);
    // Both answered while their counts are still waiting.
    expect(pending).toBe(2);
  });

  it('answers 200 when the store refuses a count', async () => {
    const memory = createMemoryStore({ now: () => NOW });
    const store: Store = {
      ...memory,
      kind: memory.kind,
      countUnknown: () => Promise.reject(new Error('ECONNREFUSED')),
    };
    const { call, issue } = await harness({ store, countUnknown: true });
    const response = await call('/v1/lookup?package=npm:@nobody/thing', { key: await issue() });
    expect(response.status).toBe(200);
  });
});

describe('the counter', () => {
  it('drops a count past the most in flight instead of queueing it, and reports that once', async () => {
    const calls: string[][] = [];
    const warnings: string[] = [];
    const store = {
      countUnknown: (_day: string, identifiers: readonly string[]) => {
        calls.push([...identifiers]);
        return new Promise<number>(() => {});
      },
      topUnknown: async () => [],
    };
    const count = createUnknownCounter(store, { timeoutMs: 60_000, maxInFlight: 2, warn: (m) => warnings.push(m) });
    for (let i = 0; i < 5; i++) count([`pkg:npm/p${i}`], NOW);
    expect(calls).toEqual([['pkg:npm/p0'], ['pkg:npm/p1']]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^gateway: an unknown identifier was not counted \(2 counts are still waiting/);
  });

  it('asks the store to bound the day, to keep it a week past its own, and names no identifier twice', async () => {
    const asked: unknown[][] = [];
    const store = {
      countUnknown: async (...args: unknown[]) => (asked.push(args), 1),
      topUnknown: async () => [],
    };
    const count = createUnknownCounter(store, { timeoutMs: 1000, maxPerDay: 3 });
    count(['pkg:npm/a', 'pkg:npm/a', 'pkg:npm/b'], NOW);
    await tick();
    expect(asked).toEqual([['2026-03-10', ['pkg:npm/a', 'pkg:npm/b'], 3, Date.UTC(2026, 2, 18)]]);
  });

  it('keeps to the bound of distinct identifiers a day in the store behind it', async () => {
    const store = createMemoryStore({ now: () => NOW });
    const count = createUnknownCounter(store, { timeoutMs: 1000, maxPerDay: 3 });
    for (let i = 0; i < 10; i++) count([`pkg:npm/p${i}`], NOW);
    count(['pkg:npm/p0'], NOW);
    await tick();
    expect(await store.topUnknown(TODAY, 100)).toEqual([
      { identifier: 'pkg:npm/p0', count: 2 },
      { identifier: 'pkg:npm/p1', count: 1 },
      { identifier: 'pkg:npm/p2', count: 1 },
    ]);
  });
});
