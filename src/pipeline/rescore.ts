/**
 * One rescoring run: collect the registry, enrich from GitHub, score with the method, and write the dataset in
 * the build's input format (`<out>/servers.json` and `<out>/registry/servers.json`, as `npm run import` writes
 * them), or refuse to write anything when the run is not good enough to publish.
 */
import { join } from 'node:path';
import { ImportError, type ScorecardIndex } from '../dataset/inputs.js';
import { compareNames, datasetPieces, type LeftOut } from '../dataset/join.js';
import { registryDataPieces } from '../dataset/registry.js';
import { factsFromServer, parseGitHubRepo, type GitHubFacts, type ServerFacts } from '../scoring/facts.js';
import { flagContext } from '../scoring/flags.js';
import { scoreServer } from '../scoring/score.js';
import type { ProbeNightCounts } from './probe/probe-night.js';
import {
  probeStepOf,
  readAdvisoriesStep,
  readPackagesStep,
  type AdvisoryStepOptions,
  type PackageCounts,
  type PackageStepOptions,
  type ProbeStepOptions,
} from './evidence-steps.js';
import type { CollectedEntry, CollectOptions, CollectResult } from './collect.js';
import type { EntryFile } from './entry-file.js';
import { collectStep } from './collect-step.js';
import type { AdvisoryCounts } from './osv/read-advisories.js';
import { PipelineError } from './errors.js';
import type { EnrichOptions } from './github.js';
import { githubStep } from './github-step.js';
import type { HttpPolicy } from './http-json.js';
import { unchangedCounter } from './unchanged.js';
import { joinNight, mergeByName, type NightJoin } from './night-join.js';
import { writeFilesAtomically } from './write.js';
import { catalogPlan, catalogRecordsOf, readNightCatalog } from './catalog-step.js';
import { unknownStepOf, type UnknownStepOptions } from './unknown-step.js';
import {
  ASKED_PACKAGES_FILE,
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
  packages?: PackageStepOptions | undefined;
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
  packages?: PackageCounts;
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
  const { collected, entries } = await collectStep(options, notes);
  stepDone('collect');
  const held: Array<{ remove(): void }> = [entries];
  try {
    return await scoreNight(options, { catalog, collected, entries, notes, log, stepDone, held });
  } finally {
    for (const file of held) file.remove();
  }
}

