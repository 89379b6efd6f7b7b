/**
 * One rescoring run: collect the registry, enrich from GitHub, score with the method, and write the dataset in
 * the build's input format (`<out>/servers.json` and `<out>/registry/servers.json`, as `npm run import` writes
 * them), or refuse to write anything when the run is not good enough to publish.
 */
import { join } from 'node:path';
import { ImportError, RegistryDumpSchema, type ScorecardIndex } from '../dataset/inputs.js';
import { compareNames, datasetPieces, joinDatasets, type LeftOut } from '../dataset/join.js';
import { importRegistryEntries, registryDataPieces } from '../dataset/registry.js';
import { PackageFactsFileSchema, type PackageFacts } from '../model/package-facts.js';
import type { ServerRecord } from '../model/schema.js';
import { factsFromServer, parseGitHubRepo, type GitHubFacts } from '../scoring/facts.js';
import { flagContext } from '../scoring/flags.js';
import { scoreServer } from '../scoring/score.js';
import {
  readGitHubCache,
  readPackageCache,
  readRegistryCache,
  writeGitHubCache,
  writePackageCache,
  writeRegistryCache,
} from './cache.js';
import { packagesOf, readPackages, type ReadPackagesOptions } from './packages/read-packages.js';
import type { ProbeNightCounts } from './probe/probe-night.js';
import { probeStepOf, readAdvisoriesStep, type AdvisoryStepOptions, type ProbeStepOptions } from './evidence-steps.js';
import { collect, type CollectOptions } from './collect.js';
import type { AdvisoryCounts } from './osv/read-advisories.js';
import { PipelineError } from './errors.js';
import { enrich, type EnrichOptions } from './github.js';
import type { HttpPolicy } from './http-json.js';
import { countUnchanged } from './unchanged.js';
import { writeFilesAtomically } from './write.js';
import { catalogPlan, catalogRecordsOf, readNightCatalog } from './catalog-step.js';
import { unknownStepOf, type UnknownStepOptions } from './unknown-step.js';
import {
  ASKED_PACKAGES_FILE,
  askedFacts,
  askedRecordsOf,
  askedRepositories,
  askedServers,
  readAskedPackages,
} from './unknown-records.js';

export interface RescoreOptions {
  registryUrl: string;
  githubApiUrl: string;
  /** `scored_at` of every record, and the time the method's ages and recencies are measured from. */
  asOf: string;
  out: string;
  cache: string;
  token?: string | undefined;
  /** The largest share of GitHub repositories that may go unenriched before the run refuses to write. */
  maxUnenriched: number;
  registryPolicy: HttpPolicy;
  github: Omit<EnrichOptions, 'baseUrl' | 'token' | 'cache' | 'log'>;
  /** Progress of the GitHub step, for a terminal. */
  progress?: (done: number, total: number) => void;
  /** The packages step (`<out>/evidence/packages.json`); left out, the step does not run. */
  packages?: Pick<ReadPackagesOptions, 'urls' | 'concurrency' | 'policy' | 'minIntervalMs' | 'oci'> | undefined;
  /**
   * The probe step (`<out>/evidence/probes.json` and `<out>/evidence/tools.json`, continued from the files
   * already there); left out (`--no-probe`), the step does not run and the files in `<out>` stay as they are.
   */
  probes?: ProbeStepOptions | undefined;
  /** The advisories step (`<out>/evidence/advisories.json` from OSV); left out, the step does not run. */
  advisories?: AdvisoryStepOptions | undefined;
  log?: (line: string) => void;
  /** The registry's bounds, collect's own when left out (a benchmark of 100,000 servers raises the floor). */
  collect?: Pick<CollectOptions, 'minTotalBound'> | undefined;
  /**
   * The curators' catalog (`--catalog`, the format of `data/catalog/servers.json`): its catalog-only servers are
   * measured like registry servers and written for the build (`catalog-step.ts`); left out, no catalog.
   */
  catalogFile?: string | undefined;
  /** The most asked unknown identifiers, read from the store for the packages and advisories steps; left out, none. */
  unknown?: Omit<UnknownStepOptions, 'nowMs'> | undefined;
  /** Called as each step of the night ends, with its name: a benchmark measures memory there. */
  onStep?: (step: RescoreStep) => void;
}

