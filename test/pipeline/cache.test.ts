import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readGitHubCache, readRegistryCache, writeGitHubCache, writeRegistryCache } from '../../src/pipeline/cache.js';
import type { CachedAnswer } from '../../src/pipeline/github.js';
import type { Collection } from '../../src/pipeline/collect.js';
import { makeTempDir } from '../support/temp.js';

const entry = (name: string) => ({
  server: {
    name,
    version: '1.0.0',
    description: 'a "quoted" server → é',
    repository: { url: 'https://x', source: 'github' },
  },
  _meta: { 'io.modelcontextprotocol.registry/official': { status: 'active', isLatest: true } },
});

describe('the cache files written a piece at a time', () => {
  it('write the registry collection as JSON.stringify writes it whole, and read it back', async () => {
    const dir = await makeTempDir('cache-');
    const collection = {
      baseUrl: 'http://127.0.0.1:1/',
      collectedAt: '2026-06-01T00:00:00.000Z',
      entries: [entry('io.github.a/one'), entry('io.github.b/two')],
    } as unknown as Collection;
    writeRegistryCache(dir, collection);
    const text = readFileSync(path.join(dir, 'registry.json'), 'utf8');
    expect(text).toBe(`${JSON.stringify({ version: 1, ...collection })}\n`);
    expect(readRegistryCache(dir).collection).toEqual(collection);
  });

  it('writes an empty collection as JSON.stringify does', async () => {
    const dir = await makeTempDir('cache-');
    const collection: Collection = { baseUrl: 'http://127.0.0.1:1/', collectedAt: '2026-06-01T00:00:00Z', entries: [] };
    writeRegistryCache(dir, collection);
    expect(readFileSync(path.join(dir, 'registry.json'), 'utf8')).toBe(
      `${JSON.stringify({ version: 1, ...collection })}\n`,
    );
  });

  it('write the GitHub answers in path order, as JSON.stringify writes them whole, and read them back', async () => {
    const dir = await makeTempDir('cache-');
    const answers = new Map<string, CachedAnswer>([
      ['GET /repos/b/two', { etag: 'W/"2"', facts: { stars: 2 } }],
      ['GET /repos/a/one/stats/participation', { etag: '"p"', facts: { all: [1, 0], owner: [1, 0] } }],
      ['GET /repos/a/one', { etag: '"1"', facts: null }],
    ]);
    writeGitHubCache(dir, 'http://127.0.0.1:2', answers);
    const sorted = Object.fromEntries([...answers].sort(([a], [b]) => (a < b ? -1 : 1)));
    expect(readFileSync(path.join(dir, 'github.json'), 'utf8')).toBe(
      `${JSON.stringify({ version: 1, apiUrl: 'http://127.0.0.1:2', answers: sorted })}\n`,
    );
    expect([...readGitHubCache(dir, 'http://127.0.0.1:2').answers]).toEqual(
      [...answers].sort(([a], [b]) => (a < b ? -1 : 1)),
    );
  });

  it('write no answers as an empty object', async () => {
    const dir = await makeTempDir('cache-');
    writeGitHubCache(dir, 'http://127.0.0.1:2', new Map());
    expect(readFileSync(path.join(dir, 'github.json'), 'utf8')).toBe(
      `${JSON.stringify({ version: 1, apiUrl: 'http://127.0.0.1:2', answers: {} })}\n`,
    );
  });
});
