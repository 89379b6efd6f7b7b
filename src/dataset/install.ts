/**
 * Install information from the official registry dump: which of a server's versions counts as the newest,
 * and what its `install` object is. Nothing is invented: a value the registry does not give is `null` (or an
 * empty list), as the decisions (section 2) require.
 */
import { type Install, type PackageRef, type RemoteRef } from '../model/schema.js';
import { InstallSchema } from '../model/record-schema.js';
import type { RegistryDumpEntry } from './inputs.js';

const OFFICIAL = 'io.modelcontextprotocol.registry/official';

/**
 * A sortable key for an ISO 8601 timestamp with any number of fractional digits (the dump has 3 to 6):
 * whole seconds since the epoch, then the fraction padded to nanoseconds. `Date.parse` alone would cut
 * microseconds, and plain string order puts `…:55.1Z` after `…:55.12Z`. `undefined` for a missing or
 * unreadable timestamp.
 */
export function timestampKey(timestamp: string | null | undefined): [number, string] | undefined {
  if (!timestamp) return undefined;
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/.exec(timestamp);
  if (!match) return undefined;
  const seconds = Date.parse(`${match[1]}${match[3]}`);
  if (Number.isNaN(seconds)) return undefined;
  return [seconds, (match[2] ?? '').padEnd(9, '0')];
}

/** Negative, zero or positive as timestamp `a` is earlier, equal or later; a missing one is earliest. */
export function compareTimestamps(a: string | null | undefined, b: string | null | undefined): number {
  const ka = timestampKey(a);
  const kb = timestampKey(b);
  if (!ka || !kb) return (ka ? 1 : 0) - (kb ? 1 : 0);
  return ka[0] - kb[0] || (ka[1] < kb[1] ? -1 : ka[1] > kb[1] ? 1 : 0);
}

/** True when the registry marks this version as its server's latest. */
export function isMarkedLatest(entry: RegistryDumpEntry): boolean {
  return entry._meta?.[OFFICIAL]?.isLatest === true;
}

/**
 * The newest of one server's registry versions: among the versions marked `isLatest` (all of them when none
 * is marked), the one with the latest `publishedAt`; on a tie, the one that comes later in the dump.
 * `undefined` for no versions.
 */
export function pickNewestVersion(versions: readonly RegistryDumpEntry[]): RegistryDumpEntry | undefined {
  const marked = versions.filter(isMarkedLatest);
  const candidates = marked.length > 0 ? marked : versions;
  let newest: RegistryDumpEntry | undefined;
  for (const entry of candidates) {
    if (
      newest === undefined ||
      compareTimestamps(entry._meta?.[OFFICIAL]?.publishedAt, newest._meta?.[OFFICIAL]?.publishedAt) >= 0
    ) {
      newest = entry;
    }
  }
  return newest;
}

/** The values in order of first appearance, blanks dropped, each once (compared case-insensitively). */
function distinct(values: Iterable<string | null | undefined>): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of values) {
    const value = raw?.trim();
    if (!value || seen.has(value.toLowerCase())) continue;
    seen.add(value.toLowerCase());
    out.push(value);
  }
  return out;
}

/**
 * The repository URL, or `null` when it is missing, empty, or not an http(s) URL (`git@github.com:…` and
 * other forms are dropped rather than rewritten: a value is never invented).
 */
export function repoUrlFrom(url: string | null | undefined): string | null {
  const trimmed = url?.trim();
  if (!trimmed) return null;
  return InstallSchema.shape.repo_url.safeParse(trimmed).success ? trimmed : null;
}

/** The packages of a registry version, each with what identifies it; entries without an identifier are skipped. */
export function packagesFrom(entry: RegistryDumpEntry | undefined): PackageRef[] {
  const packages: PackageRef[] = [];
  for (const pkg of entry?.server.packages ?? []) {
    const registryType = pkg.registryType?.trim();
    const identifier = pkg.identifier?.trim();
    if (!registryType || !identifier) continue;
    const version = pkg.version?.trim();
    packages.push({
      registry_type: registryType,
      identifier,
      version: version && InstallSchema.shape.version.safeParse(version).success ? version : null,
    });
  }
  return packages;
}

/** The remotes of a registry version; entries without a URL are skipped. */
export function remotesFrom(entry: RegistryDumpEntry | undefined): RemoteRef[] {
  const remotes: RemoteRef[] = [];
  for (const remote of entry?.server.remotes ?? []) {
    const type = remote.type?.trim();
    const url = remote.url?.trim();
    if (type && url) remotes.push({ type, url });
  }
  return remotes;
}

/** The registry's one-line description, or null when it gives none. */
export function descriptionFrom(entry: RegistryDumpEntry | undefined): string | null {
  const description = entry?.server.description?.trim();
  return description ? description : null;
}

/**
 * The install object of one registry version (the newest, as chosen by pickNewestVersion); for a server the
 * registry dump does not know (`undefined`), every value is unknown.
 */
export function installFrom(entry: RegistryDumpEntry | undefined): Install {
  if (entry === undefined) return { repo_url: null, version: null, package_types: [], transport_types: [] };
  const { server } = entry;
  const version = server.version?.trim();
  const packages = server.packages ?? [];
  return {
    repo_url: repoUrlFrom(server.repository?.url),
    version: version && InstallSchema.shape.version.safeParse(version).success ? version : null,
    package_types: distinct(packages.map((pkg) => pkg.registryType)),
    transport_types: distinct([
      ...packages.map((pkg) => pkg.transport?.type),
      ...(server.remotes ?? []).map((remote) => remote.type),
    ]),
  };
}
