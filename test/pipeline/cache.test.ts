import { readFileSync, writeFileSync } from 'node:fs';
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

describe('the cache files read a record at a time, all or nothing', () => {
  const collection = {
    baseUrl: 'http://127.0.0.1:1/',
    collectedAt: '2026-06-01T00:00:00.000Z',
    entries: [entry('io.github.a/one'), entry('io.github.b/two'), entry('io.github.c/three')],
  } as unknown as Collection;
  const answers = new Map<string, CachedAnswer>([
    ['GET /repos/a/one', { etag: '"1"', facts: { stars: 1 } }],
    ['GET /repos/b/two', { etag: '"2"', facts: { stars: 2 } }],
  ]);

  /** The cache folder with the registry and GitHub files as written, then `damage` done to their text. */
  async function damaged(damage: (text: string) => string) {
    const dir = await makeTempDir('cache-');
    writeRegistryCache(dir, collection);
    writeGitHubCache(dir, 'http://127.0.0.1:2', answers);
    for (const name of ['registry.json', 'github.json']) {
      const file = path.join(dir, name);
      writeFileSync(file, damage(readFileSync(file, 'utf8')));
    }
    return dir;
  }

  const refused = (dir: string) => {
    const registry = readRegistryCache(dir);
    const github = readGitHubCache(dir, 'http://127.0.0.1:2');
    expect(registry.collection).toBeUndefined();
    expect(registry.note).toMatch(/ignored the unreadable cache file .*registry\.json/);
    expect(github.answers.size).toBe(0);
    expect(github.note).toMatch(/ignored the unreadable cache file .*github\.json/);
  };

  it('reads files as JSON.parse would, spaces and member order aside', async () => {
    const dir = await damaged((text) => JSON.stringify(JSON.parse(text) as unknown, null, 2));
    expect(readRegistryCache(dir)).toEqual({ collection });
    expect(readGitHubCache(dir, 'http://127.0.0.1:2')).toEqual({ answers });
  });

  it('reads a file of several megabytes, whose records and characters cross the chunks it is read in', async () => {
    const dir = await makeTempDir('cache-');
    const many = {
      ...collection,
      entries: Array.from({ length: 2_500 }, (_, index) => ({
        ...entry(`io.github.m/s${index}`),
        server: { ...entry(`io.github.m/s${index}`).server, description: `é→😀 "${index}" \\ `.repeat(index % 97) },
      })),
    } as unknown as Collection;
    writeRegistryCache(dir, many);
    expect(readFileSync(path.join(dir, 'registry.json')).length).toBeGreaterThan(2 << 20);
    expect(readRegistryCache(dir)).toEqual({ collection: many });
  });

  it('refuses a file cut short anywhere, keeping nothing of what came before the cut', async () => {
    for (const keep of [0.2, 0.5, 0.9]) refused(await damaged((text) => text.slice(0, Math.floor(text.length * keep))));
    // Every item whole, and only the closing of the list and the object missing.
    refused(await damaged((text) => text.slice(0, -3)));
    refused(await damaged((text) => text.slice(0, -2)));
  });

  it('refuses one record that is not the expected shape, and text after the object', async () => {
    refused(
      await damaged((text) =>
        text.replace('"version":"1.0.0"', '"version":1').replace('"etag":"\\"2\\""', '"etag":""'),
      ),
    );
    refused(await damaged((text) => `${text.trimEnd()}{}`));
    refused(
      await damaged((text) =>
        text.replace('{"server"', '{"server"}').replace('"facts":{"stars":1}', '"facts":{"stars":1'),
      ),
    );
    refused(await damaged((text) => text.replace('"version":1', '"version":2')));
  });

  it('leaves a missing file unread without a note, and answers kept for another API unused', async () => {
    const dir = await makeTempDir('cache-');
    expect(readRegistryCache(dir)).toEqual({});
    writeGitHubCache(dir, 'http://127.0.0.1:2', answers);
    expect(readGitHubCache(dir, 'http://127.0.0.1:3')).toEqual({ answers: new Map() });
  });
});
