/**
 * The curators' catalog (`data/catalog/servers.json`, `src/model/catalog.ts`) joined with a dataset: each
 * catalog server either is a dataset record's server, and its listing attaches to that record (`listings`),
 * or becomes a record of its own under its catalog name (`catalog:docker/<id>`), holding only what the curator
 * declares. The registry record always wins: a server is never served twice. The build joins the committed
 * catalog (`src/snapshot-build/catalog-records.ts`); the nightly rescoring measures the catalog's own servers with it.
 *
 * Same server means: the same catalog name (a record the rescoring wrote of a catalog server), the same package
 * (npm, PyPI, or the image as an OCI package, compared by `packageKey`), or the same source repository
 * (`repositoryKey`) when no other catalog server names that repository. A monorepo holds many servers
 * (`awslabs/mcp`, `modelcontextprotocol/servers`): a repository several catalog servers share says nothing
 * about which registry record each one is, so those are joined by package only.
 */
import * as z from 'zod';
import type { CatalogFile, CatalogServer, Listing } from '../model/catalog.js';
import { MAX_TEXT } from '../model/fields.js';
import { packageKey, repositoryKey } from '../model/identifiers.js';

/** The listing a record carries for `server` of `catalog`. */
export function listingOf(server: CatalogServer, catalog: CatalogFile): Listing {
  const source = catalog.sources.find((s) => s.source === server.source)!;
  return {
    source: server.source,
    name: server.name,
    commit: source.commit,
    listed_at: source.date,
    ...(server.image === undefined ? {} : { image: server.image }),
    ...(server.package === undefined
      ? {}
      : { package: { registry_type: server.package.registryType, identifier: server.package.identifier } }),
    ...(server.repository === undefined ? {} : { repository: server.repository }),
    ...(server.remoteUrl === undefined ? {} : { remote_url: server.remoteUrl }),
  };
}

/** The package keys a catalog server is known by: its package and its image. */
function catalogPackageKeys(server: CatalogServer): string[] {
  const keys: string[] = [];
  if (server.image !== undefined) keys.push(packageKey('oci', server.image));
  if (server.package !== undefined) keys.push(packageKey(server.package.registryType, server.package.identifier));
  return keys;
}

/** What a raw record of the dataset is known by; nothing when it is not shaped like a record. */
const JoinableShape = z.looseObject({
  name: z.string(),
  install: z.looseObject({ repo_url: z.string().nullable() }),
  packages: z.array(z.looseObject({ registry_type: z.string(), identifier: z.string() })).optional(),
});

/**
 * The join of one catalog with one dataset. `attach` is given every record of the dataset, in order, and
 * returns it with the listings of the catalog servers that are its server; `unjoined` then gives the
 * catalog servers no record was, as records to score. Pure in what `attach` returns: the build's worker
 * thread makes its own join and attaches exactly the same listings.
 */
export class CatalogJoin {
  private readonly byPackage = new Map<string, CatalogServer[]>();
  private readonly byRepository = new Map<string, CatalogServer | null>();
  private readonly byName = new Map<string, CatalogServer>();
  private readonly joined = new Set<string>();

  constructor(readonly catalog: CatalogFile) {
    for (const server of catalog.servers) {
      this.byName.set(server.name.toLowerCase(), server);
      for (const key of catalogPackageKeys(server)) {
        const list = this.byPackage.get(key) ?? [];
        if (!list.includes(server)) list.push(server);
        this.byPackage.set(key, list);
      }
      const repository = server.repository === undefined ? undefined : repositoryKey(server.repository);
      if (repository === undefined) continue;
      // null: more than one catalog server names this repository (a monorepo); it joins nothing.
      this.byRepository.set(repository, this.byRepository.has(repository) ? null : server);
    }
  }

  /** `raw` with the listings of the catalog servers that are its server, or `raw` itself when none is. */
  attach(raw: unknown): unknown {
    const shape = JoinableShape.safeParse(raw);
    if (!shape.success) return raw;
    const found: CatalogServer[] = [];
    const itself = this.byName.get(shape.data.name.toLowerCase());
    if (itself !== undefined) found.push(itself);
    for (const pkg of shape.data.packages ?? []) {
      for (const server of this.byPackage.get(packageKey(pkg.registry_type, pkg.identifier)) ?? [])
        if (!found.includes(server)) found.push(server);
    }
    const repoUrl = shape.data.install.repo_url;
    const repository = repoUrl === null ? undefined : repositoryKey(repoUrl);
    const byRepository = repository === undefined ? undefined : this.byRepository.get(repository);
    if (byRepository && !found.includes(byRepository)) found.push(byRepository);
    if (found.length === 0) return raw;
    for (const server of found) this.joined.add(server.name);
    const listings = found
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .slice(0, 16)
      .map((server) => listingOf(server, this.catalog));
    return { ...(raw as Record<string, unknown>), listings };
  }

  /** The catalog servers no record of the dataset was, as unscored records; call once every record was attached. */
  unjoined(): unknown[] {
    return this.catalog.servers
      .filter((server) => !this.joined.has(server.name))
      .map((server) => catalogRecord(server, this.catalog));
  }
}

/** A record's description is at most MAX_TEXT characters: a longer curator's text is cut at a word, marked `…`. */
function shortened(text: string | undefined): string | null {
  if (text === undefined || text.trim() === '') return null;
  if (text.length <= MAX_TEXT) return text;
  const cut = text.slice(0, MAX_TEXT - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > MAX_TEXT / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * A catalog server as a record, before scoring: its name, what the curator declares (description, cut to
 * MAX_TEXT, image and package as `packages`, remote URL as `remotes`, repository as `install.repo_url`) and its listing. Nothing
 * else is filled in: no version, no transport (the catalog names a URL, not its transport: `unknown`), no
 * targets, no badges; the scores are the method's to make, and `scored_at` is the catalog's date, the day
 * its declarations are from.
 */
export function catalogRecord(server: CatalogServer, catalog: CatalogFile): Record<string, unknown> {
  const listing = listingOf(server, catalog);
  const packages = [
    ...(server.image === undefined ? [] : [{ registry_type: 'oci', identifier: server.image, version: null }]),
    ...(server.package === undefined
      ? []
      : [{ registry_type: server.package.registryType, identifier: server.package.identifier, version: null }]),
  ];
  return {
    name: server.name,
    trust_score: 0,
    trust_label: 'Unknown/Suspicious',
    scores: { provenance: 0, maintenance: 0, popularity: 0, permissions: 0 },
    flags: [],
    badges: [],
    verified_publisher: false,
    targets: [],
    scored_at: listing.listed_at,
    install: {
      repo_url: server.repository ?? null,
      version: null,
      package_types: [...new Set(packages.map((pkg) => pkg.registry_type))],
      transport_types: [],
    },
    description: shortened(server.description ?? server.title),
    packages,
    remotes: server.remoteUrl === undefined ? [] : [{ type: 'unknown', url: server.remoteUrl }],
    listings: [listing],
  };
}
