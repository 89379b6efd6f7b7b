/**
 * The curators' catalog joined into the build (`src/snapshot-build/catalog-records.ts`): over the committed dataset,
 * registry data and catalog, a catalog server is a record of its own under `catalog:<curator>/<id>` or a listing
 * on the registry record it is; the check, Get Server, lookup, statistics, list and search treat those records
 * as unmeasured (Request → Response at the gateway). A small dataset beside it holds the orderings exactly.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fillPath, ROUTE_PATHS } from '../../src/api/paths.js';
import { buildSnapshot } from '../../src/snapshot-build/build.js';
import { openTrustSource } from '../../src/client/open-source.js';
import { type CatalogFile, REGISTRY_NAME_PATTERN } from '../../src/model/catalog.js';
import { splitName, type ServerRecord, type Stats } from '../../src/model/schema.js';
import { loadSnapshot } from '../../src/query/open.js';
import { harness, type Harness } from '../gateway/harness.js';
import { makeRecord, SIGNALS } from '../support/records.js';
import { makeTempDir } from '../support/temp.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const CATALOG = 'data/catalog/servers.json';

interface CheckResult {
  server: string | null;
  trust_score: number | null;
  verdict: 'pass' | 'warn' | 'fail';
  reasons: string[];
}

let h: Harness;
let catalog: CatalogFile;
let snapshotDir: string;

async function json<T>(response: Response): Promise<T> {
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: T }).data;
}

async function check(servers: unknown[]): Promise<CheckResult[]> {
  const response = await h.call('/v1/check', { method: 'POST', body: JSON.stringify({ servers }) });
  return (await json<{ results: CheckResult[] }>(response)).results;
}

beforeAll(async () => {
  const out = (snapshotDir = path.join(await makeTempDir('mts-catalog-'), 'snapshot'));
  await buildSnapshot({
    input: 'data/*.json',
    registry: 'data/registry/servers.json',
    catalog: CATALOG,
    out,
    now: new Date('2026-11-29T00:00:00.000Z'),
  });
  h = await harness({ engine: await loadSnapshot(out) });
  catalog = JSON.parse(await readFile(path.join(ROOT, CATALOG), 'utf8')) as CatalogFile;
}, 120_000);

describe('catalog servers over the committed data', () => {
  it('answers Get Server for catalog:docker/<id>, its name URL-encoded or not, as an unmeasured record', async () => {
    for (const route of [
      '/v1/servers/catalog:docker/aks',
      '/v1/servers/catalog%3Adocker/aks',
      '/v1/servers/CATALOG:Docker/AKS',
    ]) {
      const record = await json<ServerRecord>(await h.call(route));
      expect(record.name).toBe('catalog:docker/aks');
      expect(record.trust_score).toBe(0);
      expect(record.flags).toEqual(['INSUFFICIENT_EVIDENCE']);
      expect(record.evidence?.confidence).toBe(0);
      expect(record.evidence?.sources.registry).toMatchObject({
        measured: false,
        missing: expect.stringMatching(/^not in the official MCP Registry: listed only by Docker's MCP Catalog/),
      });
      // What the curator declares, and nothing more: no version, no transport, no badge.
      expect(record.install).toEqual({
        repo_url: 'https://github.com/Azure/aks-mcp',
        version: null,
        package_types: ['oci'],
        transport_types: [],
      });
      expect(record.packages).toEqual([{ registry_type: 'oci', identifier: 'mcp/aks', version: null }]);
      expect(record.listings).toEqual([
        expect.objectContaining({ source: 'docker-mcp-catalog', name: 'catalog:docker/aks', image: 'mcp/aks' }),
      ]);
      expect(record.badges).toEqual([]);
    }
  });

  it('matches a Docker image, a reference npm package and a catalog remote URL, and warns on each (INSUFFICIENT_EVIDENCE)', async () => {
    const remote = catalog.servers.find((server) => server.name === 'catalog:docker/ais-fleet')!.remoteUrl!;
    const results = await check([
      { package: 'oci:mcp/aks:latest' },
      { package: 'npm:@modelcontextprotocol/server-filesystem@2026.1.0' },
      { url: remote },
      'catalog:reference/filesystem',
    ]);
    expect(results.map((result) => [result.server, result.verdict])).toEqual([
      ['catalog:docker/aks', 'warn'],
      ['catalog:reference/filesystem', 'warn'],
      ['catalog:docker/ais-fleet', 'warn'],
      ['catalog:reference/filesystem', 'warn'],
    ]);
    for (const result of results) {
      expect(result.reasons.join('\n')).toMatch(/INSUFFICIENT_EVIDENCE/);
      expect(result.reasons.join('\n')).not.toMatch(/below the policy's minimum/);
    }
  });

  it('finds a catalog record by package, purl and repository too', async () => {
    const names = async (query: string) =>
      (await json<ServerRecord[]>(await h.call(`/v1/lookup?${query}`))).map((record) => record.name);
    expect(await names('package=pypi:mcp_server_git')).toEqual(['catalog:reference/git']);
    expect(await names('purl=pkg:docker/mcp/aks')).toEqual(['catalog:docker/aks']);
    expect(await names(`repo=${encodeURIComponent('https://github.com/Azure/aks-mcp.git')}`)).toEqual([
      'catalog:docker/aks',
    ]);
  });

  it('adds no second record for a catalog server that is a registry record: the listing attaches to it', async () => {
    expect((await h.call('/v1/servers/catalog:docker/airtable-mcp-server')).status).toBe(404);
    const record = await json<ServerRecord>(await h.call('/v1/servers/io.github.domdomegg/airtable-mcp-server'));
    expect(record.listings).toEqual([
      expect.objectContaining({ name: 'catalog:docker/airtable-mcp-server', image: 'mcp/airtable-mcp-server' }),
    ]);
    // The registry record keeps its own evidence and score; the catalog's image finds it.
    expect(record.evidence?.sources.registry.measured).toBe(true);
    const [result] = await check([{ package: 'oci:docker.io/mcp/airtable-mcp-server' }]);
    expect(result?.server).toBe('io.github.domdomegg/airtable-mcp-server');
  });

  it('keeps a monorepo apart: servers sharing one repository are joined by package only', async () => {
    // Seven reference servers share modelcontextprotocol/servers; none is a registry record's package.
    for (const id of ['everything', 'fetch', 'filesystem', 'git', 'memory', 'sequentialthinking', 'time'])
      expect((await h.call(`/v1/servers/catalog:reference/${id}`)).status, id).toBe(200);
  });

  it("answers a catalog name offline (the embedded source the checker and the MCP server use) and by the live client's path", async () => {
    const source = await openTrustSource({ embeddedDir: snapshotDir, env: {} });
    try {
      expect((await source.getServer('catalog:docker/aks')).trust_score).toBe(0);
      const found = await source.lookup({ package: 'npm:@modelcontextprotocol/server-memory' });
      expect(found.items.map((record) => record.name)).toEqual(['catalog:reference/memory']);
      const answer = await source.check({ servers: [{ package: 'oci:mcp/aks' }], policy: {} });
      expect(answer.results.map((result) => [result.server, result.verdict])).toEqual([['catalog:docker/aks', 'warn']]);
    } finally {
      source.close();
    }
    // The live client fills the route's path with each part of the name; the gateway answers it.
    const route = fillPath(ROUTE_PATHS.get, splitName('catalog:reference/time'));
    expect((await json<ServerRecord>(await h.call(route))).name).toBe('catalog:reference/time');
  });

  it('names no catalog record in a way the registry could ever name a server', async () => {
    const list = await json<ServerRecord[]>(await h.call('/v1/servers?namespace=catalog:docker&limit=200'));
    expect(list.length).toBeGreaterThan(100);
    for (const record of list) expect(REGISTRY_NAME_PATTERN.test(record.name), record.name).toBe(false);
  });

  it('counts catalog-only servers apart in the statistics: the specification fields are the registry records', async () => {
    const stats = await json<Stats>(await h.call('/v1/stats'));
    const committed = JSON.parse(await readFile(path.join(ROOT, 'data/servers.json'), 'utf8')) as unknown[];
    const all = await h.call('/v1/servers?limit=1');
    const total = ((await all.json()) as { meta: { total: number } }).meta.total;
    expect(stats.total_servers).toBe(committed.length);
    expect(stats.catalog_only_servers).toBe(total - committed.length);
    expect(stats.catalog_only_servers).toBeGreaterThan(200);
    expect(Object.values(stats.score_distribution).reduce((a, b) => a + b, 0)).toBe(stats.total_servers);
  });

  it('never leads the list by trust: every catalog record comes after every server with a score', async () => {
    const total = ((await (await h.call('/v1/servers?limit=1')).json()) as { meta: { total: number } }).meta.total;
    const names: { name: string; trust_score: number }[] = [];
    for (let offset = 0; offset < total; offset += 200)
      names.push(...(await json<ServerRecord[]>(await h.call(`/v1/servers?limit=200&offset=${offset}`))));
    const firstCatalog = names.findIndex((record) => record.name.startsWith('catalog:'));
    expect(firstCatalog).toBeGreaterThan(0);
    expect(names.slice(firstCatalog).every((record) => record.trust_score === 0)).toBe(true);
  });
});

describe('the join and the orderings, on a small dataset', () => {
  async function build(records: unknown[], servers: unknown[]) {
    const dir = await makeTempDir('mts-catalog-small-');
    await writeFile(path.join(dir, 'servers.json'), JSON.stringify(records));
    const file: CatalogFile = {
      sources: [
        {
          source: 'docker-mcp-catalog',
          repository: 'docker/mcp-registry',
          commit: '818bf169b365e7b7d5b117352e32757c54844718',
          date: '2026-07-08T16:13:10.000Z',
          licence: 'MIT',
        },
      ],
      servers: servers as CatalogFile['servers'],
    };
    await writeFile(path.join(dir, 'catalog.json'), JSON.stringify(file));
    const out = path.join(dir, 'snapshot');
    await buildSnapshot({ input: path.join(dir, 'servers.json'), catalog: path.join(dir, 'catalog.json'), out });
    return harness({ engine: await loadSnapshot(out) });
  }
  const docker = (id: string, extra: object = {}) => ({
    name: `catalog:docker/${id}`,
    source: 'docker-mcp-catalog',
    id,
    description: `The ${id} server of the catalog`,
    image: `mcp/${id}`,
    ...extra,
  });

  it('ranks a catalog record after a scored server at equal relevance in search, and last in the default list', async () => {
    const small = await build(
      [
        makeRecord({
          name: 'com.acme/notes',
          signals: SIGNALS,
          install: {
            repo_url: 'https://github.com/acme/notes',
            version: '1.0.0',
            package_types: [],
            transport_types: [],
          },
        }),
      ],
      [docker('notes'), docker('alpha')],
    );
    const search = (await (await small.call('/v1/search?q=notes')).json()) as { data: ServerRecord[] };
    expect(search.data.map((record) => record.name)).toEqual(['com.acme/notes', 'catalog:docker/notes']);
    const list = (await (await small.call('/v1/servers')).json()) as { data: ServerRecord[] };
    expect(list.data.map((record) => record.name)).toEqual([
      'com.acme/notes',
      'catalog:docker/alpha',
      'catalog:docker/notes',
    ]);
    const stats = (await (await small.call('/v1/stats')).json()) as { data: Stats };
    expect(stats.data).toMatchObject({ total_servers: 1, catalog_only_servers: 2 });
    expect(stats.data.average_score).toBe(list.data[0]!.trust_score);
  });

  it('gives a Docker-built image no provenance: the registry source is unmeasured, nothing scores', async () => {
    const small = await build(
      [makeRecord({ name: 'com.acme/other' })],
      [docker('built', { repository: 'https://github.com/acme/built' })],
    );
    const record = ((await (await small.call('/v1/servers/catalog:docker/built')).json()) as { data: ServerRecord })
      .data;
    expect(record.scores).toEqual({ provenance: 0, maintenance: 0, popularity: 0, permissions: 0 });
    expect(record.verified_publisher).toBe(false);
    expect(Object.values(record.evidence!.sources.registry.signals).every((value) => value === null)).toBe(true);
    expect(record.listings?.[0]).toMatchObject({ image: 'mcp/built', repository: 'https://github.com/acme/built' });
  });

  it('joins by package, and by a repository only one catalog server names', async () => {
    const small = await build(
      [
        makeRecord({
          name: 'com.acme/by-image',
          packages: [{ registry_type: 'oci', identifier: 'docker.io/mcp/imaged', version: '1.0.0' }],
        }),
        makeRecord({
          name: 'com.acme/by-repo',
          install: { repo_url: 'https://github.com/acme/solo', version: null, package_types: [], transport_types: [] },
        }),
        makeRecord({
          name: 'com.acme/mono',
          install: { repo_url: 'https://github.com/acme/mono', version: null, package_types: [], transport_types: [] },
        }),
      ],
      [
        docker('imaged'),
        docker('solo', { repository: 'https://github.com/Acme/solo.git' }),
        docker('mono-a', { repository: 'https://github.com/acme/mono' }),
        docker('mono-b', { repository: 'https://github.com/acme/mono' }),
      ],
    );
    const names = ((await (await small.call('/v1/servers?sort=name&order=asc')).json()) as { data: ServerRecord[] })
      .data;
    expect(names.map((record) => [record.name, (record.listings ?? []).map((listing) => listing.name)])).toEqual([
      ['catalog:docker/mono-a', ['catalog:docker/mono-a']],
      ['catalog:docker/mono-b', ['catalog:docker/mono-b']],
      ['com.acme/by-image', ['catalog:docker/imaged']],
      ['com.acme/by-repo', ['catalog:docker/solo']],
      ['com.acme/mono', []],
    ]);
  });

  it('takes a dataset record under a catalog name for that catalog server (as a night measured it): one record', async () => {
    const small = await build([makeRecord({ name: 'catalog:docker/taken', signals: SIGNALS })], [docker('taken')]);
    const list = (await (await small.call('/v1/servers')).json()) as { data: ServerRecord[] };
    expect(list.data.map((record) => record.name)).toEqual(['catalog:docker/taken']);
    expect(list.data[0]?.listings?.map((listing) => listing.name)).toEqual(['catalog:docker/taken']);
    // Still not a registry entry, whatever the record says: the registry source stays unmeasured.
    expect(list.data[0]?.evidence?.sources.registry.measured).toBe(false);
  });
});
