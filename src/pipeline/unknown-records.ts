/**
 * Records of the packages checks asked about and the snapshot did not know (`unknown-step.ts` reads them from the
 * store): each one its package registry has becomes a server of its own, named from its lookup key
 * (`package:npm/<name>`, `package:npm:@scope/name`, `package:pypi/<name>`, `package:cargo/<name>`;
 * `src/model/package-servers.ts`), so the next snapshot finds it by package, purl and repository, the check
 * judges it by its evidence, and a later ask of it is no longer unknown.
 *
 * What the night keeps, in `<out>/evidence/asked-packages.json` (the republish carries the evidence folder from
 * night to night): the packages that have a record, each with the repository its registry named the last time it
 * was read. A matched package is no longer counted, so the store forgets it after a week: the list is what keeps
 * its record. Each night the list and the newly asked packages go through the packages and advisories steps, and
 * the repositories the list holds through the GitHub step, before their records are written with the dataset.
 *
 * The rules (docs/pipeline.md, "Unknown identifiers"):
 * - a package enters the list only once its registry answered that it exists; one the registry answers 404 for
 *   leaves it (a check still fails it by its advisories, which need no record);
 * - a package a registry record or a catalog server names gets no record, and leaves the list: the registry
 *   record (or the catalog's) wins, a server is never served twice;
 * - a night that could not read a listed package keeps its record, with the repository read before;
 * - at most `MAX_ASKED_PACKAGES` are listed; the ones listed before stay first.
 *
 * Nothing is invented: the record holds the package (no version: none was asked), the repository its registry
 * names, and, when the GitHub step read that repository this night, its signals as for a catalog server. A
 * package first asked tonight has no repository measured until the next night (its repository is learnt from
 * tonight's read): until then the build gives it what its package and advisories say, or "insufficient evidence".
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { oneLineZodError } from '../dataset/inputs.js';
import type { LeftOut } from '../dataset/join.js';
import type { CatalogFile } from '../model/catalog.js';
import { isoUtc } from '../model/fields.js';
import { packageKey } from '../model/identifiers.js';
import type { PackageFacts, PackageFactsFile } from '../model/package-facts.js';
import { PACKAGE_SERVER_REGISTRIES, packageServerName } from '../model/package-servers.js';
import { ServerRecordSchema } from '../model/record-schema.js';
import type { ServerRecord } from '../model/schema.js';
import { parseGitHubRepo, type GitHubFacts, type ServerFacts } from '../scoring/facts.js';
import { signalsFor } from '../scoring/signals.js';
import type { OutcomeLookup } from './outcome-file.js';
import { packagesOf } from './packages/read-packages.js';

/** The list's file, in the dataset's evidence folder. */
export const ASKED_PACKAGES_FILE = join('evidence', 'asked-packages.json');

/** The most packages with a record of their own. */
export const MAX_ASKED_PACKAGES = 10_000;

const AskedPackageSchema = z.strictObject({
  registry_type: z.enum(PACKAGE_SERVER_REGISTRIES),
  /** The name as the lookup compares it (the part of `packageKey` after the type). */
  identifier: z.string().min(1).max(214),
  /** The night it was first listed. */
  listed_at: isoUtc(),
  /** The repository its registry named when it was last read; null: none, or not read yet. */
  repository_url: z
    .url({ protocol: /^https?$/ })
    .max(500)
    .nullable(),
});
export type AskedPackage = z.infer<typeof AskedPackageSchema>;

/** No date of its own: a night that changes nothing writes the same file (the evidence folder is in the input hash). */
const AskedPackagesFileSchema = z.strictObject({
  packages: z.array(AskedPackageSchema).max(MAX_ASKED_PACKAGES),
});

const keyOf = (pkg: Pick<AskedPackage, 'registry_type' | 'identifier'>) =>
  packageKey(pkg.registry_type, pkg.identifier);

/**
 * The list the last night left in `out`: empty when there is none; a file that is not one is a note in `notes`,
 * and the night starts a new list (the records come back as checks ask again).
 */
export function readAskedPackages(out: string, notes: string[]): AskedPackage[] {
  const file = join(out, ASKED_PACKAGES_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    notes.push(`${file} is not JSON; the packages checks asked about are listed anew`);
    return [];
  }
  const parsed = AskedPackagesFileSchema.safeParse(json);
  if (parsed.success) return parsed.data.packages;
  notes.push(`${file} is not a list of asked packages (${oneLineZodError(parsed.error)}); listed anew`);
  return [];
}