/** The steps of a night, in order, as `onStep` names them. */
export type RescoreStep = 'collect' | 'github' | 'packages' | 'advisories' | 'score' | 'join' | 'probes' | 'write';

export interface RescoreSummary {
  collected: number;
  notActive: number;
  incremental: boolean;
  registryRequests: number;
  repositories: number;
  enriched: number;
  notFound: number;
  unchangedRepositories: number;
  unenriched: number;
  /** Records identical to the previous dataset in `--out` but for `scored_at`. */
  unchanged: number;
  scored: number;
  flagged: number;
  /**
   * Servers left out of the dataset, by name order, with the reason: an entry that cannot make a valid record
   * never stops the night, it is left out and named here, and the rest is published.
   */
  leftOut: LeftOut[];
  /** Scored servers left out of the feed because their entry breaks the registry's schema. */
  leftOutOfFeed: number;
  githubRequests: number;
  notModified: number;
  /** The packages step, when it ran: packages read (found or not), left unread, requests and 304s. */
  packages?: { read: number; notFound: number; unread: number; requests: number; notModified: number };
  /** The probe step, when it ran. */
  probes?: ProbeNightCounts;
  /**
   * The advisories step, when it ran: its counts, or why OSV could not be read (the advisory file is then left
   * as it was, and a snapshot with none has its advisories unmeasured).
   */
  advisories?: AdvisoryCounts | { unread: string };
  /**
   * The catalog, when one was given: servers it lists (valid entries), those that joined a collected entry,
   * the catalog-only ones, and those of them written with measured evidence. Bad entries are in `leftOut`.
   */
  catalog?: { listed: number; joined: number; catalogOnly: number; measured: number };
  /** The unknown identifiers read from the store, and the packages among them asked; or why the store was not read. */
  unknown?: { identifiers: number; packages: number } | { unread: string };
  /** With `unknown`: the packages checks asked about with a record of their own (`unknown-records.ts`). */
  packageServers?: { records: number; added: number; dropped: number };
  stopped?: string;
  notes: string[];
}

