/**
 * The committed advisory data (`data/evidence/advisories.json`): malicious-package records of OpenSSF's
 * `ossf/malicious-packages` and reviewed GitHub Security Advisories, both in OSV form, kept for the MCP server
 * packages they name. Read by the build and the offline checker, never by the server at run time. Each entry
 * keeps only what a verdict needs (ids, kind, bounded summary, severity, affected packages with their ranges),
 * and the source it came from.
 */
import { z } from 'zod';
import { isoUtc } from './fields.js';

/** Bounds: a summary is one sentence, an advisory names a few packages, a range a few events. */
export const ADVISORY_LIMITS = { summary: 300, affected: 32, ranges: 8, events: 32, versions: 512, entries: 5000 };

/** The OSV ecosystems the project's package registries map to (npm→npm, pypi→PyPI, cargo→crates.io, nuget→NuGet). */
export const OSV_ECOSYSTEMS = ['npm', 'PyPI', 'crates.io', 'NuGet'] as const;
export type OsvEcosystem = (typeof OSV_ECOSYSTEMS)[number];

const VersionText = z.string().min(1).max(128);

/** One OSV range event: exactly one of introduced, fixed, last_affected (limit is not used by these sources). */
export const RangeEventSchema = z.union([
  z.strictObject({ introduced: VersionText }),
  z.strictObject({ fixed: VersionText }),
  z.strictObject({ last_affected: VersionText }),
]);
export type RangeEvent = z.infer<typeof RangeEventSchema>;

export const AffectedRangeSchema = z.strictObject({
  type: z.enum(['SEMVER', 'ECOSYSTEM']),
  events: z.array(RangeEventSchema).min(1).max(ADVISORY_LIMITS.events),
});
export type AffectedRange = z.infer<typeof AffectedRangeSchema>;

export const AffectedPackageSchema = z.strictObject({
  ecosystem: z.enum(OSV_ECOSYSTEMS),
  name: z.string().min(1).max(214),
  ranges: z.array(AffectedRangeSchema).max(ADVISORY_LIMITS.ranges),
  /** Explicit affected versions (OSV `versions`); with no ranges and no versions, every version is affected. */
  versions: z.array(VersionText).max(ADVISORY_LIMITS.versions),
});
export type AffectedPackage = z.infer<typeof AffectedPackageSchema>;

export const ADVISORY_KINDS = ['malicious', 'vulnerability'] as const;

export const AdvisorySchema = z.strictObject({
  id: z
    .string()
    .regex(/^[A-Za-z]+-[A-Za-z0-9-]+$/)
    .max(80),
  aliases: z.array(z.string().min(1).max(80)).max(32),
  kind: z.enum(ADVISORY_KINDS),
  summary: z.string().min(1).max(ADVISORY_LIMITS.summary),
  /** GitHub's word (LOW, MODERATE, HIGH, CRITICAL) where the advisory gives one. */
  severity: z.enum(['LOW', 'MODERATE', 'HIGH', 'CRITICAL']).nullable(),
  affected: z.array(AffectedPackageSchema).min(1).max(ADVISORY_LIMITS.affected),
  published: isoUtc('published must be an ISO 8601 UTC timestamp'),
  modified: isoUtc('modified must be an ISO 8601 UTC timestamp'),
  source_url: z.url().max(300),
});
export type Advisory = z.infer<typeof AdvisorySchema>;

export const AdvisorySourceSchema = z.strictObject({
  name: z.string().min(1).max(100),
  repository: z.string().min(1).max(200),
  commit: z.string().regex(/^[0-9a-f]{40}$/),
  licence: z.string().min(1).max(40),
});

export const AdvisoryFileSchema = z.strictObject({
  generated_at: isoUtc('generated_at must be an ISO 8601 UTC timestamp'),
  /** How the records were chosen from the sources, in words. */
  selection: z.string().min(1).max(1000),
  sources: z.array(AdvisorySourceSchema).min(1).max(8),
  advisories: z.array(AdvisorySchema).max(ADVISORY_LIMITS.entries),
});
export type AdvisoryFile = z.infer<typeof AdvisoryFileSchema>;

/** The OSV ecosystem of one of the project's registry types, or null when advisories do not cover it. */
export function osvEcosystem(registryType: string): OsvEcosystem | null {
  switch (registryType.toLowerCase()) {
    case 'npm':
      return 'npm';
    case 'pypi':
      return 'PyPI';
    case 'cargo':
      return 'crates.io';
    case 'nuget':
      return 'NuGet';
    default:
      return null;
  }
}
