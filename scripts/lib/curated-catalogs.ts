/**
 * Readers of the two curated server lists the project knows beyond the registry, from local git clones (no work
 * tree): Docker's MCP Catalog (`docker/mcp-registry`, `servers/*\/server.yaml`) and the MCP reference servers
 * (`modelcontextprotocol/servers`, `src/*`). Each server comes back as the facts its curator declares (image,
 * remote URL, package, repository), nothing measured. Used by `scripts/evaluation-set.ts` and
 * `scripts/catalog.ts`, run by hand.
 */
import { execFileSync } from 'node:child_process';
import { parse as parseYaml } from 'yaml';
import * as z from 'zod';

export const git = (dir: string, ...args: string[]): string =>
  execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });

export type CuratedSource = 'docker-mcp-catalog' | 'mcp-reference-servers';

/** One server as its curator lists it: declared facts only. */
export interface CuratedServer {
  source: CuratedSource;
  /** The curator's own id: the catalog folder name, or the reference server's folder under `src/`. */
  id: string;
  title?: string;
  description?: string;
  /** An OCI image reference (Docker catalog `type: server`). */
  image?: string;
  /** A remote endpoint (Docker catalog `type: remote`). */
  remoteUrl?: string;
  /** A package a client runs (reference servers: npm or PyPI). */
  package?: { registryType: 'npm' | 'pypi'; identifier: string };
  /** The source repository the curator names. */
  repository?: string;
}

export interface CuratedList {
  commit: string;
  /** The commit's date, ISO 8601. */
  date: string;
  servers: CuratedServer[];
}

const CatalogEntrySchema = z.looseObject({
  name: z.string().min(1).max(200),
  type: z.enum(['server', 'remote', 'poci']),
  image: z.string().min(1).max(500).optional(),
  remote: z.looseObject({ url: z.string().url().max(500) }).optional(),
  about: z
    .looseObject({ title: z.string().max(200).optional(), description: z.string().max(2000).optional() })
    .optional(),
  source: z.looseObject({ project: z.string().url().max(500).optional() }).optional(),
});

const head = (dir: string) => ({
  commit: git(dir, 'rev-parse', 'HEAD').trim(),
  date: new Date(git(dir, 'log', '-1', '--format=%cI', 'HEAD').trim()).toISOString(),
});

/** Docker's MCP Catalog: servers with an image or a remote URL; an entry its schema refuses is named and left out. */
export function readDockerCatalog(dir: string): CuratedList {
  const servers: CuratedServer[] = [];
  for (const folder of git(dir, 'ls-tree', '--name-only', 'HEAD:servers').trim().split('\n')) {
    const parsed = CatalogEntrySchema.safeParse(parseYaml(git(dir, 'show', `HEAD:servers/${folder}/server.yaml`)));
    if (!parsed.success) {
      console.error(`curated-catalogs: servers/${folder}/server.yaml left out: ${parsed.error.issues[0]?.message}`);
      continue;
    }
    const entry = parsed.data;
    const common = {
      source: 'docker-mcp-catalog' as const,
      id: entry.name,
      ...(entry.about?.title ? { title: entry.about.title } : {}),
      ...(entry.about?.description ? { description: entry.about.description } : {}),
      ...(entry.source?.project ? { repository: entry.source.project } : {}),
    };
    if (entry.type === 'remote' && entry.remote) servers.push({ ...common, remoteUrl: entry.remote.url });
    else if (entry.type === 'server' && entry.image) servers.push({ ...common, image: entry.image });
  }
  return { ...head(dir), servers };
}

const PackageJsonSchema = z.looseObject({ name: z.string().min(1).max(214), description: z.string().optional() });

/** The MCP reference servers under `src/`: each folder's npm or PyPI package. */
export function readReferenceServers(dir: string): CuratedList {
  const servers: CuratedServer[] = [];
  for (const folder of git(dir, 'ls-tree', '--name-only', 'HEAD:src').trim().split('\n')) {
    const files = git(dir, 'ls-tree', '--name-only', `HEAD:src/${folder}`).split('\n');
    const common = {
      source: 'mcp-reference-servers' as const,
      id: folder,
      repository: 'https://github.com/modelcontextprotocol/servers',
    };
    if (files.includes('package.json')) {
      const pkg = PackageJsonSchema.parse(JSON.parse(git(dir, 'show', `HEAD:src/${folder}/package.json`)));
      servers.push({
        ...common,
        ...(pkg.description ? { description: pkg.description } : {}),
        package: { registryType: 'npm', identifier: pkg.name },
      });
    } else if (files.includes('pyproject.toml')) {
      const text = git(dir, 'show', `HEAD:src/${folder}/pyproject.toml`);
      const name = /^name\s*=\s*"([^"]+)"/m.exec(text)?.[1];
      const description = /^description\s*=\s*"([^"]+)"/m.exec(text)?.[1];
      if (name)
        servers.push({
          ...common,
          ...(description ? { description } : {}),
          package: { registryType: 'pypi', identifier: name },
        });
    }
  }
  return { ...head(dir), servers };
}
