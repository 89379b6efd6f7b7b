/**
 * Advisories about MCP server packages: the committed evidence file `data/evidence/advisories.json` (read by
 * the build's advisory source, `src/scoring/sources/advisories.ts`) and what a record keeps of the advisories
 * that name its packages (`evidence.advisories`), which a check reads to judge the version a configuration
 * pins. Each advisory is an OSV record cut to what a verdict needs: its id, kind (malicious: an OpenSSF
 * `MAL-` record; vulnerability: a reviewed GitHub advisory), the packages and versions it affects, the fixed
 * version where there is one.
 */
import * as z from 'zod';
import { isoUtc } from './fields.js';
import { packageKey } from './identifiers.js';
import { compareVersions, inRange } from './versions.js';

/** OSV's ecosystem names for the registry types the MCP registry knows. */
export const OSV_ECOSYSTEMS: Readonly<Record<string, string>> = {
  npm: 'npm',
  pypi: 'PyPI',
  cargo: 'crates.io',
  nuget: 'NuGet',
};
const REGISTRY_TYPE_OF = Object.fromEntries(Object.entries(OSV_ECOSYSTEMS).map(([type, name]) => [name, type]));

const Version = z.string().min(1).max(64);
const EventSchema = z
  .strictObject({ introduced: Version.optional(), fixed: Version.optional(), last_affected: Version.optional() })
  .refine((event) => Object.keys(event).length === 1, { error: 'an event is one of introduced, fixed, last_affected' });

export const AffectedSchema = z.strictObject({
  ecosystem: z.string().min(1).max(32),
  name: z.string().min(1).max(214),
  ranges: z
    .array(z.strictObject({ type: z.enum(['SEMVER', 'ECOSYSTEM']), events: z.array(EventSchema).min(1).max(32) }))
    .max(16),
  versions: z.array(Version).max(256),
});
export type Affected = z.infer<typeof AffectedSchema>;

export const AdvisorySchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9.:_-]{2,63}$/),
  aliases: z.array(z.string().max(64)).max(16),
  kind: z.enum(['malicious', 'vulnerability']),
  summary: z.string().min(1).max(300),
  severity: z.enum(['critical', 'high', 'moderate', 'low']).nullable(),
  published: isoUtc(),
  modified: isoUtc(),
  url: z.url({ protocol: /^https$/ }).max(300),
  affected: z.array(AffectedSchema).min(1).max(16),
});
export type Advisory = z.infer<typeof AdvisorySchema>;

export const AdvisoryFileSchema = z.strictObject({
  /** When the advisories were taken from their databases. */
  generated_at: isoUtc(),
  sources: z
    .array(
      z.strictObject({
        name: z.string().max(100),
        repository: z.string().max(100),
        commit: z.string().max(64),
        licence: z.string().max(40),
      }),
    )
    .min(1),
  advisories: z.array(AdvisorySchema).max(100_000),
});
export type AdvisoryFile = z.infer<typeof AdvisoryFileSchema>;

/** What a record keeps of an advisory naming one of its packages: enough to judge any version of it. */
export const AdvisoryDetailSchema = z.strictObject({
  id: z.string(),
  kind: z.enum(['malicious', 'vulnerability']),
  summary: z.string(),
  /** The record's package it names, as a package key (`npm:postmark-mcp`). */
  package: z.string(),
  ranges: AffectedSchema.shape.ranges,
  versions: AffectedSchema.shape.versions,
  /** The lowest fixed version the ranges name, if any. */
  fixed: z.string().nullable(),
  url: z.string(),
});
export type AdvisoryDetail = z.infer<typeof AdvisoryDetailSchema>;

/** The package key an affected package of an advisory is filed under, or undefined for an ecosystem we do not read. */
export function affectedKey(affected: Affected): string | undefined {
  const type = REGISTRY_TYPE_OF[affected.ecosystem];
  return type === undefined ? undefined : packageKey(type, affected.name);
}

/** Advisory details by the package key they affect. */
export type AdvisoryIndex = ReadonlyMap<string, readonly AdvisoryDetail[]>;

/** The advisories of `file` as details, by the package key each affected package is filed under. */
export function indexAdvisories(file: AdvisoryFile): AdvisoryIndex {
  const index = new Map<string, AdvisoryDetail[]>();
  for (const advisory of file.advisories) {
    for (const affected of advisory.affected) {
      const key = affectedKey(affected);
      if (key === undefined) continue;
      const detail: AdvisoryDetail = {
        id: advisory.id,
        kind: advisory.kind,
        summary: advisory.summary,
        package: key,
        ranges: affected.ranges,
        versions: affected.versions,
        fixed: fixedVersion(affected),
        url: advisory.url,
      };
      index.set(key, [...(index.get(key) ?? []), detail]);
    }
  }
  return index;
}

/** How many advisory details a record keeps (its evidence's `advisories`). */
export const MAX_RECORD_ADVISORIES = 64;

/**
 * The advisories naming each of `packages`, in package order then the index's order, with the version of the
 * package they name: what the advisory source keeps of a record (the first MAX_RECORD_ADVISORIES of them) and
 * judges its versions by, and what the build's history records of it (`recordAdvisoryIds`).
 */
export function advisoriesOfPackages(
  index: AdvisoryIndex,
  packages: readonly { registry_type: string; identifier: string; version: string | null }[],
): { detail: AdvisoryDetail; version: string | null; key: string }[] {
  const found: { detail: AdvisoryDetail; version: string | null; key: string }[] = [];
  for (const pkg of packages) {
    const key = packageKey(pkg.registry_type, pkg.identifier);
    for (const detail of index.get(key) ?? []) found.push({ detail, version: pkg.version, key });
  }
  return found;
}

/** The ids of the advisories a record with `packages` keeps, each once, in code-point order. */
export function recordAdvisoryIds(
  index: AdvisoryIndex,
  packages: readonly { registry_type: string; identifier: string; version: string | null }[],
): string[] {
  if (packages.length === 0 || index.size === 0) return [];
  const kept = advisoriesOfPackages(index, packages).slice(0, MAX_RECORD_ADVISORIES);
  return [...new Set(kept.map(({ detail }) => detail.id))].sort();
}

/** Whether `version` is affected; with no version known, whether every version is. */
export function isAffected(detail: Pick<AdvisoryDetail, 'ranges' | 'versions'>, version: string | null): boolean {
  if (version === null) {
    return detail.ranges.some((range) => range.events.length === 1 && range.events[0]?.introduced === '0');
  }
  if (detail.versions.some((listed) => compareVersions(listed, version) === 0)) return true;
  return detail.ranges.some((range) => inRange(version, range.events));
}

/** The lowest version a fix event names. */
export function fixedVersion(affected: Affected): string | null {
  const fixed = affected.ranges.flatMap((range) => range.events.flatMap((event) => (event.fixed ? [event.fixed] : [])));
  return fixed.sort(compareVersions)[0] ?? null;
}

/** The advisory details of a record (its evidence's `advisories`, read loosely: a record is input). */
export function advisoryDetails(evidence: { advisories?: unknown[] } | undefined): AdvisoryDetail[] {
  return (evidence?.advisories ?? []).flatMap((item) => {
    const parsed = AdvisoryDetailSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}
