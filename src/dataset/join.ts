/**
 * The join: one server record per scored server, its scores from the scorecard, its install information
 * from the newest registry version of the same name, and targets, badges and the verified mark from the
 * documented rules. Every record is checked against ServerRecordSchema before it is returned, so the
 * importer never writes a dataset the build would refuse.
 */
import * as z from 'zod';
import { compareNames } from '../format/name-order.js';
import { jsonArrayLines, jsonArrayText } from '../format/json-array-lines.js';
import { labelForScore, splitName, type ServerRecord } from '../model/schema.js';
import { ServerRecordSchema } from '../model/record-schema.js';
import { BADGE_RULES, badgesFor } from '../scoring/badges.js';
import {
  ImportError,
  oneLineZodError,
  type RegistryDumpEntry,
  type ScorecardIndex,
  type ScoredServer,
} from './inputs.js';
import {
  compareTimestamps,
  descriptionFrom,
  installFrom,
  isMarkedLatest,
  packagesFrom,
  pickNewestVersion,
  remotesFrom,
} from './install.js';
import { inferTargets } from '../scoring/targets.js';
import { isVerifiedPublisher } from './verified.js';

const UtcTimestamp = z.iso.datetime();
const OffsetTimestamp = z.iso.datetime({ offset: true });

/**
 * `scored_at` from the scoring run's `generated_at`. A UTC timestamp ending in `Z` is kept as it is: zod's
 * `z.iso.datetime()` accepts any number of fractional digits, so the source's microseconds survive. One
 * with a numeric offset is converted to UTC, which keeps milliseconds only (JavaScript dates have no more).
 * Anything else (no time zone, not a date) is refused rather than guessed at.
 */
export function normaliseScoredAt(generatedAt: string): string {
  if (UtcTimestamp.safeParse(generatedAt).success) return generatedAt;
  if (OffsetTimestamp.safeParse(generatedAt).success) return new Date(generatedAt).toISOString();
  throw new ImportError(`generated_at ${JSON.stringify(generatedAt)} is not an ISO 8601 timestamp with a time zone`);
}

/** Figures about one import, for the person running it and for data/README.md. */
export interface ImportSummary {
  records: number;
  withRegistryEntry: number;
  withoutRegistryEntry: number;
  /** Registry servers that the scorecard does not score (they are not imported). */
  registryServersNotScored: number;
  /** Servers whose newest version was chosen by `publishedAt` because not exactly one version was `isLatest`. */
  newestByPublishedAt: number;
  repoUrlNull: number;
  withPackages: number;
  withRemotes: number;
  withDescription: number;
  /** Servers whose chosen registry version was published after the scoring run (a later release). */
  publishedAfterScoring: number;
  /** Non-empty repository URLs that were not http(s) and so became `null`. */
  repoUrlDropped: number;
  versionNull: number;
  verifiedPublishers: number;
  /** Names whose source `trust_label` is not the band of their score (the band wins). */
  labelDisagreements: string[];
  serversWithTargets: number;
  /** Servers per target, most frequent first. */
  targets: Record<string, number>;
  /** Servers per badge id, in the order of the badge table. */
  badges: Record<string, number>;
}

/** A scored server that makes no record, and why (one line, to be printed escaped). */
export interface LeftOut {
  name: string;
  reason: string;
}

export interface ImportResult {
  /** Sorted by name (compareNames). */
  records: ServerRecord[];
  /**
   * Scored servers left out: their entry cannot make a valid record (a remote URL or identifier past the
   * record's bounds, too many remotes), their name is refused, or it differs only in case from another kept
   * one. One bad entry never stops the rest: the caller names these and publishes the others.
   */
  leftOut: LeftOut[];
  summary: ImportSummary;
}

// Name order of the decisions (section 6), the one copy (it compares code points, as the decisions say).
export { compareNames } from '../format/name-order.js';

