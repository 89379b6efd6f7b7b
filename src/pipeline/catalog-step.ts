/**
 * The catalog step of a night: the curators' catalog (`--catalog`, the format of `data/catalog/servers.json`)
 * read entry by entry, and its catalog-only servers measured like registry servers: their GitHub repositories
 * go through the GitHub step, their packages through the packages and advisories steps (`rescore.ts` runs them).
 *
 * What the night writes for the build (docs/pipeline.md, "The catalog"):
 * - `<out>/catalog/servers.json`: the catalog it used, its valid entries only, which the build joins as it joins
 *   the committed one (`src/dataset/catalog.ts`, unchanged);
 * - in `<out>/servers.json`, a record under its catalog name (`catalog:<curator>/<id>`) for each catalog-only
 *   server whose repository GitHub answered this night: the record the build makes of it
 *   (`catalogRecord`), dated this night, with the repository's signals and the `REPO_ARCHIVED` flag the GitHub
 *   answers give. The build joins it by its own name (the join's first rule) and scores it from that evidence.
 *   A catalog server whose repository was not read (none, not on GitHub, no answer) gets no record here: the
 *   build makes it from the catalog exactly as before, with no measured evidence; so does one that shares its
 *   package with another catalog server (the build would join that one to the record by the package).
 *
 * Nothing is invented: the record holds what the curator declares and what GitHub answered. The signals that
 * only a registry entry can give (secret variables, credentials, transport and package risk) are null, and
 * the registry source reads none of them for a catalog name anyway (`src/scoring/sources/registry.ts`).
 */
import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { catalogRecord, CatalogJoin } from '../dataset/catalog.js';
import { oneLineZodError } from '../dataset/inputs.js';
import type { LeftOut } from '../dataset/join.js';
import { CatalogFileSchema, CatalogServerSchema, type CatalogFile, type CatalogServer } from '../model/catalog.js';
import { packageKey } from '../model/identifiers.js';
import { ServerRecordSchema } from '../model/record-schema.js';
import type { ServerRecord } from '../model/schema.js';
import { parseGitHubRepo, type GitHubFacts, type ServerFacts } from '../scoring/facts.js';
import { signalsFor } from '../scoring/signals.js';
import { PipelineError } from './errors.js';
import type { OutcomeLookup } from './outcome-file.js';

/** The catalog a night read: its valid entries, the text written beside the dataset, and the entries left out. */
export interface NightCatalog {
  catalog: CatalogFile;
  /** `<out>/catalog/servers.json`: the catalog of the valid entries, in the committed file's layout. */
  text: string;
  leftOut: LeftOut[];
}

/** The whole file's frame: the sources checked strictly, the servers one by one afterwards. */
const CatalogFrameSchema = z.strictObject({
  sources: CatalogFileSchema.shape.sources,
  servers: z.array(z.unknown()).max(100_000),
});

/** What an entry is called when it is left out: its name when it has one, else its place in the file. */
function entryName(raw: unknown, index: number): string {
  const name = (raw as { name?: unknown } | null)?.name;
  return typeof name === 'string' && name !== '' ? name.slice(0, 200) : `catalog entry ${index + 1}`;
}

/**
 * `file` read as a catalog: a file that cannot be read, is not JSON or whose sources are wrong stops the night
 * (a bad setting, in one line); an entry that breaks the schema, names a source the file does not list, or
 * repeats an earlier name but for case is left out and named, and the rest is used.
 */
