/**
 * The manifest: what a snapshot folder holds and how to check it. The loader refuses an artifact version
 * it does not know, so an old server never misreads a newer layout (and the reverse).
 */
import * as z from 'zod';

/**
 * Bump whenever the layout or meaning of any artifact changes (5: the manifest names the newest `scored_at`;
 * 6: records scored with mts-2 carry `evidence`, and the advisories they were scored with are a file; 7: the
 * evidence keeps each source's signals with the source; 8: the tools pinned per server are a file, and the
 * history's points carry each server's tools hash and advisory ids, so their changes are change kinds; 9: the
 * lookup table files records by source repository; 10: records carry their catalog listings, the lookup table
 * files a record by what its listings name too, and the statistics count catalog-only servers apart).
 */
export const ARTIFACT_VERSION = 10;

/** The artifact files of a snapshot, by role. */
export const ARTIFACT_FILES = {
  /** One record per line (compact JSON), in name order: line N is record id N. */
  records: 'records.ndjson',
  /** Each record line's length and a hash per block of the records (`records-index.ts`; since version 3). */
  recordsIndex: 'records-index.bin',
  /** The names in record-id order, a string table (`tables.ts`; since version 3): all `get` needs besides the records. */
  names: 'names.bin',
  /** Per-record numeric columns the filters need (trust_score), binary (`binary.ts`; since version 3). */
  columns: 'columns.bin',
  /** The statistics record, precomputed. */
  stats: 'stats.json',
  /** For each sort field, record ids in ascending and in descending order (ties by name ascending); binary. */
  sortIndexes: 'sort-indexes.bin',
  /** For the flags, target and namespace filters: lower-cased value → ascending record ids; binary. */
  postings: 'postings.bin',
  /** The name index: terms, their record ids and static scores, and the exact-id table; binary (`word-index-writer.ts`). */
  search: 'search.bin',
  /** The description index: the same layout over the words of each record's description (since version 4). */
  descriptions: 'descriptions.bin',
  /** Packages and remote URLs → record ids, for reverse lookup (since version 2), as JSON lines. */
  lookup: 'lookup.jsonl',
} as const;
export type ArtifactRole = keyof typeof ARTIFACT_FILES;

export const MANIFEST_FILE = 'manifest.json';

/** Written when a snapshot was built against the one it replaces: what changed (servers, scores, flags). */
export const CHANGES_FILE = 'changes.json';

/**
 * The advisories the snapshot was scored with (`src/model/advisories.ts`), when the build had any: a check
 * judges a package no record holds by them (known malware fails whether or not a server is scored).
 */
export const ADVISORIES_FILE = 'advisories.json';

/**
 * The tools each remote server listed when probed (`src/model/tools.ts`), for the servers of the snapshot that
 * have them (since version 8; `src/format/tools-artifact.ts`): Get Server's tools route answers from it.
 */
export const TOOLS_FILE = 'tools.json';

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

export const ManifestSchema = z.strictObject({
  artifact_version: z.number().int(),
  /** Hash of the artifacts' content: the same dataset always gives the same id. */
  snapshot_id: z.string().regex(/^[0-9a-f]{16,64}$/),
  generated_at: z.iso.datetime(),
  /**
   * The newest `scored_at` of the records (since version 5; absent when there are none): how old the data
   * is, which health reports without reading a record.
   */
  newest_scored_at: z.iso.datetime().optional(),
  record_count: z.number().int().min(0),
  /** Hash of the input files (paths and bytes): `npm start` rebuilds when the dataset changed. */
  input_hash: Sha256,
  files: z.record(z.string(), z.strictObject({ sha256: Sha256, bytes: z.number().int().min(0) })),
});
export type Manifest = z.infer<typeof ManifestSchema>;
