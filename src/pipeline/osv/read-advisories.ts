/**
 * The advisories step of a rescoring: every npm, PyPI and crates.io package the collected entries name is
 * asked of OSV (`POST /v1/querybatch`, at most 1000 queries a request, each query's `next_page_token`
 * followed), then each advisory id it answers is read (`GET /v1/vulns/{id}`, a few at a time) unless the
 * cache holds it at the same `modified` time, so an unchanged night costs the batch queries alone. OCI images
 * have no OSV ecosystem and are not asked (counted in the summary).
 *
 * A package is asked for without a version: OSV then answers every advisory of the package, and the record
 * keeps them all (`evidence.advisories`), so that a check can judge the version a configuration pins; the
 * version the record names is judged against the same ranges by the advisory source.
 *
 * What the file holds: OSV's answer for every package it was asked about and answered in full, and the
 * previous file's advisories (the hand-made committed records included) that OSV did not answer this night and
 * that name a package not answered in full (not asked, not in OSV's ecosystems, or with an advisory that could
 * not be read). So OSV is trusted for what it answered (a withdrawn advisory leaves), and nothing known is lost
 * for a package it was not asked about. A batch query that fails stops the step (the caller leaves the file as
 * it was); one advisory that cannot be read or does not fit the schema is left out and named, never more.
 */
import * as z from 'zod';
import { affectedKey, type Advisory, type AdvisoryFile, AdvisoryFileSchema } from '../../model/advisories.js';
import { packageKey } from '../../model/identifiers.js';
import { oneLineZodError } from '../../dataset/inputs.js';
import { mapBounded } from '../bounded.js';
import { PipelineError, printable } from '../errors.js';
import { requestJson, type HttpPolicy } from '../http-json.js';
import { requestName } from '../packages/read-packages.js';
import { advisoryFor, advisoryOf, BatchAnswerSchema, type CachedAdvisory, OsvVulnerabilitySchema } from './answers.js';

/** OSV's ecosystem for each registry type it covers; an OCI image has none. */
const ECOSYSTEM_OF: Readonly<Record<string, string>> = { npm: 'npm', pypi: 'PyPI', cargo: 'crates.io' };

/** OSV's bound on one batch query. */
export const MAX_BATCH = 1000;
/** The most packages one night asks about. */
export const MAX_OSV_PACKAGES = 100_000;

export interface OsvPackage {
  /** The package key (`npm:postmark-mcp`). */
  key: string;
  ecosystem: string;
  name: string;
}

/** What the cache keeps per advisory id: its `modified` time and the advisory made of it (null: nothing to keep). */
export interface CachedVuln {
  modified: string;
  advisory: CachedAdvisory | null;
}

export interface ReadAdvisoriesOptions {
  /** OSV's API base URL (`https://api.osv.dev`). */
  url: string;
  cache: Map<string, CachedVuln>;
  concurrency: number;
  policy: HttpPolicy;
  readAt: string;
  /** The advisory file the night starts from (`<out>/evidence/advisories.json`), if any. */
  previous?: AdvisoryFile | undefined;
  /** Queries per batch request (OSV allows 1000). */
  batchSize?: number;
  /** The most pages read for one package. */
  maxPages?: number;
}

export interface AdvisoryCounts {
  /** Packages asked about. */
  packages: number;
  /** Packages with no OSV ecosystem (OCI images and the like), not asked. */
  skipped: number;
  /** Advisories in the file written, and how many of them are malicious-package records. */
  advisories: number;
  malicious: number;
  /** Advisory records read from OSV this night, and those the cache answered at the same `modified` time. */
  read: number;
  cached: number;
  /** Advisory records that could not be read or do not fit the schema (named in the notes). */
  leftOut: number;
  /** Advisories of the previous file kept because OSV did not answer for their packages. */
  kept: number;
  requests: number;
}

export interface ReadAdvisoriesResult {
  file: AdvisoryFile;
  counts: AdvisoryCounts;
  notes: string[];
}