/** The GitHub repositories of the listed packages, for the GitHub step. */
export function askedRepositories(listed: readonly AskedPackage[]): Array<{ owner: string; repo: string }> {
  return listed.flatMap((pkg) => {
    const repo = parseGitHubRepo(pkg.repository_url);
    return repo ? [repo] : [];
  });
}

/** The listed packages and the newly asked ones, shaped as the packages and advisories steps read an entry's server. */
export function askedServers(
  listed: readonly AskedPackage[],
  asked: ReadonlyArray<{ packages: ReadonlyArray<{ registryType: string; identifier: string }> }>,
): Array<{ packages: Array<{ registryType: string; identifier: string }> }> {
  const listedKeys = new Set(listed.map(keyOf));
  return [
    ...listed.map((pkg) => ({ packages: [{ registryType: pkg.registry_type, identifier: pkg.identifier }] })),
    ...asked.filter((server) =>
      server.packages.every((pkg) => !listedKeys.has(packageKey(pkg.registryType, pkg.identifier))),
    ),
  ].map((server) => ({ packages: server.packages.map((pkg) => ({ ...pkg })) }));
}

/** The facts `file` (the packages step's) holds of the packages of `servers`, by lookup key. */
export function askedFacts(
  file: PackageFactsFile,
  servers: ReadonlyArray<{ packages?: unknown }>,
): Map<string, PackageFacts> {
  const facts = new Map<string, PackageFacts>();
  for (const ref of packagesOf(servers)) {
    const key = packageKey(ref.registry, ref.identifier);
    if (file.packages[key] !== undefined) facts.set(key, file.packages[key]);
  }
  return facts;
}

export interface AskedRecordsInput {
  listed: readonly AskedPackage[];
  /** Newly asked packages (`unknown-step.ts`), in the store's order: most asked first. */
  asked: ReadonlyArray<{ packages: ReadonlyArray<{ registryType: string; identifier: string }> }>;
  /** This night's facts of those packages by lookup key; a package not here was not read this night. */
  facts: ReadonlyMap<string, PackageFacts>;
  /** The dataset's other records (registry and catalog-only ones): a package one of them names gets no record. */
  records: Iterable<ServerRecord>;
  /** The catalog the night joined, when there is one: its servers' packages and images are theirs too. */
  catalog: CatalogFile | undefined;
  outcomes: OutcomeLookup;
  asOf: string;
}

export interface AskedRecords {
  records: ServerRecord[];
  /** `<out>/evidence/asked-packages.json`. */
  text: string;
  leftOut: LeftOut[];
  counts: {
    /** Packages with a record tonight. */
    records: number;
    /** Of them, listed tonight for the first time. */
    added: number;
    /** Listed packages dropped tonight: a registry or catalog record now names them, or their registry no longer has them. */
    dropped: number;
  };
}

/** The package keys the dataset's records (and the catalog's servers) already name. */
function namedKeys(records: Iterable<ServerRecord>, catalog: CatalogFile | undefined): Set<string> {
  const keys = new Set<string>();
  for (const record of records) {
    for (const pkg of record.packages ?? []) keys.add(packageKey(pkg.registry_type, pkg.identifier));
    for (const listing of record.listings ?? [])
      if (listing.package) keys.add(packageKey(listing.package.registry_type, listing.package.identifier));
  }
  // The catalog-only servers the build makes from the catalog hold their packages too.
  for (const server of catalog?.servers ?? []) {
    if (server.package) keys.add(packageKey(server.package.registryType, server.package.identifier));
  }
  return keys;
}

/** A package's facts for the method: no namespace, no description, no remote; the package and its repository. */
function factsOfPackage(name: string, pkg: AskedPackage): ServerFacts {
  return {
    name,
    namespace: '',
    serverId: name.slice(name.indexOf('/') + 1),
    description: '',
    repoUrl: pkg.repository_url,
    hasPackages: true,
    packageTypes: [pkg.registry_type],
    packageIdentifiers: [pkg.identifier],
    hasRemotes: false,
    transportTypes: [],
    envVars: [],
    hasWebsite: false,
    hasIcon: false,
  };
}

