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
});
