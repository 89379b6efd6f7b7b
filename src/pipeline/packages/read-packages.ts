/**
 * The packages step of a rescoring: for every npm, PyPI and crates.io package the collected entries name, the
 * registry's own API is asked (a few at a time), with the ETag of the last night, so an unchanged package
 * costs a 304. A 404 is an answer (no such package); a 429 or 5xx is retried as its Retry-After asks, within a
 * bound; anything else leaves that package unread, with the reason, and never stops the night. Names are
 * checked as each registry allows them and sent as one encoded path segment of a configured base URL, so a
 * name from the registry can never point a request elsewhere.
 */
import * as z from 'zod';
import { packageKey } from '../../model/identifiers.js';
import {
  MAX_PACKAGES,
  notFoundFacts,
  PACKAGE_FACT_REGISTRIES,
  PackageFactsSchema,
  type PackageFactRegistry,
  type PackageFacts,
  type PackageFactsFile,
} from '../../model/package-facts.js';
import { oneLineZodError } from '../../dataset/inputs.js';
import { printable } from '../errors.js';
import { retryAfterMs } from '../../model/retry-after.js';
import { mapBounded } from '../bounded.js';
import { readBounded, type HttpPolicy } from '../http-json.js';
import { FACTS_FROM, isPackageName, packagePath } from './answers.js';
import { ociFacts, type OciOptions } from './oci.js';

/** The registries asked through a configured base URL; OCI images are asked of the registry they name. */
export type ApiRegistry = Exclude<PackageFactRegistry, 'oci'>;

export interface PackageRef {
  registry: PackageFactRegistry;
  identifier: string;
}

/** What the cache keeps per package key: the answer's ETag and the facts made from it (dated again each night). */
export interface CachedPackage {
  etag: string;
  facts: Omit<PackageFacts, 'read_at'>;
}

export interface ReadPackagesOptions {
  /** Base URL of each registry's API. */
  urls: Record<ApiRegistry, string>;
  /** OCI images: asked of their own registry (address-filtered); left out, images are not read. */
  oci?: OciOptions;
  cache: Map<string, CachedPackage>;
  concurrency: number;
  policy: HttpPolicy;
  readAt: string;
  /** The most bytes one answer may hold (a large packument lists every version ever published). */
  maxAnswerBytes?: number;
  /** The least time between two requests to one registry (crates.io asks crawlers for one a second). */
  minIntervalMs?: Partial<Record<PackageFactRegistry, number>>;
}

export interface ReadPackagesResult {
  file: PackageFactsFile;
  requests: number;
  notModified: number;
}

/** The name a registry is asked for: npm without a `@version`, PyPI without extras or a specifier. */
export function requestName(registry: PackageFactRegistry, identifier: string): string {
  const id = identifier.trim();
  if (registry === 'npm') {
    const at = id.indexOf('@', id.startsWith('@') ? 1 : 0);
    return at > 0 ? id.slice(0, at) : id;
  }
  if (registry === 'pypi') return id.split(/[[\s=<>!~;@]/, 1)[0] ?? '';
  return id.split('@', 1)[0] ?? '';
}

/** The packages of the registry entries this step reads, one per lookup key, in key order. */
export function packagesOf(servers: Iterable<{ packages?: unknown }>): PackageRef[] {
  const Packages = z.array(z.looseObject({ registryType: z.string().max(64), identifier: z.string().max(500) }));
  const byKey = new Map<string, PackageRef>();
  for (const server of servers) {
    const packages = Packages.safeParse(server.packages ?? []);
    if (!packages.success) continue;
    for (const { registryType, identifier } of packages.data) {
      const registry = registryType.trim().toLowerCase();
      if (!(PACKAGE_FACT_REGISTRIES as readonly string[]).includes(registry)) continue;
      const name = requestName(registry as PackageFactRegistry, identifier);
      if (name === '') continue;
      byKey.set(packageKey(registry, name), { registry: registry as PackageFactRegistry, identifier: name });
    }
  }
  return [...byKey].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, ref]) => ref);
}

