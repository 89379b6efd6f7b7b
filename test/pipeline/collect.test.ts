/**
 * Collect against the registry stand-in, in process: paging along the cursor, latest versions only, entries
 * that are not active left out and counted, an incremental run that asks `updated_since` and merges, and pages
 * the client refuses.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { collect, type Collection } from '../../src/pipeline/collect.js';
import { PipelineError } from '../../src/pipeline/errors.js';
import { readBounded } from '../../src/pipeline/http-json.js';
import { startRegistryStandIn, type RegistryStandIn, type StandInEntry } from '../support/registry-standin.js';

const OFFICIAL = 'io.modelcontextprotocol.registry/official';
const POLICY = { timeoutMs: 5000, retries: 2, backoffMs: 5, maxRetryAfterMs: 2000 };

function entry(name: string, meta: Record<string, unknown> = {}): StandInEntry {
  return {
    server: { name, description: `The ${name} server`, version: '1.0.0', packages: [] },
    _meta: {
      [OFFICIAL]: {
        status: 'active',
        publishedAt: '2026-01-01T00:00:00Z',
        updatedAt: '2026-01-01T00:00:00Z',
        isLatest: true,
        ...meta,
      },
    },
  };
}

let registry: RegistryStandIn | undefined;
afterEach(async () => {
  await registry?.close();
  registry = undefined;
});

describe('collect', () => {
  it('walks every page, keeps the latest active versions and counts the rest', async () => {
    registry = await startRegistryStandIn([
      entry('io.github.a/one'),
      entry('io.github.a/two'),
      entry('io.github.a/two', { isLatest: false, updatedAt: '2025-01-01T00:00:00Z' }),
      entry('io.github.b/gone', { status: 'deleted' }),
      entry('io.github.b/old', { status: 'deprecated' }),
      entry('io.github.c/three'),
    ]);
    const result = await collect({ baseUrl: registry.url, policy: POLICY, pageSize: 2 });
    expect(result.collection.entries.map((e) => e.server.name)).toEqual([
      'io.github.a/one',
      'io.github.a/two',
      'io.github.c/three',
    ]);
    expect(result.notActive).toBe(2);
    expect(result.pages).toBe(3);
    expect(registry.log.every((request) => request.url.includes('version=latest'))).toBe(true);
    expect(registry.invalid).toEqual([]);
  });

  it('asks only for what changed since the last collection, and merges it', async () => {
    registry = await startRegistryStandIn([entry('io.github.a/one'), entry('io.github.a/two')]);
    const first = await collect({ baseUrl: registry.url, policy: POLICY, now: () => new Date('2026-02-01T00:00:00Z') });
    const previous: Collection = first.collection;
    registry.entries[0] = entry('io.github.a/one', { updatedAt: '2026-02-02T00:00:00Z' });
    registry.entries[0].server.description = 'A new description';
    registry.entries[1] = entry('io.github.a/two', { status: 'deleted', updatedAt: '2026-02-02T00:00:00Z' });
    registry.entries.push(entry('io.github.a/new', { updatedAt: '2026-02-03T00:00:00Z' }));
    const second = await collect({ baseUrl: registry.url, policy: POLICY, previous });
    expect(second.incremental).toBe(true);
    expect(registry.log.at(-1)?.url).toContain('updated_since=2026-02-01T00%3A00%3A00.000Z');
    expect(second.received).toBe(3);
    expect(second.collection.entries.map((e) => [e.server.name, e.server.description])).toEqual([
      ['io.github.a/new', 'The io.github.a/new server'],
      ['io.github.a/one', 'A new description'],
    ]);
  });

  it('fails the whole collection on a page it cannot read, after its retries', async () => {
    registry = await startRegistryStandIn([entry('io.github.a/one'), entry('io.github.a/two'), entry('io.github.a/x')]);
    registry.faults.push({ page: 2, fault: { kind: 'status', status: 502 } });
    await expect(collect({ baseUrl: registry.url, policy: POLICY, pageSize: 2 })).rejects.toThrow(
      /^registry page 2 .*answered 502 \(after 3 attempts\)$/,
    );
    registry.faults.splice(0, 1, { page: 1, fault: { kind: 'not-json' } });
    await expect(collect({ baseUrl: registry.url, policy: POLICY })).rejects.toThrow(PipelineError);
  });

  it('refuses a Retry-After past its bound rather than waiting for it', async () => {
    registry = await startRegistryStandIn([entry('io.github.a/one')]);
    registry.faults.push({ page: 1, fault: { kind: 'status', status: 429, retryAfter: 3600 } });
    await expect(collect({ baseUrl: registry.url, policy: POLICY })).rejects.toThrow(
      /Retry-After 3600 s, past the bound/,
    );
  });

  it('reads an answer only up to its byte bound', async () => {
    await expect(readBounded(new Response('x'.repeat(100)), 10)).rejects.toThrow(/more than 10 bytes/);
    expect(Buffer.from(await readBounded(new Response('{"ok":1}'), 10)).toString()).toBe('{"ok":1}');
  });

  it('refuses a page of 120,000 entries with one line, by its bytes, without taking it whole', async () => {
    registry = await startRegistryStandIn([entry('io.github.a/one')]);
    registry.faults.push({ page: 1, fault: { kind: 'huge-page', entries: 120_000 } });
    await expect(collect({ baseUrl: registry.url, policy: POLICY })).rejects.toThrow(
      /^registry page 1 .*answered with more than 8388608 bytes$/,
    );
  });

  it('refuses a page that lists more servers than it asked for', async () => {
    registry = await startRegistryStandIn([entry('io.github.a/one')]);
    registry.faults.push({ page: 1, fault: { kind: 'huge-page', entries: 1000 } });
    await expect(collect({ baseUrl: registry.url, policy: POLICY })).rejects.toThrow(
      /^registry page 1 .* lists 1000 servers, more than the 100 asked for$/,
    );
  });

  it('refuses a registry grown past the bound of the last collection times the factor, with a floor', async () => {
    registry = await startRegistryStandIn(['a', 'b', 'c'].map((id) => entry(`io.github.a/${id}`)));
    const bounds = { growthFactor: 2, minTotalBound: 4, pageSize: 2 };
    const first = await collect({ baseUrl: registry.url, policy: POLICY, ...bounds });
    expect(first.collection.entries).toHaveLength(3);
    for (let i = 0; i < 5; i++)
      registry.entries.push(entry(`io.github.b/s${i}`, { updatedAt: '2027-01-01T00:00:00Z' }));
    // 3 last time: up to 6 are taken (never under the floor of 4); the registry now lists 8.
    await expect(
      collect({ baseUrl: registry.url, policy: POLICY, previous: first.collection, ...bounds }),
    ).rejects.toThrow(
      /^the registry lists more than 6 servers, the bound of this run \(2 times the 3 of the last collection, at least 4\); nothing collected$/,
    );
    await expect(collect({ baseUrl: registry.url, policy: POLICY, ...bounds })).rejects.toThrow(/more than 4 servers/);
    expect((await collect({ baseUrl: registry.url, policy: POLICY, pageSize: 2 })).collection.entries).toHaveLength(8);
  });

  it('leaves out and names servers whose id is a dot segment, and collects the rest', async () => {
    registry = await startRegistryStandIn([entry('io.github.a/..'), entry('io.github.a/.'), entry('io.github.a/ok')]);
    const result = await collect({ baseUrl: registry.url, policy: POLICY });
    expect(result.collection.entries.map((e) => e.server.name)).toEqual(['io.github.a/ok']);
    expect(result.refused.map((r) => r.name)).toEqual(['io.github.a/.', 'io.github.a/..']);
    expect(result.refused[0]!.reason).toMatch(/dot segment/);
    expect(registry.invalid).toEqual([]);
  });
});