export async function rescore(options: RescoreOptions): Promise<RescoreSummary> {
  const log = options.log ?? (() => {});
  const stepDone = options.onStep ?? (() => {});
  const notes: string[] = [];
  // Read before anything is asked: a catalog file that cannot be read stops the night at once, in one line.
  const catalog = options.catalogFile === undefined ? undefined : readNightCatalog(options.catalogFile);
  const registryCache = readRegistryCache(options.cache);
  if (registryCache.note) notes.push(registryCache.note);
  const collected = await collect({
    baseUrl: options.registryUrl,
    previous: registryCache.collection,
    policy: options.registryPolicy,
    ...options.collect,
  });
  const entries = collected.collection.entries;
  // An empty registry is an outage, not a registry with no servers: never publish it.
  if (entries.length === 0) throw new PipelineError('the registry listed no active servers; nothing written');
  writeRegistryCache(options.cache, collected.collection);
  stepDone('collect');

  const facts = entries.map((entry) => factsFromServer(entry.server));
  const repositories = new Map<string, { owner: string; repo: string }>();
  for (const server of facts) {
    const repo = parseGitHubRepo(server.repoUrl);
    if (repo) repositories.set(`${repo.owner}/${repo.repo}`.toLowerCase(), repo);
  }
  // The catalog's own servers are measured with the registry's: repositories here, packages below.
  const plan = catalog ? catalogPlan(catalog.catalog, entries) : undefined;
  for (const repo of plan?.repositories ?? []) repositories.set(`${repo.owner}/${repo.repo}`.toLowerCase(), repo);
  // The packages checks asked about that have a record: their repositories, as their registries last named them.
  const listed = options.unknown === undefined ? undefined : readAskedPackages(options.out, notes);
  for (const repo of askedRepositories(listed ?? []))
    repositories.set(`${repo.owner}/${repo.repo}`.toLowerCase(), repo);
  const githubCache = readGitHubCache(options.cache, options.githubApiUrl);
  if (githubCache.note) notes.push(githubCache.note);
  let enriched;
  try {
    enriched = await enrich([...repositories.values()], {
      ...options.github,
      baseUrl: options.githubApiUrl,
      token: options.token,
      cache: githubCache.answers,
      log,
      ...(options.progress ? { progress: options.progress } : {}),
    });
  } finally {
    // What was fetched is kept for the next run, whatever happens to this one.
    writeGitHubCache(options.cache, options.githubApiUrl, githubCache.answers);
  }
  const outcomes = [...enriched.outcomes.values()];
  const unenriched = outcomes.filter((outcome) => !outcome.enriched);
  const share = repositories.size === 0 ? 0 : unenriched.length / repositories.size;
  if (share > options.maxUnenriched) {
    const why = enriched.stopped ?? unenriched[0]?.reason ?? 'unknown';
    throw new PipelineError(
      `${unenriched.length} of ${repositories.size} GitHub repositories could not be enriched ` +
        `(${(share * 100).toFixed(1)}%, more than --max-unenriched ${options.maxUnenriched}); nothing written; first cause: ${why}`,
    );
  }

  stepDone('github');
  const unknown = await unknownStepOf(options.unknown, notes);
  const newlyAsked = unknown && 'servers' in unknown ? unknown.servers : [];
  const unknownServers = askedServers(listed ?? [], newlyAsked);
  const asked = [...entries, ...[...(plan?.servers ?? []), ...unknownServers].map((server) => ({ server }))];
  const packageStep = await readPackagesStep(options, asked, notes, unknownServers);
  stepDone('packages');
  const advisoryStep = await readAdvisoriesStep(options, asked, notes);
  stepDone('advisories');

  const context = flagContext(facts);
  const scorecard: ScorecardIndex = { generated_at: options.asOf, servers: {} };
  facts.forEach((server) => {
    const repo = parseGitHubRepo(server.repoUrl);
    const outcome = repo ? enriched.outcomes.get(`${repo.owner}/${repo.repo}`.toLowerCase()) : undefined;
    // The facts carry the owner as this server's URL spells it: the method compares that with the namespace.
    const github: GitHubFacts | null = outcome?.facts && repo ? { ...outcome.facts, owner: repo.owner } : null;
    scorecard.servers[server.name] = scoreServer(server, github, context, options.asOf);
  });

  stepDone('score');
  let records: ServerRecord[];
  let leftOut: LeftOut[];
  let feed;
  try {
    const versions = RegistryDumpSchema.parse(entries);
    const joined = joinDatasets(scorecard, versions);
    records = joined.records;
    leftOut = [...collected.refused, ...joined.leftOut].sort((a, b) => compareNames(a.name, b.name));
    if (records.length === 0) {
      throw new PipelineError(
        `none of the ${entries.length} servers makes a valid record; nothing written; first: ${leftOut[0]?.name ?? ''}: ${leftOut[0]?.reason ?? ''}`,
      );
    }
    feed = importRegistryEntries(
      records.map((record) => record.name),
      versions,
      entries,
    );
  } catch (error) {
    if (error instanceof ImportError) throw new PipelineError(error.message);
    throw error;
  }

  stepDone('join');
  const catalogRecords = catalog
    ? catalogRecordsOf(catalog.catalog, records, enriched.outcomes, options.asOf)
    : undefined;
  if (catalog && catalogRecords)
    leftOut = [...leftOut, ...catalog.leftOut, ...catalogRecords.leftOut].sort((a, b) => compareNames(a.name, b.name));
  const askedRecords =
    listed === undefined
      ? undefined
      : askedRecordsOf({
          listed,
          asked: newlyAsked,
          facts: packageStep?.facts ?? new Map(),
          records: [...records, ...(catalogRecords?.records ?? [])],
          catalog: catalog?.catalog,
          outcomes: enriched.outcomes,
          asOf: options.asOf,
        });
  if (askedRecords) leftOut = [...leftOut, ...askedRecords.leftOut].sort((a, b) => compareNames(a.name, b.name));
  const probeStep = await probeStepOf(options, records, notes);
  stepDone('probes');

  const datasetFile = join(options.out, 'servers.json');
  const others = [...(catalogRecords?.records ?? []), ...(askedRecords?.records ?? [])];
  const written = others.length > 0 ? [...records, ...others].sort((a, b) => compareNames(a.name, b.name)) : records;
  const unchanged = countUnchanged(datasetFile, written);
  writeFilesAtomically([
    [join(options.out, 'registry', 'servers.json'), registryDataPieces(feed.entries)],
    [datasetFile, datasetPieces(written)],
    ...(catalog ? [[join(options.out, 'catalog', 'servers.json'), catalog.text] as const] : []),
    ...(askedRecords ? [[join(options.out, ASKED_PACKAGES_FILE), askedRecords.text] as const] : []),
    ...(packageStep ? [[join(options.out, 'evidence', 'packages.json'), packageStep.text] as const] : []),
    ...(probeStep?.files ?? []),
    ...(advisoryStep?.text !== undefined
      ? [[join(options.out, 'evidence', 'advisories.json'), advisoryStep.text] as const]
      : []),
  ]);
  stepDone('write');

  return {
    collected: entries.length,
    notActive: collected.notActive,
    incremental: collected.incremental,
    registryRequests: collected.requests,
    repositories: repositories.size,
    enriched: outcomes.length - unenriched.length,
    notFound: outcomes.filter((outcome) => outcome.notFound).length,
    unchangedRepositories: outcomes.filter((outcome) => outcome.unchanged).length,
    unenriched: unenriched.length,
    unchanged,
    scored: records.length,
    flagged: records.filter((record) => record.flags.length > 0).length,
    leftOut,
    leftOutOfFeed: feed.refused.length,
    githubRequests: enriched.requests,
    notModified: enriched.notModified,
    ...(packageStep ? { packages: packageStep.counts } : {}),
    ...(probeStep ? { probes: probeStep.counts } : {}),
    ...(advisoryStep ? { advisories: advisoryStep.counts } : {}),
    ...(catalog && catalogRecords
      ? {
          catalog: {
            listed: catalog.catalog.servers.length,
            joined: catalog.catalog.servers.length - catalogRecords.catalogOnly,
            catalogOnly: catalogRecords.catalogOnly,
            measured: catalogRecords.records.length,
          },
        }
      : {}),
    ...(unknown ? { unknown: 'unread' in unknown ? unknown : unknown.counts } : {}),
    ...(askedRecords ? { packageServers: askedRecords.counts } : {}),
    ...(enriched.stopped ? { stopped: enriched.stopped } : {}),
    notes,
  };
}