type Outcome = { kind: 'facts'; facts: Omit<PackageFacts, 'read_at'> } | { kind: 'missing'; reason: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function readPackages(
  refs: readonly PackageRef[],
  options: ReadPackagesOptions,
): Promise<ReadPackagesResult> {
  const state = { requests: 0, notModified: 0 };
  const { policy } = options;
  // Each registry's requests start one interval apart, whatever the concurrency.
  const gates = new Map<PackageFactRegistry, Promise<void>>();
  const pace = async (registry: PackageFactRegistry) => {
    const interval = options.minIntervalMs?.[registry] ?? 0;
    if (interval <= 0) return;
    const previous = gates.get(registry) ?? Promise.resolve();
    gates.set(
      registry,
      previous.then(() => sleep(interval).then(() => undefined)),
    );
    await previous;
  };

  async function one(ref: PackageRef): Promise<Outcome> {
    if (ref.registry === 'oci') {
      if (options.oci === undefined) return { kind: 'missing', reason: 'OCI registries were not asked this night' };
      await pace('oci');
      const made = await ociFacts(ref.identifier, options.readAt, options.oci, () => state.requests++);
      return 'facts' in made ? { kind: 'facts', facts: made.facts } : { kind: 'missing', reason: made.missing };
    }
    if (!isPackageName(ref.registry, ref.identifier)) {
      return { kind: 'missing', reason: `not a name ${ref.registry} allows` };
    }
    const key = packageKey(ref.registry, ref.identifier);
    const base = options.urls[ref.registry].replace(/\/+$/, '');
    const url = `${base}${packagePath(ref.registry, ref.identifier)}`;
    const cached = options.cache.get(key);
    const source = `${new URL(base).host} API`;
    for (let tries = 0; ; tries++) {
      let response: Response;
      let body: Uint8Array;
      await pace(ref.registry);
      state.requests++;
      try {
        response = await fetch(url, {
          headers: {
            accept: 'application/json',
            'user-agent': 'mcp-trust-score-rescore',
            ...(cached ? { 'if-none-match': cached.etag } : {}),
          },
          redirect: 'error',
          signal: AbortSignal.timeout(policy.timeoutMs),
        });
        body = await readBounded(response, options.maxAnswerBytes);
      } catch (error) {
        if (tries < policy.retries && !(error instanceof Error && /more than/.test(error.message))) {
          await sleep(policy.backoffMs * 2 ** tries);
          continue;
        }
        return { kind: 'missing', reason: `${source}: ${printable((error as Error).message, 120)}` };
      }
      if (response.status === 304 && cached) {
        state.notModified++;
        return { kind: 'facts', facts: cached.facts };
      }
      if (response.status === 404) {
        options.cache.delete(key);
        return { kind: 'facts', facts: notFoundFacts(ref.registry, ref.identifier, source) };
      }
      if (response.status === 429 || response.status >= 500) {
        const wait = retryAfterMs(response.headers.get('retry-after')) ?? policy.backoffMs * 2 ** tries;
        if (tries < policy.retries && wait <= policy.maxRetryAfterMs) {
          await sleep(wait);
          continue;
        }
        return { kind: 'missing', reason: `${source} answered ${response.status}` };
      }
      if (response.status !== 200) return { kind: 'missing', reason: `${source} answered ${response.status}` };
      let facts: Omit<PackageFacts, 'read_at'>;
      try {
        const made = FACTS_FROM[ref.registry](JSON.parse(Buffer.from(body).toString('utf8')), options.readAt);
        facts = PackageFactsSchema.omit({ read_at: true }).parse({
          registry_type: ref.registry,
          identifier: ref.identifier,
          source,
          found: true,
          ...made,
        });
      } catch (error) {
        const why = error instanceof z.ZodError ? oneLineZodError(error) : 'not JSON';
        return { kind: 'missing', reason: `${source} answered with ${printable(why, 150)}` };
      }
      const etag = response.headers.get('etag');
      if (etag) options.cache.set(key, { etag, facts });
      else options.cache.delete(key);
      return { kind: 'facts', facts };
    }
  }

  const bounded = refs.slice(0, MAX_PACKAGES);
  const outcomes = await mapBounded(bounded, options.concurrency, one);

  const file: PackageFactsFile = { generated_at: options.readAt, packages: {}, unread: [] };
  bounded.forEach((ref, index) => {
    const outcome = outcomes[index]!;
    if (outcome.kind === 'facts') {
      file.packages[packageKey(ref.registry, ref.identifier)] = { ...outcome.facts, read_at: options.readAt };
    } else {
      file.unread.push({
        registry_type: ref.registry,
        identifier: ref.identifier.slice(0, 214),
        read_at: options.readAt,
        missing: outcome.reason.slice(0, 200),
      });
    }
  });
  return { file, ...state };
}
