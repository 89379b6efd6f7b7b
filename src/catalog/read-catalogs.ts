/**
 * Turns what two curated catalogs publish into `CatalogServer` entries: Docker's MCP Catalog
 * (`docker/mcp-registry`, one `servers/<id>/server.yaml` per server) and the MCP reference servers
 * (`modelcontextprotocol/servers`: the README's list, each server's `package.json` or `pyproject.toml`).
 * Pure: the caller hands in the texts (scripts/catalog.ts reads them from local git checkouts), so tests run
 * on fixtures and nothing here touches the network. One bad entry is reported and skipped, never fatal.
 */
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import {
  CATALOG_ID_PATTERN,
  CATALOG_NAMESPACE_PREFIX,
  CatalogServerSchema,
  type CatalogServer,
} from '../model/catalog.js';
import { MAX_TEXT } from '../model/fields.js';

export type CatalogEntryResult = { server: CatalogServer } | { skipped: string };

/** The members of Docker's `server.yaml` this project reads; the rest (run, config, tools) is not needed. */
const DockerServerYamlSchema = z.looseObject({
  name: z.string().min(1),
  type: z.enum(['server', 'remote', 'poci']),
  image: z.string().min(1).max(200).optional(),
  meta: z.looseObject({ category: z.string().max(64).optional() }).optional(),
  about: z.looseObject({ title: z.string().optional(), description: z.string().optional() }).optional(),
  source: z.looseObject({ project: z.string().optional() }).optional(),
  remote: z.looseObject({ transport_type: z.string().optional(), url: z.string().optional() }).optional(),
  oauth: z.array(z.unknown()).optional(),
});

/** A repository URL as catalogs write it, made comparable: https, no `.git`, no trailing slash. */
export function repositoryUrl(text: string | undefined): string | null {
  if (text === undefined) return null;
  const trimmed = text
    .trim()
    .replace(/\/+$/, '')
    .replace(/\.git$/, '');
  return /^https:\/\/[^\s]+$/.test(trimmed) ? trimmed : null;
}

function shortText(text: string | undefined): string | null {
  const clean = text?.replace(/\s+/g, ' ').trim();
  if (!clean) return null;
  return clean.length > MAX_TEXT ? `${clean.slice(0, MAX_TEXT - 1)}…` : clean;
}

function checked(candidate: unknown, where: string): CatalogEntryResult {
  const result = CatalogServerSchema.safeParse(candidate);
  if (result.success) return { server: result.data };
  return { skipped: `${where}: ${result.error.issues[0]?.message ?? 'invalid'}` };
}

/** One `servers/<folder>/server.yaml` of Docker's MCP Catalog. */
export function dockerCatalogServer(folder: string, yamlText: string): CatalogEntryResult {
  const where = `servers/${folder}/server.yaml`;
  let parsed: unknown;
  try {
    parsed = parseYaml(yamlText);
  } catch (error) {
    return { skipped: `${where}: not YAML (${error instanceof Error ? error.message.split('\n')[0] : 'unreadable'})` };
  }
  const yaml = DockerServerYamlSchema.safeParse(parsed);
  if (!yaml.success) return { skipped: `${where}: ${yaml.error.issues[0]?.message ?? 'invalid'}` };
  const entry = yaml.data;
  const id = folder.toLowerCase();
  if (!CATALOG_ID_PATTERN.test(id)) return { skipped: `${where}: the folder name is not a catalog id` };
  const image = entry.image?.trim();
  const remotes = [];
  if (entry.type === 'remote') {
    const type = entry.remote?.transport_type;
    if ((type === 'streamable-http' || type === 'sse') && entry.remote?.url !== undefined) {
      remotes.push({ type, url: entry.remote.url.trim() });
    } else {
      return { skipped: `${where}: a remote without a known transport and URL` };
    }
  }
  return checked(
    {
      name: `${CATALOG_NAMESPACE_PREFIX}docker/${id}`,
      catalog: 'docker',
      title: shortText(entry.about?.title) ?? entry.name,
      description: shortText(entry.about?.description),
      category: entry.meta?.category ?? null,
      repository: repositoryUrl(entry.source?.project),
      packages: image === undefined ? [] : [{ registry_type: 'oci', identifier: image }],
      remotes,
      oauth: (entry.oauth?.length ?? 0) > 0,
      docker_built_image: image !== undefined && /^mcp\/[a-z0-9._-]+$/.test(image),
      archived: false,
      source_path: where,
    },
    where,
  );
}

/** A reference server's published package, read from its folder's manifest. */
export type ReferencePackage = { registry_type: 'npm' | 'pypi'; identifier: string };

const REFERENCE_REPOSITORY = 'https://github.com/modelcontextprotocol/servers';
const ARCHIVED_REPOSITORY = 'https://github.com/modelcontextprotocol/servers-archived';

/**
 * The README's list items: `- **[Title](src/<folder>)** - description` for a maintained server,
 * `- **[Title](https://github.com/modelcontextprotocol/servers-archived/tree/main/src/<folder>)** - …` for
 * an archived one.
 */
const README_ITEM =
  /^- \*\*\[([^\]]+)\]\((?:src\/|https:\/\/github\.com\/modelcontextprotocol\/servers-archived\/tree\/main\/src\/)([a-z0-9._-]+)\)\*\* - (.*)$/;

export interface ReadmeServer {
  folder: string;
  title: string;
  description: string;
  archived: boolean;
}

/** The reference servers the README lists, maintained and archived. */
export function readmeServers(readme: string): ReadmeServer[] {
  const found: ReadmeServer[] = [];
  for (const line of readme.split('\n')) {
    const match = README_ITEM.exec(line.trim());
    if (match === null) continue;
    const [, title = '', folder = '', description = ''] = match;
    found.push({ folder, title, description, archived: line.includes('servers-archived') });
  }
  return found;
}

/** The package name in a `package.json` or `pyproject.toml` text, or null when there is none. */
export function manifestPackage(kind: 'package.json' | 'pyproject.toml', text: string): ReferencePackage | null {
  if (kind === 'package.json') {
    const parsed = z.looseObject({ name: z.string().min(1).max(200) }).safeParse(JSON.parse(text));
    return parsed.success ? { registry_type: 'npm', identifier: parsed.data.name } : null;
  }
  const name = /^name\s*=\s*"([^"]+)"/m.exec(text)?.[1];
  return name === undefined ? null : { registry_type: 'pypi', identifier: name };
}

/** One reference server from its README item and the package its manifest names. */
export function referenceServer(item: ReadmeServer, pkg: ReferencePackage | null): CatalogEntryResult {
  const where = item.archived ? `servers-archived src/${item.folder}` : `src/${item.folder}`;
  return checked(
    {
      name: `${CATALOG_NAMESPACE_PREFIX}reference/${item.folder}`,
      catalog: 'reference',
      title: item.title,
      description: shortText(item.description),
      category: null,
      repository: item.archived ? ARCHIVED_REPOSITORY : REFERENCE_REPOSITORY,
      packages: pkg === null ? [] : [pkg],
      remotes: [],
      oauth: false,
      docker_built_image: false,
      archived: item.archived,
      source_path: where,
    },
    where,
  );
}