/**
 * The packages step: the package registries' facts of every package the entries name, read with the last
 * night's ETags (the cache is kept whatever happens to the night). Its file is written with the dataset.
 */
async function readPackagesStep(
  options: RescoreOptions,
  entries: ReadonlyArray<{ server: { packages?: unknown } }>,
  notes: string[],
  /** Servers whose packages' facts are returned (`facts`): the packages checks asked about. */
  wanted: ReadonlyArray<{ packages?: unknown }>,
): Promise<
  { text: string; counts: NonNullable<RescoreSummary['packages']>; facts: Map<string, PackageFacts> } | undefined
> {
  if (options.packages === undefined) return undefined;
  const cache = readPackageCache(options.cache, options.packages.urls);
  if (cache.note) notes.push(cache.note);
  try {
    const { file, requests, notModified } = await readPackages(packagesOf(entries.map((entry) => entry.server)), {
      ...options.packages,
      cache: cache.answers,
      readAt: new Date().toISOString(),
    });
    const found = Object.values(file.packages);
    const text = `${JSON.stringify(PackageFactsFileSchema.parse(file), null, 1)}\n`;
    return {
      text,
      facts: askedFacts(file, wanted),
      counts: {
        read: found.length,
        notFound: found.filter((facts) => !facts.found).length,
        unread: file.unread.length,
        requests,
        notModified,
      },
    };
  } finally {
    writePackageCache(options.cache, options.packages.urls, cache.answers);
  }
}
