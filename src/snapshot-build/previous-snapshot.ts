/**
 * What a build reads of the snapshot it replaces (`--previous`): every record's trust summary, for the
 * changes and the guards, and the history to carry forward, from this artifact version or an earlier one
 * it can still carry forward from.
 */
import path from 'node:path';
import type { RecordSummary } from '../history/changes.js';
import { HISTORY_FILE, type HistoryArtifact } from '../history/history.js';
import { decodeHistorySync } from '../history/history-layout.js';
import { ARTIFACT_VERSION } from '../format/manifest.js';
import { readManifest, readVerified, readVerifiedFile, SnapshotLoadError } from '../format/verified-read.js';

/**
 * Artifact versions whose records and history a build can still carry forward from (`--previous`), so the
 * first republish after an upgrade keeps the history; serving reads ARTIFACT_VERSION only.
 */
const CARRIED_VERSIONS: Readonly<Record<number, { history: string; decode: (bytes: Buffer) => HistoryArtifact }>> = {
  2: { history: 'history.json', decode: (bytes) => JSON.parse(bytes.toString('utf8')) as HistoryArtifact },
  // Versions 3 to 10 share the history's layout (4 added the description index, 5 the manifest's newest_scored_at,
  // 6 the records' evidence and the advisories file, 7 the evidence's signals kept per source, 8 the tools file
  // and the points' optional tools hash and advisory ids, which an older history simply lacks, 9 the lookup
  // table's repositories, 10 the records' catalog listings and the statistics' catalog_only_servers).
  3: { history: HISTORY_FILE, decode: decodeHistorySync },
  4: { history: HISTORY_FILE, decode: decodeHistorySync },
  5: { history: HISTORY_FILE, decode: decodeHistorySync },
  6: { history: HISTORY_FILE, decode: decodeHistorySync },
  7: { history: HISTORY_FILE, decode: decodeHistorySync },
  8: { history: HISTORY_FILE, decode: decodeHistorySync },
  9: { history: HISTORY_FILE, decode: decodeHistorySync },
  [ARTIFACT_VERSION]: { history: HISTORY_FILE, decode: decodeHistorySync },
};

/** The name, score, label and flags of every record of a snapshot (checked like any load), for diffs. */
export async function readRecordSummaries(
  dir: string,
): Promise<{ snapshot_id: string; generated_at: string; records: RecordSummary[] }> {
  const root = path.resolve(dir);
  const manifest = await readManifest(root, Object.keys(CARRIED_VERSIONS).map(Number));
  const bytes = await readVerified(root, manifest, 'records');
  const records: RecordSummary[] = [];
  let start = 0;
  for (let end = bytes.indexOf(0x0a); end >= 0; start = end + 1, end = bytes.indexOf(0x0a, start)) {
    const { name, trust_score, trust_label, flags, scores, scored_at } = JSON.parse(
      bytes.toString('utf8', start, end),
    ) as RecordSummary;
    records.push({ name, trust_score, trust_label, flags, scores, scored_at });
  }
  return { snapshot_id: manifest.snapshot_id, generated_at: manifest.generated_at, records };
}

/** The history of the snapshot in `dir`, checked against its manifest; undefined when it has none. */
export async function readHistory(dir: string): Promise<HistoryArtifact | undefined> {
  const root = path.resolve(dir);
  const manifest = await readManifest(root, Object.keys(CARRIED_VERSIONS).map(Number));
  const carried = CARRIED_VERSIONS[manifest.artifact_version]!;
  if (!manifest.files[carried.history]) return undefined;
  const bytes = await readVerifiedFile(root, manifest, carried.history);
  try {
    return carried.decode(bytes);
  } catch {
    throw new SnapshotLoadError(`${path.join(root, carried.history)}: the history cannot be decoded`);
  }
}
