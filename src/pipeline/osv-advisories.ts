/**
 * From OSV records to the project's advisories: which OSV records concern MCP server packages, and the bounded
 * form kept of each (`src/model/advisories.ts`). Shared by the by-hand import from local checkouts of
 * `ossf/malicious-packages` and `github/advisory-database` (`scripts/advisories.ts`) and by the nightly OSV step.
 * One record that does not fit is skipped and counted by the caller, never fatal.
 */
import { z } from 'zod';
import {
  ADVISORY_LIMITS,
  AdvisorySchema,
  OSV_ECOSYSTEMS,
  type Advisory,
  type AffectedPackage,
  type OsvEcosystem,
  type RangeEvent,
} from '../model/advisories.js';

/** How a package is chosen as MCP-related: its name says so, or it is a known case the name does not show. */
export const MCP_NAME_PATTERN = /mcp|modelcontextprotocol|model-context-protocol/i;
export const KNOWN_MCP_PACKAGES: ReadonlySet<string> = new Set(['npm:postmark-mcp', 'npm:mcp-remote']);
export const SELECTION_RULE =
  'OSV records (MAL-* of ossf/malicious-packages with an assigned id, reviewed GHSA-* of github/advisory-database) with an affected package in npm, PyPI, crates.io or NuGet whose name contains "mcp", "modelcontextprotocol" or "model-context-protocol" (case-insensitive), or is one of the known cases npm:postmark-mcp, npm:mcp-remote; only those affected packages are kept.';

export function isMcpPackage(ecosystem: string, name: string): boolean {
  return MCP_NAME_PATTERN.test(name) || KNOWN_MCP_PACKAGES.has(`${ecosystem}:${name}`);
}

const Text = z.string().max(100_000);
/** An OSV record as published (OSV schema 1.x), only the members read here; the rest passes through unread. */
export const OsvRecordSchema = z.looseObject({
  id: z.string().max(200),
  aliases: z.array(z.string().max(200)).max(200).optional(),
  summary: Text.optional(),
  details: Text.optional(),
  published: z.string().max(64).optional(),
  modified: z.string().max(64),
  withdrawn: z.string().max(64).optional(),
  affected: z
    .array(
      z.looseObject({
        package: z.looseObject({ ecosystem: z.string().max(100), name: z.string().max(500) }).optional(),
        ranges: z
          .array(
            z.looseObject({
              type: z.string().max(32),
              events: z.array(z.record(z.string(), z.string().max(200))).max(1000),
            }),
          )
          .max(100)
          .optional(),
        versions: z.array(z.string().max(200)).max(100_000).optional(),
      }),
    )
    .max(10_000)
    .optional(),
  database_specific: z
    .looseObject({ severity: z.string().max(32).optional(), cwe_ids: z.array(z.string().max(32)).max(100).optional() })
    .optional(),
});
export type OsvRecord = z.infer<typeof OsvRecordSchema>;

/** OSV timestamps may carry fractions or omit them; keep them as ISO UTC with a Z. */
function utc(text: string | undefined, fallback: string): string {
  const date = new Date(text ?? fallback);
  return Number.isNaN(date.getTime()) ? fallback : date.toISOString().replace('.000Z', 'Z');
}

function bounded(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 1)}…`;
}

function keptAffected(record: OsvRecord): AffectedPackage[] {
  const kept: AffectedPackage[] = [];
  for (const affected of record.affected ?? []) {
    const ecosystem = affected.package?.ecosystem as OsvEcosystem | undefined;
    const name = affected.package?.name;
    if (!ecosystem || !name || !OSV_ECOSYSTEMS.includes(ecosystem) || !isMcpPackage(ecosystem, name)) continue;
    const ranges = (affected.ranges ?? [])
      .filter((range) => range.type === 'SEMVER' || range.type === 'ECOSYSTEM')
      .map((range) => ({
        type: range.type as 'SEMVER' | 'ECOSYSTEM',
        events: range.events.flatMap((event): RangeEvent[] => {
          if (event.introduced !== undefined) return [{ introduced: event.introduced }];
          if (event.fixed !== undefined) return [{ fixed: event.fixed }];
          if (event.last_affected !== undefined) return [{ last_affected: event.last_affected }];
          return [];
        }),
      }))
      .filter((range) => range.events.length > 0);
    // A GIT range or a `limit` event says nothing about package versions: a record with only those is kept
    // with its explicit versions, or left out when it has none (it would otherwise read as "every version").
    if (ranges.length === 0 && (affected.ranges?.length ?? 0) > 0 && (affected.versions ?? []).length === 0) continue;
    kept.push({ ecosystem, name, ranges, versions: affected.versions ?? [] });
  }
  return kept;
}

/**
 * The advisory kept of one OSV record, or null when it names no MCP package, is withdrawn, has no assigned id
 * (the per-source `MAL-0000-…` originals that the assigned record merges), or does not fit the bounds.
 */
export function toAdvisory(record: OsvRecord, sourceUrl: string): Advisory | null {
  if (record.withdrawn !== undefined) return null;
  if (!/^(MAL-[0-9]{4}-[0-9]+|GHSA-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4})$/.test(record.id)) return null;
  if (record.id.startsWith('MAL-0000-')) return null;
  const affected = keptAffected(record);
  if (affected.length === 0) return null;
  const cwes = record.database_specific?.cwe_ids ?? [];
  const severity = record.database_specific?.severity?.toUpperCase();
  const candidate = {
    id: record.id,
    aliases: (record.aliases ?? []).slice(0, 32),
    kind: record.id.startsWith('MAL-') || cwes.includes('CWE-506') ? 'malicious' : 'vulnerability',
    summary: bounded(record.summary || record.details || record.id, ADVISORY_LIMITS.summary),
    severity:
      severity === 'LOW' || severity === 'MODERATE' || severity === 'HIGH' || severity === 'CRITICAL' ? severity : null,
    affected: affected.slice(0, ADVISORY_LIMITS.affected),
    published: utc(record.published, utc(record.modified, '1970-01-01T00:00:00Z')),
    modified: utc(record.modified, '1970-01-01T00:00:00Z'),
    source_url: sourceUrl,
  };
  const parsed = AdvisorySchema.safeParse(candidate);
  return parsed.success ? parsed.data : null;
}

/** Advisories in a stable order (id), one per id: the later `modified` wins when two sources carry one id. */
export function mergeAdvisories(lists: readonly (readonly Advisory[])[]): Advisory[] {
  const byId = new Map<string, Advisory>();
  for (const advisory of lists.flat()) {
    const held = byId.get(advisory.id);
    if (!held || held.modified < advisory.modified) byId.set(advisory.id, advisory);
  }
  return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