/** The record of a listed package: what its registry and (when read tonight) its repository say, nothing else. */
function recordOf(
  name: string,
  pkg: AskedPackage,
  outcomes: OutcomeLookup,
  asOf: string,
): ReturnType<typeof ServerRecordSchema.safeParse> {
  const repo = parseGitHubRepo(pkg.repository_url);
  const outcome = repo ? outcomes.get(`${repo.owner}/${repo.repo}`.toLowerCase()) : undefined;
  const github: GitHubFacts | null =
    repo && outcome?.enriched && outcome.facts !== null ? { ...outcome.facts, owner: repo.owner } : null;
  const signals =
    github === null
      ? undefined
      : {
          ...signalsFor(factsOfPackage(name, pkg), github, asOf).signals,
          // Only a registry entry declares these; a package does not, so they are not measured.
          secret_env_var_count: null,
          transport_type_risk: null,
          credential_sensitivity: null,
          package_type_risk: null,
        };
  return ServerRecordSchema.safeParse({
    name,
    trust_score: 0,
    trust_label: 'Unknown/Suspicious',
    scores: { provenance: 0, maintenance: 0, popularity: 0, permissions: 0 },
    flags: github?.repository?.archived === true ? ['REPO_ARCHIVED'] : [],
    badges: [],
    verified_publisher: false,
    targets: [],
    scored_at: asOf,
    install: {
      repo_url: pkg.repository_url,
      version: null,
      package_types: [pkg.registry_type],
      transport_types: [],
    },
    ...(signals === undefined ? {} : { signals }),
    description: null,
    packages: [{ registry_type: pkg.registry_type, identifier: pkg.identifier, version: null }],
    remotes: [],
  });
}

/**
 * Tonight's list and its records: the listed packages and the newly asked ones, by the rules of the module
 * comment, in the list's order (listed first, then the newly asked, most asked first); records by name order
 * are the caller's to merge.
 */
export function askedRecordsOf(input: AskedRecordsInput): AskedRecords {
  const named = namedKeys(input.records, input.catalog);
  const kept: AskedPackage[] = [];
  const names = new Set<string>();
  const records: ServerRecord[] = [];
  const leftOut: LeftOut[] = [];
  let dropped = 0;
  let added = 0;
  const consider = (pkg: AskedPackage, listed: boolean) => {
    const key = keyOf(pkg);
    const facts = input.facts.get(key);
    const name = packageServerName(key);
    if (named.has(key) || facts?.found === false || name === undefined) {
      if (listed) dropped++;
      return;
    }
    // A package not listed yet is listed only once its registry answered that it exists.
    if (!listed && facts === undefined) return;
    if (kept.length >= MAX_ASKED_PACKAGES) return;
    if (names.has(name.toLowerCase())) {
      leftOut.push({ name, reason: 'its name differs only in case from a package server listed before it' });
      return;
    }
    const current: AskedPackage = {
      ...pkg,
      repository_url: facts === undefined ? pkg.repository_url : facts.repository_url,
    };
    const made = recordOf(name, current, input.outcomes, input.asOf);
    if (!made.success) {
      leftOut.push({ name, reason: `makes no valid record: ${oneLineZodError(made.error)}` });
      return;
    }
    names.add(name.toLowerCase());
    kept.push(current);
    records.push(made.data);
    if (!listed) added++;
  };
  const listedKeys = new Set<string>();
  for (const pkg of input.listed) {
    listedKeys.add(keyOf(pkg));
    consider(pkg, true);
  }
  for (const server of input.asked) {
    for (const ref of server.packages) {
      const key = packageKey(ref.registryType, ref.identifier);
      if (listedKeys.has(key)) continue;
      listedKeys.add(key);
      const type = key.slice(0, key.indexOf(':'));
      const parsed = AskedPackageSchema.safeParse({
        registry_type: type,
        identifier: key.slice(type.length + 1),
        listed_at: input.asOf,
        repository_url: null,
      });
      if (parsed.success) consider(parsed.data, false);
    }
  }
  const file = AskedPackagesFileSchema.parse({ packages: kept });
  const rows = file.packages.map((pkg) => `    ${JSON.stringify(pkg)}`);
  const text = `{\n  "packages": [\n${rows.join(',\n')}${rows.length > 0 ? '\n' : ''}  ]\n}\n`;
  return { records, text, leftOut, counts: { records: records.length, added, dropped } };
}