export function readNightCatalog(file: string): NightCatalog {
  let json: unknown;
  let given: string;
  try {
    given = readFileSync(file, 'utf8');
    json = JSON.parse(given);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new PipelineError(
      code === undefined
        ? `${file}: the catalog is not JSON (${(error as Error).message})`
        : `${file}: cannot read the catalog (${code})`,
    );
  }
  const frame = CatalogFrameSchema.safeParse(json);
  if (!frame.success) throw new PipelineError(`${file}: not a catalog file: ${oneLineZodError(frame.error)}`);
  const sources = new Set(frame.data.sources.map((source) => source.source));
  const servers: CatalogServer[] = [];
  const kept: unknown[] = [];
  const leftOut: LeftOut[] = [];
  const names = new Set<string>();
  frame.data.servers.forEach((raw, index) => {
    const name = entryName(raw, index);
    const parsed = CatalogServerSchema.safeParse(raw);
    if (!parsed.success) {
      leftOut.push({ name, reason: `catalog entry does not fit the catalog schema: ${oneLineZodError(parsed.error)}` });
    } else if (!sources.has(parsed.data.source)) {
      leftOut.push({
        name,
        reason: `catalog entry names the source ${parsed.data.source}, which the file does not list`,
      });
    } else if (names.has(parsed.data.name.toLowerCase())) {
      leftOut.push({
        name,
        reason: 'catalog entry has the name of an earlier one but for case; the earlier one is kept',
      });
    } else {
      names.add(parsed.data.name.toLowerCase());
      servers.push(parsed.data);
      kept.push(raw);
    }
  });
  const catalog = CatalogFileSchema.parse({ sources: frame.data.sources, servers });
  // A file with nothing left out is written as it was given, so a night over the committed one changes nothing.
  return { catalog, text: leftOut.length === 0 ? given : catalogText(frame.data.sources, kept), leftOut };
}

/** A catalog file as `scripts/catalog.ts` lays it out: one server a line, each as the file gave it. */
function catalogText(sources: CatalogFile['sources'], servers: readonly unknown[]): string {
  const head = JSON.stringify({ sources }, null, 2).replace(/\n}$/, '');
  const rows = servers.map((server) => `    ${JSON.stringify(server)}`);
  return `${head},\n  "servers": [\n${rows.join(',\n')}${rows.length > 0 ? '\n' : ''}  ]\n}\n`;
}

/** A collected entry as the join reads a record: its name, its repository and its packages. */
function joinShapeOf(server: {
  name?: unknown;
  repository?: { url?: string | null } | null;
  packages?: unknown;
}): unknown {
  const packages = z
    .array(z.looseObject({ registryType: z.string(), identifier: z.string() }))
    .safeParse(server.packages ?? []);
  return {
    name: server.name,
    install: { repo_url: server.repository?.url ?? null },
    packages: packages.success
      ? packages.data.map((pkg) => ({ registry_type: pkg.registryType, identifier: pkg.identifier }))
      : [],
  };
}

/** A catalog server's packages as the packages and advisories steps read an entry's (`registryType`, `identifier`). */
function packagesOfCatalogServer(server: CatalogServer): {
  packages: Array<{ registryType: string; identifier: string }>;
} {
  return {
    packages: [
      ...(server.image === undefined ? [] : [{ registryType: 'oci', identifier: server.image }]),
      ...(server.package === undefined ? [] : [server.package]),
    ],
  };
}

/** What the night measures of the catalog: the catalog-only servers' GitHub repositories and their packages. */
export interface CatalogPlan {
  repositories: Array<{ owner: string; repo: string }>;
  /** One per catalog-only server, shaped as the packages and advisories steps read an entry's server. */
  servers: Array<{ packages: Array<{ registryType: string; identifier: string }> }>;
}

/**
 * The catalog servers no collected entry is (by the join's own rules, on the entries as collected), and what
 * to measure of them. The records written are decided after the join (`catalogRecordsOf`), on the records
 * that made it: an entry left out there leaves its catalog server catalog-only, measured or not.
 */
export function catalogPlan(
  catalog: CatalogFile,
  entries: Iterable<{ server: Parameters<typeof joinShapeOf>[0] }>,
): CatalogPlan {
  const join = new CatalogJoin(catalog);
  for (const entry of entries) join.attach(joinShapeOf(entry.server));
  const only = new Set(join.unjoined().map((record) => (record as { name: string }).name));
  const repositories = new Map<string, { owner: string; repo: string }>();
  const servers: CatalogPlan['servers'] = [];
  for (const server of catalog.servers) {
    if (!only.has(server.name)) continue;
    const repo = parseGitHubRepo(server.repository ?? null);
    if (repo) repositories.set(`${repo.owner}/${repo.repo}`.toLowerCase(), repo);
    servers.push(packagesOfCatalogServer(server));
  }
  return { repositories: [...repositories.values()], servers };
}

