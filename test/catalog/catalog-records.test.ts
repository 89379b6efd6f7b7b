import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultSourceContext, loadEvidenceSources, UNREAD_SOURCES } from '../../src/build/evidence-sources.js';
import { catalogRecords, repositoryKey, type RegistryIdentity } from '../../src/catalog/catalog-records.js';
import { CatalogFileSchema, type CatalogFile, type CatalogServer } from '../../src/model/catalog.js';
import { ServerRecordSchema } from '../../src/model/record-schema.js';
import { scoreRecord } from '../../src/scoring/score-record.js';
import { CATALOG_REPOSITORY_UNREAD } from '../../src/scoring/sources/repository.js';

const SOURCES: CatalogFile['sources'] = [
  {
    catalog: 'docker',
    repository: 'https://github.com/docker/mcp-registry',
    commit: '818bf169b365e7b7d5b117352e32757c54844718',
    committed_at: '2026-07-08T16:13:10Z',
    licence: 'MIT',
  },
];

function server(id: string, over: Partial<CatalogServer> = {}): CatalogServer {
  return {
    name: `catalog:docker/${id}`,
    catalog: 'docker',
    title: id,
    description: `The ${id} server`,
    category: null,
    repository: null,
    packages: [],
    remotes: [],
    oauth: false,
    docker_built_image: false,
    archived: false,
    source_path: `servers/${id}/server.yaml`,
    ...over,
  };
}

const registry: RegistryIdentity[] = [
  {
    name: 'io.github.github/github-mcp-server',
    packages: [{ registry_type: 'oci', identifier: 'ghcr.io/github/github-mcp-server:1.0.0' }],
    install: { repo_url: 'https://github.com/github/github-mcp-server' },
  },
  { name: 'com.notion/mcp', remotes: [{ url: 'https://mcp.notion.com/mcp' }], install: { repo_url: null } },
  { name: 'io.github.acme/tool', install: { repo_url: 'https://github.com/Acme/Tool' } },
  { name: 'io.github.mono/a', install: { repo_url: 'https://github.com/mono/repo' } },
  { name: 'io.github.mono/b', install: { repo_url: 'https://github.com/mono/repo' } },
];

describe('Catalog servers against the registry records', () => {
  const file = CatalogFileSchema.parse({
    sources: SOURCES,
    servers: [
      server('github-official', {
        packages: [{ registry_type: 'oci', identifier: 'ghcr.io/github/github-mcp-server' }],
      }),
      server('notion-remote', { remotes: [{ type: 'streamable-http', url: 'https://mcp.notion.com/mcp/' }] }),
      server('acme', { repository: 'https://www.github.com/acme/tool.git' }),
      server('mono', { repository: 'https://github.com/mono/repo' }),
      server('fetch', { packages: [{ registry_type: 'oci', identifier: 'mcp/fetch' }], docker_built_image: true }),
    ],
  });
  const { records, matches } = catalogRecords(file, registry);

  it('a server that shares a package, a remote URL or its one repository with a registry record makes no record', () => {
    expect(matches).toEqual([
      { catalog: 'catalog:docker/github-official', registry: 'io.github.github/github-mcp-server', by: 'package' },
      { catalog: 'catalog:docker/notion-remote', registry: 'com.notion/mcp', by: 'remote' },
      { catalog: 'catalog:docker/acme', registry: 'io.github.acme/tool', by: 'repository' },
    ]);
  });

  it('a repository several registry records share proves nothing, so that server gets its own record', () => {
    expect(records.map((r) => r.name)).toEqual(['catalog:docker/mono', 'catalog:docker/fetch']);
  });

  it('a catalog-only record is a valid record of what the catalog states, its packages unversioned', () => {
    const fetch = ServerRecordSchema.parse(records[1]);
    expect(fetch.packages).toEqual([{ registry_type: 'oci', identifier: 'mcp/fetch', version: null }]);
    expect(fetch.install).toEqual({
      repo_url: null,
      version: null,
      package_types: ['oci'],
      transport_types: ['stdio'],
    });
    expect(fetch.scored_at).toBe('2026-07-08T16:13:10Z');
  });

  it('scored with mts-2, a catalog-only record says the registry and its repository were not measured, and why', async () => {
    const sources = await loadEvidenceSources(defaultSourceContext());
    const scored = scoreRecord(ServerRecordSchema.parse(records[0]), sources, UNREAD_SOURCES).record;
    const evidence = scored.evidence!;
    expect(evidence.sources.registry).toMatchObject({ measured: false });
    expect(evidence.sources.registry.missing).toMatch(/^not in the registry: listed only by a curated catalog/);
    expect(evidence.sources.repository).toMatchObject({ measured: false, missing: CATALOG_REPOSITORY_UNREAD });
    expect(Object.values(evidence.signals).every((s) => s.source === 'advisories' || s.value === null)).toBe(true);
    expect(scored.flags).toContain('INSUFFICIENT_EVIDENCE');
    expect(scored.trust_score).toBeLessThan(40);
  });

  it('repository URLs compare without case, .git, a trailing slash or www', () => {
    expect(repositoryKey('https://www.GitHub.com/Acme/Tool.git/')).toBe(repositoryKey('https://github.com/acme/tool'));
    expect(repositoryKey('not a url')).toBeUndefined();
  });
});

describe('The committed catalog records (data/catalog-records.json)', () => {
  it('are exactly the catalog-only servers of data/catalog/servers.json against data/servers.json', () => {
    const catalog = CatalogFileSchema.parse(JSON.parse(readFileSync('data/catalog/servers.json', 'utf8')));
    const dataset = JSON.parse(readFileSync('data/servers.json', 'utf8')) as RegistryIdentity[];
    const committed = JSON.parse(readFileSync('data/catalog-records.json', 'utf8')) as unknown[];
    const { records, matches } = catalogRecords(catalog, dataset);
    expect(committed).toEqual(records);
    expect(records.length + matches.length).toBe(catalog.servers.length);
    for (const record of committed) ServerRecordSchema.parse(record);
    const names = new Set(records.map((r) => r.name));
    expect(names.has('catalog:reference/filesystem')).toBe(true);
    expect(names.has('catalog:reference/fetch')).toBe(true);
  });
});