/** The night after collect: every step on the entries as `EntryFile` gives them back, one at a time. */
async function scoreNight(
  options: RescoreOptions,
  night: {
    catalog: ReturnType<typeof readNightCatalog> | undefined;
    collected: Omit<CollectResult, 'collection'>;
    entries: EntryFile;
    notes: string[];
    log: (line: string) => void;
    stepDone: (step: RescoreStep) => void;
    /** The night's files on disk, removed when the night ends. */
    held: Array<{ remove(): void }>;
  },
): Promise<RescoreSummary> {
  const { catalog, collected, entries, notes, stepDone } = night;
  // Facts are made again where they are read, never held for every server through the night.
  const repositories = new Map<string, { owner: string; repo: string }>();
  for (const entry of entries) {
    const repo = parseGitHubRepo(factsFromServer(entry.server).repoUrl);
    if (repo) repositories.set(`${repo.owner}/${repo.repo}`.toLowerCase(), repo);
  }
  // The catalog's own servers are measured with the registry's: repositories here, packages below.
  const plan = catalog ? catalogPlan(catalog.catalog, entries) : undefined;
  for (const repo of plan?.repositories ?? []) repositories.set(`${repo.owner}/${repo.repo}`.toLowerCase(), repo);
  // The packages checks asked about that have a record: their repositories, as their registries last named them.
  const listed = options.unknown === undefined ? undefined : readAskedPackages(options.out, notes);
  for (const repo of askedRepositories(listed ?? []))
    repositories.set(`${repo.owner}/${repo.repo}`.toLowerCase(), repo);
  const github = await githubStep({ ...options, log: night.log }, [...repositories.values()], notes);
  night.held.push(github.outcomes);
  repositories.clear();
  stepDone('github');
  const unknown = await unknownStepOf(options.unknown, notes);
  const newlyAsked = unknown && 'servers' in unknown ? unknown.servers : [];
  const unknownServers = askedServers(listed ?? [], newlyAsked);
  const others = [...(plan?.servers ?? []), ...unknownServers].map((server) => ({ server }));
  // Read again from the file by each step that asks: never all the entries at once.
  const asked = { [Symbol.iterator]: () => chained<{ server: { packages?: unknown } }>(entries, others) };
  const packageStep = await readPackagesStep(options, asked, notes, unknownServers);
  stepDone('packages');
  const advisoryStep = await readAdvisoriesStep(options, asked, notes);
  stepDone('advisories');

  const context = flagContext(factsOf(entries));
  const scorecard: ScorecardIndex = { generated_at: options.asOf, servers: {} };
  for (const entry of entries) {
    const server = factsFromServer(entry.server);
    const repo = parseGitHubRepo(server.repoUrl);
    const outcome = repo ? github.outcomes.get(`${repo.owner}/${repo.repo}`.toLowerCase()) : undefined;
    // The facts carry the owner as this server's URL spells it: the method compares that with the namespace.
    const facts: GitHubFacts | null = outcome?.facts && repo ? { ...outcome.facts, owner: repo.owner } : null;
    scorecard.servers[server.name] = scoreServer(server, facts, context, options.asOf);
  }
  // Only the catalog's and the asked packages' records read the GitHub facts after the scores.
  const outcomes = github.outcomes;

  stepDone('score');
  let joined: NightJoin;
  let leftOut: LeftOut[];
  try {
    joined = joinNight(entries, scorecard);
    leftOut = [...collected.refused, ...joined.leftOut].sort((a, b) => compareNames(a.name, b.name));
    if (joined.names.length === 0) {
      throw new PipelineError(
        `none of the ${entries.size} servers makes a valid record; nothing written; first: ${leftOut[0]?.name ?? ''}: ${leftOut[0]?.reason ?? ''}`,
      );
    }
  } catch (error) {
    if (error instanceof ImportError) throw new PipelineError(error.message);
    throw error;
  }

  stepDone('join');
  const catalogRecords = catalog
    ? catalogRecordsOf(catalog.catalog, joined.records(), outcomes, options.asOf)
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
          records: chained(joined.records(), catalogRecords?.records ?? []),
          catalog: catalog?.catalog,
          outcomes,
          asOf: options.asOf,
        });
  if (askedRecords) leftOut = [...leftOut, ...askedRecords.leftOut].sort((a, b) => compareNames(a.name, b.name));
  const probeStep = await probeStepOf(options, joined.records(), notes);
  stepDone('probes');

  const datasetFile = join(options.out, 'servers.json');
  const unchanged = unchangedCounter(datasetFile);
  const feed = joined.feed();
  const added = [...(catalogRecords?.records ?? []), ...(askedRecords?.records ?? [])];
  writeFilesAtomically([
    [join(options.out, 'registry', 'servers.json'), registryDataPieces(feed.entries)],
    [datasetFile, datasetPieces(tapped(mergeByName(joined.records(), added), unchanged.see))],
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
    collected: entries.size,
    notActive: collected.notActive,
    incremental: collected.incremental,
    registryRequests: collected.requests,
    repositories: github.counts.repositories,
    enriched: github.counts.enriched,
    notFound: github.counts.notFound,
    unchangedRepositories: github.counts.unchangedRepositories,
    unenriched: github.counts.unenriched,
    unchanged: unchanged.count(),
    scored: joined.names.length,
    flagged: joined.flagged,
    leftOut,
    leftOutOfFeed: feed.refused(),
    githubRequests: github.counts.githubRequests,
    notModified: github.counts.notModified,
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
    ...(github.stopped ? { stopped: github.stopped } : {}),
    notes,
  };
}

/** The items of `items`, each shown to `see` as it passes. */
function* tapped<T>(items: Iterable<T>, see: (item: T) => void): Generator<T> {
  for (const item of items) {
    see(item);
    yield item;
  }
}

/** The items of `first`, then those of `second`. */
function* chained<T>(first: Iterable<T>, second: Iterable<T>): Generator<T> {
  yield* first;
  yield* second;
}

/** The method's facts of each entry, made as they are read. */
function* factsOf(entries: Iterable<CollectedEntry>): Generator<ServerFacts> {
  for (const entry of entries) yield factsFromServer(entry.server);
}