/** One server record, checked against ServerRecordSchema. */
export function buildServerRecord(
  name: string,
  scored: ScoredServer,
  newest: RegistryDumpEntry | undefined,
  scoredAt: string,
): ServerRecord {
  const record = {
    name,
    trust_score: scored.trust_score,
    trust_label: labelForScore(scored.trust_score),
    scores: {
      provenance: scored.scores.provenance,
      maintenance: scored.scores.maintenance,
      popularity: scored.scores.popularity,
      permissions: scored.scores.permissions,
    },
    flags: [...scored.flags],
    badges: badgesFor(scored.signals),
    verified_publisher: isVerifiedPublisher(splitName(name).namespace),
    targets: inferTargets(name),
    scored_at: scoredAt,
    install: installFrom(newest),
    signals: { ...scored.signals },
    description: descriptionFrom(newest),
    packages: packagesFrom(newest),
    remotes: remotesFrom(newest),
  };
  const result = ServerRecordSchema.safeParse(record);
  if (!result.success) {
    throw new ImportError(
      `scored server ${JSON.stringify(name)} does not make a valid record: ${oneLineZodError(result.error)}`,
    );
  }
  return result.data;
}

/** One server's record, or why it makes none (the server is then left out, and the rest goes on). */
export function recordOrLeftOut(
  name: string,
  scored: ScoredServer,
  newest: RegistryDumpEntry | undefined,
  scoredAt: string,
): ServerRecord | LeftOut {
  try {
    return buildServerRecord(name, scored, newest, scoredAt);
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    return { name, reason: error.message.replace(/^scored server .* does not make a valid record: /, '') };
  }
}

function countInto(counts: Map<string, number>, keys: Iterable<string>): void {
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
}

/**
 * Why a name cannot be a record's even though the record schema's pattern takes it: an id (or namespace) of
 * only dots is a dot segment, which every URL parser collapses, so `/v1/servers/ns/..` could never be fetched.
 */
export function refusedNameReason(name: string): string | undefined {
  const { namespace, id } = splitName(name);
  if (/^\.{1,2}$/.test(id) || /^\.{1,2}$/.test(namespace)) {
    return 'its name has a dot segment ("." or "..") as a part, which a URL path cannot carry';
  }
  return undefined;
}

/** The `publishedAt` of the newest registry version of a name, for choosing among names equal but for case. */
function firstPublished(versions: readonly RegistryDumpEntry[]): string | undefined {
  return pickNewestVersion(versions)?._meta?.['io.modelcontextprotocol.registry/official']?.publishedAt ?? undefined;
}

/**
 * Names equal but for case, which the build refuses: the one published first stays (the later one cannot
 * push an existing server out of the dataset), ties and unknown times by name order; the others are left out.
 */
export function caseTwins(
  names: readonly string[],
  versionsByName: Pick<ReadonlyMap<string, RegistryDumpEntry[]>, 'get'>,
): LeftOut[] {
  const groups = new Map<string, string[]>();
  for (const name of names) {
    const group = groups.get(name.toLowerCase());
    if (group) group.push(name);
    else groups.set(name.toLowerCase(), [name]);
  }
  const leftOut: LeftOut[] = [];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const ordered = [...group].sort((a, b) => {
      const byTime = compareTimestamps(
        firstPublished(versionsByName.get(a) ?? []) ?? '9999',
        firstPublished(versionsByName.get(b) ?? []) ?? '9999',
      );
      return byTime !== 0 ? byTime : compareNames(a, b);
    });
    const kept = ordered[0]!;
    for (const name of ordered.slice(1)) {
      leftOut.push({ name, reason: `its name differs only in case from ${kept}, published earlier` });
    }
  }
  return leftOut;
}

