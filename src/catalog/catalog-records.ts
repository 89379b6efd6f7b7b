/**
 * The records of the servers that curated catalogs list and the registry does not: one record per catalog
 * server that no registry record already is, under its `catalog:<catalog>/<id>` name, so that a check finds it
 * by package, purl, URL or repository. A catalog server IS a registry record when they share a package or a
 * remote URL, or the one repository both name (a repository several servers share, a monorepo, proves
 * nothing); then no record is made.
 *
 * A record holds only what the catalog states; its scores are placeholders that the build's mts-2 scoring
 * replaces from the evidence, where every source is unmeasured until a night with network reads it (the
 * registry source says why for a `catalog:` name). Being listed raises nothing by itself.
 */
import type { CatalogFile, CatalogServer } from '../model/catalog.js';
import { CATALOG_NAMESPACE_PREFIX } from '../model/catalog.js';
import { labelForScore } from '../model/fields.js';
import { packageKey, urlKey } from '../model/identifiers.js';
import type { ServerRecord } from '../model/schema.js';

/** What a registry record is compared by: its name, packages, remotes and repository. */
export interface RegistryIdentity {
  name: string;
  packages?: readonly { registry_type: string; identifier: string }[];
  remotes?: readonly { url: string }[];
  install: { repo_url: string | null };
}

/** A repository URL as compared here: lower-case, no `.git`, no trailing slash, no `www.`. */
export function repositoryKey(url: string | null | undefined): string | undefined {
  if (url === null || url === undefined) return undefined;
  const key = urlKey(url.trim().replace(/\.git\/*$/i, ''));
  return key
    ?.toLowerCase()
    .replace('://www.', '://')
    .replace(/^http:/, 'https:');
}

function identityKeys(
  packages: readonly { registry_type: string; identifier: string }[],
  remotes: readonly { url: string }[],
): string[] {
  const keys = packages.map((p) => packageKey(p.registry_type, p.identifier));
  for (const remote of remotes) {
    const key = urlKey(remote.url);
    if (key !== undefined) keys.push(`url:${key}`);
  }
  return keys;
}

export interface CatalogMatch {
  catalog: string;
  registry: string;
  by: 'package' | 'remote' | 'repository';
}

export interface CatalogRecords {
  /** Records for the catalog servers no registry record is, in the catalog file's order. */
  records: ServerRecord[];
  /** The catalog servers that are registry records, and what showed it. */
  matches: CatalogMatch[];
}

/** Counts how many of `items` name each repository key. */
function repositoryCounts<T>(items: readonly T[], urlOf: (item: T) => string | null | undefined): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) {
    const key = repositoryKey(urlOf(item));
    if (key !== undefined) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

function recordOf(server: CatalogServer, listedAt: string): ServerRecord {
  const packageTypes = [...new Set(server.packages.map((p) => p.registry_type))];
  const transports = [
    ...new Set([...(server.packages.length > 0 ? ['stdio'] : []), ...server.remotes.map((r) => r.type)]),
  ];
  return {
    name: server.name,
    trust_score: 0,
    trust_label: labelForScore(0),
    scores: { provenance: 0, maintenance: 0, popularity: 0, permissions: 0 },
    flags: ['INSUFFICIENT_EVIDENCE'],
    badges: [],
    verified_publisher: false,
    targets: [],
    scored_at: listedAt,
    install: { repo_url: server.repository, version: null, package_types: packageTypes, transport_types: transports },
    description: server.description,
    packages: server.packages.map((p) => ({ ...p, version: null })),
    remotes: server.remotes.map((r) => ({ ...r })),
  };
}

/** The catalog-only records, and which catalog servers are already registry records. */
export function catalogRecords(file: CatalogFile, registry: readonly RegistryIdentity[]): CatalogRecords {
  const byIdentity = new Map<string, string>();
  for (const record of registry) {
    for (const key of identityKeys(record.packages ?? [], record.remotes ?? [])) {
      if (!byIdentity.has(key)) byIdentity.set(key, record.name);
    }
  }
  const registryRepos = repositoryCounts(registry, (record) => record.install.repo_url);
  const catalogRepos = repositoryCounts(file.servers, (server) => server.repository);
  const byRepository = new Map<string, string>();
  for (const record of registry) {
    const key = repositoryKey(record.install.repo_url);
    if (key !== undefined && registryRepos.get(key) === 1) byRepository.set(key, record.name);
  }
  const listedAt = new Map(file.sources.map((source) => [source.catalog, source.committed_at]));
  const records: ServerRecord[] = [];
  const matches: CatalogMatch[] = [];
  for (const server of file.servers) {
    if (!server.name.startsWith(CATALOG_NAMESPACE_PREFIX)) continue;
    let match: CatalogMatch | undefined;
    for (const key of identityKeys(server.packages, server.remotes)) {
      const name = byIdentity.get(key);
      if (name !== undefined) {
        match = { catalog: server.name, registry: name, by: key.startsWith('url:') ? 'remote' : 'package' };
        break;
      }
    }
    const repo = repositoryKey(server.repository);
    if (match === undefined && repo !== undefined && catalogRepos.get(repo) === 1) {
      const name = byRepository.get(repo);
      if (name !== undefined) match = { catalog: server.name, registry: name, by: 'repository' };
    }
    if (match !== undefined) matches.push(match);
    else records.push(recordOf(server, listedAt.get(server.catalog) ?? '1970-01-01T00:00:00Z'));
  }
  return { records, matches };
}