/** The catalog declares no namespace, no variables, no transport: facts the method reads, filled with nothing. */
function factsOfCatalogServer(server: CatalogServer): ServerFacts {
  const packages = packagesOfCatalogServer(server).packages;
  return {
    name: server.name,
    namespace: '',
    serverId: server.id,
    description: server.description ?? server.title ?? '',
    repoUrl: server.repository ?? null,
    hasPackages: packages.length > 0,
    packageTypes: packages.map((pkg) => pkg.registryType),
    packageIdentifiers: packages.map((pkg) => pkg.identifier),
    hasRemotes: server.remoteUrl !== undefined,
    transportTypes: [],
    envVars: [],
    hasWebsite: false,
    hasIcon: false,
  };
}

export interface CatalogRecords {
  /** Records of catalog-only servers whose repository GitHub answered this night. */
  records: ServerRecord[];
  /** Catalog-only servers in all (measured or not), after the join with the records written. */
  catalogOnly: number;
  /** Catalog-only records left out because they make no valid record (named). */
  leftOut: LeftOut[];
}

/**
 * The records the night writes of catalog-only servers: every record of the dataset is joined first, so a
 * catalog server that is a registry record's server gets none (its listing goes to that record at the build).
 */
export function catalogRecordsOf(
  catalog: CatalogFile,
  records: Iterable<ServerRecord>,
  outcomes: OutcomeLookup,
  asOf: string,
): CatalogRecords {
  const join = new CatalogJoin(catalog);
  for (const record of records) join.attach(record);
  const unjoined = join.unjoined() as Array<Record<string, unknown> & { name: string }>;
  const byName = new Map(catalog.servers.map((server) => [server.name, server]));
  // A record the build joins by name also takes the listings of the catalog servers sharing its package: one
  // such server would then lose its own record. Those are left to the build, made from the catalog as before.
  const sharing = new Map<string, number>();
  const keysOf = (server: CatalogServer) =>
    packagesOfCatalogServer(server).packages.map((pkg) => packageKey(pkg.registryType, pkg.identifier));
  for (const server of catalog.servers) for (const key of keysOf(server)) sharing.set(key, (sharing.get(key) ?? 0) + 1);
  const written: ServerRecord[] = [];
  const leftOut: LeftOut[] = [];
  for (const raw of unjoined) {
    const server = byName.get(raw.name)!;
    if (keysOf(server).some((key) => (sharing.get(key) ?? 0) > 1)) continue;
    const repo = parseGitHubRepo(server.repository ?? null);
    const outcome = repo ? outcomes.get(`${repo.owner}/${repo.repo}`.toLowerCase()) : undefined;
    if (!repo || outcome === undefined || !outcome.enriched || outcome.facts === null) continue;
    // As for a registry server: the facts carry the owner as the declared URL spells it.
    const github: GitHubFacts = { ...outcome.facts, owner: repo.owner };
    const { signals } = signalsFor(factsOfCatalogServer(server), github, asOf);
    const made = ServerRecordSchema.safeParse({
      ...catalogRecord(server, catalog),
      scored_at: asOf,
      flags: github.repository?.archived === true ? ['REPO_ARCHIVED'] : [],
      // Only a registry entry declares these; the catalog does not, so they are not measured.
      signals: {
        ...signals,
        secret_env_var_count: null,
        transport_type_risk: null,
        credential_sensitivity: null,
        package_type_risk: null,
      },
    });
    if (made.success) written.push(made.data);
    else leftOut.push({ name: raw.name, reason: `makes no valid record: ${oneLineZodError(made.error)}` });
  }
  return { records: written, catalogOnly: unjoined.length, leftOut };
}