/** Join the scorecard with the registry dump into server records sorted by name, and count what happened. */
export function joinDatasets(scorecard: ScorecardIndex, registry: readonly RegistryDumpEntry[]): ImportResult {
  const scoredAt = normaliseScoredAt(scorecard.generated_at);

  const versionsByName = new Map<string, RegistryDumpEntry[]>();
  for (const entry of registry) {
    const versions = versionsByName.get(entry.server.name);
    if (versions) versions.push(entry);
    else versionsByName.set(entry.server.name, [entry]);
  }

  const leftOut: LeftOut[] = [];
  const refusedNames = new Set<string>();
  for (const name of Object.keys(scorecard.servers)) {
    const reason = refusedNameReason(name);
    if (reason === undefined) continue;
    leftOut.push({ name, reason });
    refusedNames.add(name);
  }
  // The build refuses names that differ only in case: one of them stays, the others are left out here.
  const candidates = Object.keys(scorecard.servers).filter((name) => !refusedNames.has(name));
  for (const twin of caseTwins(candidates, versionsByName)) {
    leftOut.push(twin);
    refusedNames.add(twin.name);
  }

  const names = candidates.filter((name) => !refusedNames.has(name)).sort(compareNames);
  const records: ServerRecord[] = [];
  const targetCounts = new Map<string, number>();
  const badgeCounts = new Map<string, number>(BADGE_RULES.map((rule) => [rule.id, 0]));
  const labelDisagreements: string[] = [];
  let withRegistryEntry = 0;
  let newestByPublishedAt = 0;
  let repoUrlDropped = 0;
  let publishedAfterScoring = 0;

  for (const name of names) {
    const scored = scorecard.servers[name];
    if (scored === undefined) continue;
    const versions = versionsByName.get(name) ?? [];
    const newest = pickNewestVersion(versions);
    const record = recordOrLeftOut(name, scored, newest, scoredAt);
    if ('reason' in record) {
      leftOut.push(record);
      continue;
    }
    records.push(record);

    if (newest !== undefined) {
      withRegistryEntry++;
      const publishedAt = newest._meta?.['io.modelcontextprotocol.registry/official']?.publishedAt;
      if (compareTimestamps(publishedAt, scoredAt) > 0) publishedAfterScoring++;
      if (versions.filter(isMarkedLatest).length !== 1) newestByPublishedAt++;
      if (newest.server.repository?.url?.trim() && record.install.repo_url === null) repoUrlDropped++;
    }
    if (scored.trust_label !== record.trust_label) labelDisagreements.push(name);
    countInto(targetCounts, record.targets);
    countInto(
      badgeCounts,
      record.badges.map((badge) => badge.id),
    );
  }

  const scoredNames = new Set(Object.keys(scorecard.servers));
  return {
    records,
    leftOut: leftOut.sort((a, b) => compareNames(a.name, b.name)),
    summary: {
      records: records.length,
      withRegistryEntry,
      withoutRegistryEntry: records.length - withRegistryEntry,
      registryServersNotScored: [...versionsByName.keys()].filter((name) => !scoredNames.has(name)).length,
      newestByPublishedAt,
      repoUrlNull: records.filter((r) => r.install.repo_url === null).length,
      withPackages: records.filter((r) => (r.packages ?? []).length > 0).length,
      withRemotes: records.filter((r) => (r.remotes ?? []).length > 0).length,
      withDescription: records.filter((r) => r.description !== null && r.description !== undefined).length,
      publishedAfterScoring,
      repoUrlDropped,
      versionNull: records.filter((r) => r.install.version === null).length,
      verifiedPublishers: records.filter((r) => r.verified_publisher).length,
      labelDisagreements,
      serversWithTargets: records.filter((r) => r.targets.length > 0).length,
      targets: Object.fromEntries([...targetCounts].sort((a, b) => b[1] - a[1] || compareNames(a[0], b[0]))),
      badges: Object.fromEntries(badgeCounts),
    },
  };
}

/**
 * The dataset file: a JSON array with one compact record per line, so a changed server is a one-line diff.
 */
export function serializeDataset(records: readonly ServerRecord[]): string {
  return jsonArrayText(records);
}

/** `serializeDataset`'s text a record at a time, for a writer that streams it. */
export const datasetPieces = (records: Iterable<ServerRecord>): Iterable<string> => jsonArrayLines(records);
