/**
 * The evidence steps of a night beside the registry and GitHub: the facts and the advisories of every package
 * and the probe of every remote, the last two each continued from the file the last night left in `<out>/evidence/`, each written with
 * the dataset (`rescore.ts` runs them).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { AdvisoryFileSchema, type AdvisoryFile } from '../model/advisories.js';
import { ProbeFileSchema } from '../model/probes.js';
import type { ServerRecord } from '../model/schema.js';
import { ToolsFileSchema } from '../model/tools.js';
import { PackageFactsFileSchema, type PackageFacts } from '../model/package-facts.js';
import { readOsvCache, readPackageCache, writeOsvCache, writePackageCache } from './cache.js';
import { PipelineError } from './errors.js';
import type { HttpPolicy } from './http-json.js';
import { osvPackagesOf, readAdvisories, type AdvisoryCounts } from './osv/read-advisories.js';
import { packagesOf, readPackages, type ReadPackagesOptions } from './packages/read-packages.js';
import { askedFacts } from './unknown-records.js';
import { probeNight, type ProbeNightCounts, type ProbeNightOptions } from './probe/probe-night.js';

/** The packages step's settings (left out, the step does not run). */
export type PackageStepOptions = Pick<ReadPackagesOptions, 'urls' | 'concurrency' | 'policy' | 'minIntervalMs' | 'oci'>;
/** The packages step's counts: packages read (found or not), left unread, requests and 304s. */
export interface PackageCounts {
  read: number;
  notFound: number;
  unread: number;
  requests: number;
  notModified: number;
}
/** The probe step's settings (`--no-probe` leaves them out). */
export type ProbeStepOptions = Omit<ProbeNightOptions, 'previous' | 'probedAt'>;
/** The advisories step's settings (`--no-advisories` leaves them out). */
export interface AdvisoryStepOptions {
  url: string;
  concurrency: number;
  policy: HttpPolicy;
}

/**
 * The previous night's evidence file in `<out>`, or undefined: absent, or there but unreadable (then `unreadable`
 * is noted, saying what the night does instead).
 */
function previousEvidence<T>(file: string, schema: z.ZodType<T>, notes: string[], unreadable: string): T | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return schema.parse(JSON.parse(text));
  } catch {
    notes.push(unreadable);
    return undefined;
  }
}

/** What a night says of a previous probe file it cannot read. */
const afresh = (file: string) => `${file} could not be read as the previous night's probes; this night starts afresh`;

/** An evidence file as the committed one is laid out (`scripts/import-probes.ts`): one entry a line. */
function evidenceText(file: { by: string; third_party: boolean }, member: string, entries: readonly unknown[]): string {
  const rows = entries.map((entry) => `    ${JSON.stringify(entry)}`);
  const head = `{\n  "by": ${JSON.stringify(file.by)},\n  "third_party": ${file.third_party},\n  "${member}": [\n`;
  return `${head}${rows.join(',\n')}${rows.length > 0 ? '\n' : ''}  ]\n}\n`;
}

/**
 * The probe step: every record with a remote probed (`probe/probe-night.ts`), continued from the probes and
 * pinned tools already in `<out>/evidence/`. Its two files are written with the dataset.
 */
export async function probeStepOf(
  options: { out: string; probes?: ProbeStepOptions | undefined },
  records: Iterable<ServerRecord>,
  notes: string[],
): Promise<{ files: Array<readonly [string, string]>; counts: ProbeNightCounts } | undefined> {
  if (options.probes === undefined) return undefined;
  const probesFile = join(options.out, 'evidence', 'probes.json');
  const toolsFile = join(options.out, 'evidence', 'tools.json');
  const night = await probeNight(
    Array.from(records, (record) => ({
      name: record.name,
      version: record.install.version,
      remotes: record.remotes ?? [],
    })),
    {
      ...options.probes,
      previous: {
        probes: previousEvidence(probesFile, ProbeFileSchema, notes, afresh(probesFile)),
        tools: previousEvidence(toolsFile, ToolsFileSchema, notes, afresh(toolsFile)),
      },
      probedAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    },
  );
  return {
    files: [
      [probesFile, evidenceText(night.probes, 'observations', night.probes.observations)],
      [toolsFile, evidenceText(night.tools, 'servers', night.tools.servers)],
    ],
    counts: night.counts,
  };
}

/** The advisory file a night starts from (`<out>/evidence/advisories.json`), or undefined with a note. */
function previousAdvisories(file: string, notes: string[]): AdvisoryFile | undefined {
  const unreadable = `ignored the unreadable advisory file ${file}: OSV's answers alone are written`;
  return previousEvidence(file, AdvisoryFileSchema, notes, unreadable);
}

/**
 * The advisories step: OSV asked about every package the entries name, merged with the advisory file in
 * `--out` (src/pipeline/osv/read-advisories.ts says how). The cache of advisory records is kept whatever
 * happens to the night; when OSV cannot be asked, the night goes on and the file is left as it was.
 */
export async function readAdvisoriesStep(
  options: { out: string; cache: string; advisories?: AdvisoryStepOptions | undefined },
  entries: Iterable<{ server: { packages?: unknown } }>,
  notes: string[],
): Promise<{ text?: string; counts: (AdvisoryCounts & { skipped: number }) | { unread: string } } | undefined> {
  if (options.advisories === undefined) return undefined;
  const { url, concurrency, policy } = options.advisories;
  const cache = readOsvCache(options.cache, url);
  if (cache.note) notes.push(cache.note);
  const { packages, skipped } = osvPackagesOf(serversOf(entries));
  const file = join(options.out, 'evidence', 'advisories.json');
  try {
    const read = await readAdvisories(packages, {
      url,
      cache: cache.vulns,
      concurrency,
      policy,
      readAt: new Date().toISOString(),
      previous: previousAdvisories(file, notes),
    });
    notes.push(...read.notes);
    return { text: `${JSON.stringify(read.file, null, 2)}\n`, counts: { ...read.counts, skipped } };
  } catch (error) {
    if (!(error instanceof PipelineError)) throw error;
    notes.push(`advisories not read this night (${error.message}); ${file} left as it was`);
    return { counts: { unread: error.message } };
  } finally {
    writeOsvCache(options.cache, url, cache.vulns);
  }
}

/**
 * The packages step: the package registries' facts of every package the entries name, read with the last
 * night's ETags (the cache is kept whatever happens to the night). Its file is written with the dataset.
 */
export async function readPackagesStep(
  options: { cache: string; packages?: PackageStepOptions | undefined },
  entries: Iterable<{ server: { packages?: unknown } }>,
  notes: string[],
  /** Servers whose packages' facts are returned (`facts`): the packages checks asked about. */
  wanted: ReadonlyArray<{ packages?: unknown }>,
): Promise<{ text: string; counts: PackageCounts; facts: Map<string, PackageFacts> } | undefined> {
  if (options.packages === undefined) return undefined;
  const cache = readPackageCache(options.cache, options.packages.urls);
  if (cache.note) notes.push(cache.note);
  try {
    const { file, requests, notModified } = await readPackages(packagesOf(serversOf(entries)), {
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

/** The servers of `entries`, one at a time: the night reads its entries from a file, never all at once. */
export function* serversOf<T>(entries: Iterable<{ server: T }>): Generator<T> {
  for (const entry of entries) yield entry.server;
}