/** The packages of the registry entries OSV is asked about, one per key, in key order, and how many it cannot be. */
export function osvPackagesOf(servers: Iterable<{ packages?: unknown }>): {
  packages: OsvPackage[];
  skipped: number;
} {
  const Packages = z.array(z.looseObject({ registryType: z.string().max(64), identifier: z.string().max(500) }));
  const byKey = new Map<string, OsvPackage>();
  const skipped = new Set<string>();
  for (const server of servers) {
    const packages = Packages.safeParse(server.packages ?? []);
    if (!packages.success) continue;
    for (const { registryType, identifier } of packages.data) {
      const registry = registryType.trim().toLowerCase();
      const ecosystem = ECOSYSTEM_OF[registry];
      if (ecosystem === undefined) {
        skipped.add(packageKey(registry, identifier));
        continue;
      }
      const name = requestName(registry as 'npm' | 'pypi' | 'cargo', identifier);
      if (name === '' || name.length > 214) continue;
      byKey.set(packageKey(registry, name), { key: packageKey(registry, name), ecosystem, name });
    }
  }
  const packages = [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : 1));
  return { packages, skipped: skipped.size };
}

const compareIds = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export async function readAdvisories(
  packages: readonly OsvPackage[],
  options: ReadAdvisoriesOptions,
): Promise<ReadAdvisoriesResult> {
  const base = options.url.replace(/\/+$/, '');
  const notes: string[] = [];
  let requests = 0;
  const onRequest = () => void requests++;
  const asked = packages.slice(0, MAX_OSV_PACKAGES);
  if (packages.length > asked.length)
    notes.push(`OSV: asked about the first ${asked.length} of ${packages.length} packages`);

  // The ids (and their modified times) OSV answers for each package, every page of it.
  const idsOf = new Map<string, Map<string, string>>(asked.map((pkg) => [pkg.key, new Map()]));
  let pending = asked.map((pkg) => ({ pkg, token: undefined as string | undefined }));
  const maxPages = options.maxPages ?? 20;
  const batchSize = Math.min(Math.max(1, options.batchSize ?? MAX_BATCH), MAX_BATCH);
  for (let page = 0; pending.length > 0 && page < maxPages; page++) {
    const next: typeof pending = [];
    for (let start = 0; start < pending.length; start += batchSize) {
      const chunk = pending.slice(start, start + batchSize);
      const body = {
        queries: chunk.map(({ pkg, token }) => ({
          package: { ecosystem: pkg.ecosystem, name: pkg.name },
          ...(token === undefined ? {} : { page_token: token }),
        })),
      };
      let answer;
      try {
        const json = await requestJson(
          `${base}/v1/querybatch`,
          { method: 'POST', body, redirect: 'error' },
          options.policy,
          onRequest,
        );
        answer = BatchAnswerSchema.parse(json);
      } catch (error) {
        const why =
          error instanceof z.ZodError
            ? `an answer that is not OSV's: ${oneLineZodError(error)}`
            : (error as Error).message;
        throw new PipelineError(`OSV querybatch ${printable(why, 200)}`);
      }
      if (answer.results.length !== chunk.length) {
        throw new PipelineError(`OSV querybatch answered ${answer.results.length} results to ${chunk.length} queries`);
      }
      answer.results.forEach((result, index) => {
        const { pkg } = chunk[index]!;
        const ids = idsOf.get(pkg.key)!;
        for (const vuln of result.vulns ?? []) ids.set(vuln.id, vuln.modified);
        if (result.next_page_token !== undefined) next.push({ pkg, token: result.next_page_token });
      });
    }
    pending = next;
  }
  // A package with pages left is not answered in full: what the previous file knows of it is kept.
  const incomplete = new Set(pending.map(({ pkg }) => pkg.key));
  if (incomplete.size > 0)
    notes.push(`OSV: ${incomplete.size} packages had more than ${maxPages} pages; the rest was not read`);

  // Each id once, with the latest modified time any page gave it.
  const modifiedOf = new Map<string, string>();
  for (const ids of idsOf.values()) {
    for (const [id, modified] of ids) {
      const known = modifiedOf.get(id);
      if (known === undefined || Date.parse(modified) > Date.parse(known)) modifiedOf.set(id, modified);
    }
  }
  const outcome = new Map<string, CachedAdvisory | null>();
  const counts = { read: 0, cached: 0, leftOut: 0 };
  const toRead: string[] = [];
  for (const [id, modified] of [...modifiedOf].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const cached = options.cache.get(id);
    if (cached !== undefined && Date.parse(cached.modified) === Date.parse(modified)) {
      outcome.set(id, cached.advisory);
      counts.cached++;
    } else toRead.push(id);
  }

  const readOne = async (id: string) => {
    const cached = options.cache.get(id);
    let why: string;
    try {
      const json = await requestJson(
        `${base}/v1/vulns/${encodeURIComponent(id)}`,
        { method: 'GET', redirect: 'error' },
        options.policy,
        onRequest,
      );
      const parsed = OsvVulnerabilitySchema.safeParse(json);
      if (!parsed.success) why = `not an OSV record: ${oneLineZodError(parsed.error)}`;
      else if (parsed.data.id !== id) why = `answered the record ${parsed.data.id}`;
      else {
        const made = advisoryOf(parsed.data);
        if (!('refused' in made)) {
          const advisory = 'advisory' in made ? made.advisory : null;
          options.cache.set(id, { modified: parsed.data.modified, advisory });
          outcome.set(id, advisory);
          counts.read++;
          return;
        }
        why = `does not fit the advisory schema: ${made.refused}`;
      }
    } catch (error) {
      why = (error as Error).message;
    }
    counts.leftOut++;
    // An older reading of the same advisory is better than none: it is used, and the night says so.
    if (cached !== undefined) outcome.set(id, cached.advisory);
    notes.push(
      `OSV advisory ${printable(id, 64)} left out: ${printable(why, 200)}${cached ? ' (the last reading is kept)' : ''}`,
    );
  };
  await mapBounded(toRead, options.concurrency, readOne);

  // Answered in full: every page read and every advisory id it named resolved.
  const answered = new Set(
    asked
      .filter((pkg) => !incomplete.has(pkg.key) && [...idsOf.get(pkg.key)!.keys()].every((id) => outcome.has(id)))
      .map((pkg) => pkg.key),
  );
  const askedKeys = new Set(asked.map((pkg) => pkg.key));
  const fromOsv: Advisory[] = [];
  for (const advisory of outcome.values()) {
    if (advisory === null) continue;
    const cut = advisoryFor(advisory, askedKeys);
    if (cut !== undefined) fromOsv.push(cut);
  }
  const kept = (options.previous?.advisories ?? []).filter(
    (advisory) =>
      !outcome.has(advisory.id) &&
      advisory.affected.some((affected) => {
        const key = affectedKey(affected);
        return key === undefined || !answered.has(key);
      }),
  );
  const osvSource = {
    name: 'OSV',
    repository: 'google/osv.dev',
    commit: `api.osv.dev, ${options.readAt.slice(0, 10)}`,
    licence: "each record's own (see osv.dev)",
  };
  const sources = kept.length > 0 ? [...(options.previous?.sources ?? []), osvSource] : [osvSource];
  const advisories = [...fromOsv, ...kept].sort(compareIds);
  const file = AdvisoryFileSchema.parse({
    generated_at: options.readAt,
    sources: sources.filter((source, index) => sources.findIndex((other) => other.name === source.name) === index),
    advisories,
  });
  return {
    file,
    counts: {
      packages: asked.length,
      skipped: 0,
      advisories: advisories.length,
      malicious: advisories.filter((advisory) => advisory.kind === 'malicious').length,
      ...counts,
      kept: kept.length,
      requests,
    },
    notes,
  };
}
