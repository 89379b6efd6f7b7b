/**
 * OSV's answers as the advisories step reads them (https://google.github.io/osv.dev/api/, the OpenAPI
 * description, google/osv.dev/docs/osv_service_v1.swagger.json): `POST /v1/querybatch` answers a list of
 * `{ vulns: [{ id, modified }], next_page_token? }` in the order of the queries, and `GET /v1/vulns/{id}` an
 * OSV record. The service names its fields as the protocol buffers do (`next_page_token`,
 * `database_specific`), as its documentation shows. Every answer is checked here with bounds before any of it
 * is used; an OSV record is then cut to an advisory of `src/model/advisories.ts`.
 */
import * as z from 'zod';
import {
  AdvisorySchema,
  AffectedSchema,
  affectedKey,
  OSV_ECOSYSTEMS,
  type Advisory,
  type Affected,
} from '../../model/advisories.js';

/** OSV's ids are `<DB>-<ENTRYID>`; the advisory file takes the same shape. */
const OsvId = AdvisorySchema.shape.id;
/** RFC 3339 as OSV writes it (`2023-03-14T05:47:39.989396Z`); read as a time, written back in UTC. */
const Rfc3339 = z
  .string()
  .max(40)
  .refine((text) => !Number.isNaN(Date.parse(text)), { error: 'not an RFC 3339 time' });

export const BatchAnswerSchema = z.looseObject({
  results: z
    .array(
      z.looseObject({
        vulns: z
          .array(z.looseObject({ id: OsvId, modified: Rfc3339 }))
          .max(10_000)
          .optional(),
        next_page_token: z.string().min(1).max(2000).optional(),
      }),
    )
    .max(1000),
});
export type BatchAnswer = z.infer<typeof BatchAnswerSchema>;

const Text = (max: number) => z.string().max(max);

export const OsvVulnerabilitySchema = z.looseObject({
  id: OsvId,
  modified: Rfc3339,
  published: Rfc3339.optional(),
  withdrawn: Rfc3339.optional(),
  aliases: z.array(Text(200)).max(500).optional(),
  summary: Text(10_000).optional(),
  details: Text(200_000).optional(),
  affected: z
    .array(
      z.looseObject({
        package: z.looseObject({ ecosystem: Text(100), name: Text(1000), purl: Text(2000).optional() }),
        ranges: z
          .array(
            z.looseObject({
              type: Text(20),
              events: z.array(z.record(z.string().max(40), Text(200))).max(10_000),
            }),
          )
          .max(1000)
          .optional(),
        versions: z.array(Text(200)).max(100_000).optional(),
      }),
    )
    .max(10_000)
    .optional(),
  database_specific: z.looseObject({ severity: z.unknown().optional() }).optional(),
});
export type OsvVulnerability = z.infer<typeof OsvVulnerabilitySchema>;

/**
 * An advisory as the cache keeps it: every affected package of an ecosystem the registry knows, however
 * many (the file keeps those of the packages asked about, at most 16).
 */
export const CachedAdvisorySchema = AdvisorySchema.extend({ affected: z.array(AffectedSchema).max(1000) });
export type CachedAdvisory = z.infer<typeof CachedAdvisorySchema>;

/** Why a record cannot be read, or nothing to keep (withdrawn, or naming no package of a known ecosystem). */
export type Converted = { advisory: CachedAdvisory } | { skipped: string } | { refused: string };

/** The bounds of `src/model/advisories.ts`: versions listed per package, packages per advisory. */
const MAX_VERSIONS = 256;
const MAX_AFFECTED = 16;

const utc = (time: string) => new Date(time).toISOString().replace('.000Z', 'Z');

/** One line of text an outside service wrote, without control characters, at most `max` characters. */
function oneLine(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const SEVERITIES: Record<string, Advisory['severity']> = {
  critical: 'critical',
  high: 'high',
  moderate: 'moderate',
  medium: 'moderate',
  low: 'low',
};

/** The affected package as the file keeps it, or why it cannot be kept. */
function affectedOf(
  entry: NonNullable<OsvVulnerability['affected']>[number],
): { affected: Affected } | { refused: string } | undefined {
  const ranges = (entry.ranges ?? [])
    .filter((range) => range.type === 'SEMVER' || range.type === 'ECOSYSTEM')
    // `limit` bounds a GIT range only; an event is one of introduced, fixed, last_affected.
    .map((range) => ({ type: range.type, events: range.events.filter((event) => !('limit' in event)) }))
    .filter((range) => range.events.length > 0);
  let versions = entry.versions ?? [];
  // OSV lists the versions its ranges enumerate: with ranges, a list past the bound adds nothing to judge by.
  if (versions.length > MAX_VERSIONS && ranges.length > 0) versions = [];
  if (ranges.length === 0 && versions.length === 0) return undefined;
  const parsed = AffectedSchema.safeParse({
    ecosystem: entry.package.ecosystem,
    name: entry.package.name,
    ranges,
    versions,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { refused: `${entry.package.name}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim() };
  }
  return { affected: parsed.data };
}

/** An OSV record as an advisory: MAL- records are malicious releases, any other a vulnerability. */
export function advisoryOf(osv: OsvVulnerability): Converted {
  if (osv.withdrawn !== undefined) return { skipped: 'withdrawn' };
  const affected: Affected[] = [];
  for (const entry of osv.affected ?? []) {
    if (!Object.values(OSV_ECOSYSTEMS).includes(entry.package.ecosystem)) continue;
    const made = affectedOf(entry);
    if (made === undefined) continue;
    if ('refused' in made) return made;
    affected.push(made.affected);
  }
  if (affected.length === 0) return { skipped: 'names no package of an ecosystem the registry knows' };
  const severity = osv.database_specific?.severity;
  const summary = oneLine(osv.summary ?? osv.details?.split('\n', 1)[0] ?? '', 300) || osv.id;
  const parsed = CachedAdvisorySchema.safeParse({
    id: osv.id,
    aliases: (osv.aliases ?? []).filter((alias) => alias.length <= 64).slice(0, 16),
    kind: osv.id.startsWith('MAL-') ? 'malicious' : 'vulnerability',
    summary,
    severity: typeof severity === 'string' ? (SEVERITIES[severity.toLowerCase()] ?? null) : null,
    published: utc(osv.published ?? osv.modified),
    modified: utc(osv.modified),
    url: `https://osv.dev/vulnerability/${osv.id}`,
    affected,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { refused: `${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim() };
  }
  return { advisory: parsed.data };
}

/** The advisory as the file keeps it: only the affected packages asked about (at most 16), or undefined. */
export function advisoryFor(advisory: CachedAdvisory, asked: ReadonlySet<string>): Advisory | undefined {
  const affected = advisory.affected
    .filter((entry) => {
      const key = affectedKey(entry);
      return key !== undefined && asked.has(key);
    })
    .slice(0, MAX_AFFECTED);
  return affected.length === 0 ? undefined : { ...advisory, affected };
}
