import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  dockerCatalogServer,
  manifestPackage,
  readmeServers,
  referenceServer,
  repositoryUrl,
} from '../../src/catalog/read-catalogs.js';
import { CatalogFileSchema } from '../../src/model/catalog.js';

// The registry's own name pattern (its server.schema.json), which every registry name matches.
const REGISTRY_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

const DOCKER_IMAGE_SERVER = `name: fetch
image: mcp/fetch
type: server
meta:
  category: productivity
about:
  title: Fetch (Reference)
  description: Fetches a URL from the internet and extracts its contents as markdown.
source:
  project: https://github.com/modelcontextprotocol/servers.git/
`;

const DOCKER_REMOTE_SERVER = `name: notion-remote
type: remote
meta:
  category: productivity
about:
  title: Notion
remote:
  transport_type: streamable-http
  url: https://mcp.notion.com/mcp
oauth:
  - provider: notion-remote
    secret: notion-remote.personal_access_token
    env: NOTION_REMOTE_PERSONAL_ACCESS_TOKEN
`;

const README = `## Reference Servers
- **[Fetch](src/fetch)** - Web content fetching and conversion for efficient LLM usage.
- **[Filesystem](src/filesystem)** - Secure file operations with configurable access controls.
### Archived
- **[SQLite](https://github.com/modelcontextprotocol/servers-archived/tree/main/src/sqlite)** - Database interaction.
- Not a server item at all
`;

describe("Docker's MCP Catalog entries", () => {
  it('an mcp/ image entry becomes a docker catalog server whose image Docker built, with its repository made comparable', () => {
    const result = dockerCatalogServer('fetch', DOCKER_IMAGE_SERVER);
    if (!('server' in result)) throw new Error(result.skipped);
    expect(result.server).toMatchObject({
      name: 'catalog:docker/fetch',
      catalog: 'docker',
      title: 'Fetch (Reference)',
      category: 'productivity',
      repository: 'https://github.com/modelcontextprotocol/servers',
      packages: [{ registry_type: 'oci', identifier: 'mcp/fetch' }],
      remotes: [],
      oauth: false,
      docker_built_image: true,
      archived: false,
    });
  });

  it('a vendor image is listed but not marked as built by Docker', () => {
    const yaml = DOCKER_IMAGE_SERVER.replace('image: mcp/fetch', 'image: ghcr.io/github/github-mcp-server');
    const result = dockerCatalogServer('github-official', yaml);
    if (!('server' in result)) throw new Error(result.skipped);
    expect(result.server.docker_built_image).toBe(false);
    expect(result.server.packages).toEqual([{ registry_type: 'oci', identifier: 'ghcr.io/github/github-mcp-server' }]);
  });

  it('a remote entry keeps its URL, transport and that it signs in with OAuth', () => {
    const result = dockerCatalogServer('notion-remote', DOCKER_REMOTE_SERVER);
    if (!('server' in result)) throw new Error(result.skipped);
    expect(result.server).toMatchObject({
      name: 'catalog:docker/notion-remote',
      remotes: [{ type: 'streamable-http', url: 'https://mcp.notion.com/mcp' }],
      packages: [],
      oauth: true,
      repository: null,
      description: null,
    });
  });

  it('an entry that is not YAML, lacks its type or names a remote without a transport is skipped with a reason', () => {
    expect(dockerCatalogServer('broken', 'name: [unclosed')).toHaveProperty('skipped');
    expect(dockerCatalogServer('untyped', 'name: x\nimage: mcp/x\n')).toHaveProperty('skipped');
    const noTransport = DOCKER_REMOTE_SERVER.replace('  transport_type: streamable-http\n', '');
    expect(dockerCatalogServer('notion-remote', noTransport)).toEqual({
      skipped: 'servers/notion-remote/server.yaml: a remote without a known transport and URL',
    });
    expect(dockerCatalogServer('Bad Folder', DOCKER_IMAGE_SERVER)).toHaveProperty('skipped');
  });
});

describe('The MCP reference servers', () => {
  it("reads the README's maintained and archived items and nothing else", () => {
    expect(readmeServers(README)).toEqual([
      { folder: 'fetch', title: 'Fetch', description: expect.stringMatching(/^Web content/), archived: false },
      { folder: 'filesystem', title: 'Filesystem', description: expect.any(String), archived: false },
      { folder: 'sqlite', title: 'SQLite', description: 'Database interaction.', archived: true },
    ]);
  });

  it('names the package from package.json (npm) or pyproject.toml (PyPI)', () => {
    expect(manifestPackage('package.json', '{"name": "@modelcontextprotocol/server-filesystem"}')).toEqual({
      registry_type: 'npm',
      identifier: '@modelcontextprotocol/server-filesystem',
    });
    expect(manifestPackage('pyproject.toml', '[project]\nname = "mcp-server-fetch"\n')).toEqual({
      registry_type: 'pypi',
      identifier: 'mcp-server-fetch',
    });
    expect(manifestPackage('pyproject.toml', '[project]\n')).toBeNull();
  });

  it('an archived server points at the archive repository and says it is archived', () => {
    const [, , sqlite] = readmeServers(README);
    const result = referenceServer(sqlite!, { registry_type: 'pypi', identifier: 'mcp-server-sqlite' });
    if (!('server' in result)) throw new Error(result.skipped);
    expect(result.server).toMatchObject({
      name: 'catalog:reference/sqlite',
      archived: true,
      repository: 'https://github.com/modelcontextprotocol/servers-archived',
    });
  });

  it('repository URLs lose .git and trailing slashes, and what is not https is none', () => {
    expect(repositoryUrl('https://github.com/a/b.git/')).toBe('https://github.com/a/b');
    expect(repositoryUrl('git@github.com:a/b.git')).toBeNull();
    expect(repositoryUrl(undefined)).toBeNull();
  });
});

describe('The committed catalog file (data/catalog/servers.json)', () => {
  const file = CatalogFileSchema.parse(JSON.parse(readFileSync('data/catalog/servers.json', 'utf8')));

  it('passes its schema, and no name could ever be a registry name', () => {
    expect(file.servers.length).toBeGreaterThan(300);
    for (const server of file.servers) expect(server.name).not.toMatch(REGISTRY_NAME);
  });

  it('holds every maintained reference server with its package and the archived ones marked archived', () => {
    const reference = new Map(file.servers.filter((s) => s.catalog === 'reference').map((s) => [s.name, s]));
    expect(reference.get('catalog:reference/filesystem')?.packages).toEqual([
      { registry_type: 'npm', identifier: '@modelcontextprotocol/server-filesystem' },
    ]);
    expect(reference.get('catalog:reference/fetch')?.packages).toEqual([
      { registry_type: 'pypi', identifier: 'mcp-server-fetch' },
    ]);
    expect(reference.get('catalog:reference/github')).toMatchObject({ archived: true });
    expect(reference.get('catalog:reference/time')).toMatchObject({ archived: false });
  });

  it('says which commit of each catalog it was read from', () => {
    expect(file.sources.map((s) => s.catalog).sort()).toEqual(['docker', 'reference']);
  });

  it('the schema refuses a name outside its catalog namespace, a docker-built mark without an mcp/ image, and a duplicate', () => {
    const [first] = file.servers;
    const sources = file.sources;
    const bad = (servers: unknown[]) => CatalogFileSchema.safeParse({ sources, servers }).success;
    expect(bad([{ ...first, name: 'io.github.x/y' }])).toBe(false);
    expect(bad([{ ...first, packages: [], docker_built_image: true }])).toBe(false);
    expect(bad([first, first])).toBe(false);
    expect(bad([first])).toBe(true);
  });
});
