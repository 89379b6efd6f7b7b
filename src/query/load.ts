/**
 * Loads a snapshot folder once: reads the manifest, refuses an artifact version it does not know, checks
 * every artifact against the manifest's size and hash (a missing, truncated or altered file is refused
 * with one clear line), and hands over the artifacts, verified, for the query engine (`src/query/open.ts`).
 */
import path from 'node:path';
import { openRecordFile, RecordFileError, type RecordFile } from './record-file.js';
import { decodeRecordsIndex, type RecordsIndex } from '../format/records-index.js';
import { type Stats, StatsSchema } from '../model/schema.js';
import { decodeNames } from '../format/index-layout.js';
import type { StringTable } from '../format/tables.js';
import { HISTORY_FILE } from '../history/history.js';
import { REGISTRY_FILE } from '../registry/files.js';
import { ADVISORIES_FILE, ARTIFACT_FILES, TOOLS_FILE, type ArtifactRole, type Manifest } from '../format/manifest.js';
import { readManifest, readVerified, readVerifiedFile, SnapshotLoadError } from '../format/verified-read.js';

// Read by the server, the build and the republish alike; re-exported for the loader's callers.
export { readManifest, readVerified, readVerifiedFile, SnapshotLoadError } from '../format/verified-read.js';

/** Milliseconds per artifact (read, verified and decoded), and milestones. */
export type LoadTimings = Partial<
  Record<
    ArtifactRole | 'history' | 'registry' | 'advisories' | 'tools' | 'lists' | 'manifest' | 'getReady' | 'total',
    number
  >
>;

function parseJson(dir: string, role: ArtifactRole, bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new SnapshotLoadError(`${path.join(dir, ARTIFACT_FILES[role])}: not valid JSON`);
  }
}

/** Open the records artifact through its index (read and checked first); see record-file.ts for its checks. */
async function openRecords(dir: string, manifest: Manifest): Promise<RecordFile> {
  const file = path.join(dir, ARTIFACT_FILES.records);
  const expected = manifest.files[ARTIFACT_FILES.records];
  if (!expected) throw new SnapshotLoadError(`${file}: not listed in the manifest`);
  const indexBytes = await readVerified(dir, manifest, 'recordsIndex');
  let index: RecordsIndex;
  try {
    index = decodeRecordsIndex(indexBytes);
  } catch (error) {
    throw new SnapshotLoadError(
      `${path.join(dir, ARTIFACT_FILES.recordsIndex)}: cannot be decoded (${(error as Error).message})`,
    );
  }
  const refuse = (error: unknown) =>
    error instanceof RecordFileError
      ? new SnapshotLoadError(`${file}: ${error.message}`)
      : new SnapshotLoadError(`${file}: cannot read the artifact (${(error as NodeJS.ErrnoException).code ?? error})`);
  let reader: RecordFile;
  try {
    reader = await openRecordFile(file, { ...expected, count: manifest.record_count }, index);
  } catch (error) {
    throw refuse(error);
  }
  // A block that fails its check later (read on demand) is refused with the same one-line error.
  return {
    count: reader.count,
    json(id) {
      try {
        return reader.json(id);
      } catch (error) {
        throw refuse(error);
      }
    },
    binary(id) {
      try {
        return reader.binary(id);
      } catch (error) {
        throw refuse(error);
      }
    },
    byteLength: (id) => reader.byteLength(id),
    copy(id, target, at) {
      try {
        return reader.copy(id, target, at);
      } catch (error) {
        throw refuse(error);
      }
    },
    verifyAll: (slicer) =>
      reader.verifyAll(slicer).catch((error: unknown) => {
        throw refuse(error);
      }),
    close: () => reader.close(),
  };
}

/** An artifact checked and read when first asked for (once), not before: see `readSnapshot`. */
export interface PendingArtifact {
  /** The file's path, for messages. */
  readonly file: string;
  /** Read the file and check it against the manifest's size and hash (each call reads it again); rejects with a SnapshotLoadError. */
  read(): Promise<Buffer>;
}

/** What the loader hands over: the manifest, what Get Server needs, and the rest still to be read. */
export interface LoadedArtifacts {
  manifest: Manifest;
  records: RecordFile;
  /** The names in record-id order (decoded one at a time, when asked for). */
  names: StringTable;
  stats: Stats;
  columns: PendingArtifact;
  sortIndexes: PendingArtifact;
  postings: PendingArtifact;
  search: PendingArtifact;
  descriptions: PendingArtifact;
  lookup: PendingArtifact;
  /** The score history, when the snapshot has one. */
  history: PendingArtifact | undefined;
  /** The registry entries of the scored servers, when the snapshot has them (`src/registry/artifact.ts`). */
  registry: PendingArtifact | undefined;
  /** The advisories the snapshot was scored with, when it has them (`src/model/advisories.ts`). */
  advisories: PendingArtifact | undefined;
  /** The tools pinned per server, when the snapshot has them (`src/format/tools-artifact.ts`). */
  tools: PendingArtifact | undefined;
  /** The files the manifest lists that serving never reads (changes.json), checked all the same. */
  others: PendingArtifact[];
}

/** The error for an artifact that was read and checked but cannot be decoded. */
export function undecodable(artifact: PendingArtifact, error: unknown): SnapshotLoadError {
  if (error instanceof SnapshotLoadError) return error;
  return new SnapshotLoadError(
    `${artifact.file}: cannot be decoded (${error instanceof Error ? error.message : String(error)})`,
  );
}

function pending(dir: string, manifest: Manifest, name: string): PendingArtifact {
  // Not kept: each part reads its files once and keeps what it decodes, not the bytes (a large history's
  // text is garbage once parsed).
  return { file: path.join(dir, name), read: () => readVerifiedFile(dir, manifest, name) };
}

/**
 * Read the snapshot in `dir`: the manifest (its artifact version refused when unknown), then what Get Server
 * needs, read side by side and checked against the manifest before anything parses them (the records,
 * indexed and hashed as they stream, and the names). Every other artifact is handed over pending: the query
 * engine reads, checks and decodes each when it is first needed or when it loads them in the background, so
 * nothing is served before its bytes are checked. Throws SnapshotLoadError when the snapshot cannot be
 * served. The caller owns the records' file from then on (`records.close()`).
 */
export async function readSnapshot(dir: string, timings: LoadTimings = {}): Promise<LoadedArtifacts> {
  const root = path.resolve(dir);
  const started = performance.now();
  const timed = async <T>(key: keyof LoadTimings, work: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    const value = await work();
    timings[key] = performance.now() - start;
    return value;
  };
  const manifest = await timed('manifest', () => readManifest(root));
  const verified = (role: ArtifactRole) => timed(role, () => readVerified(root, manifest, role));
  const settled = await Promise.allSettled([
    timed('records', () => openRecords(root, manifest)),
    verified('names').then((bytes) => {
      try {
        return decodeNames(bytes);
      } catch (error) {
        throw new SnapshotLoadError(
          `${path.join(root, ARTIFACT_FILES.names)}: cannot be decoded (${(error as Error).message})`,
        );
      }
    }),
    verified('stats').then((bytes) => {
      const parsed = StatsSchema.safeParse(parseJson(root, 'stats', bytes));
      if (!parsed.success)
        throw new SnapshotLoadError(`${path.join(root, ARTIFACT_FILES.stats)}: not a statistics record`);
      return parsed.data;
    }),
  ] as const);
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) {
    if (settled[0].status === 'fulfilled') settled[0].value.close();
    throw failed.reason;
  }
  const [records, names, stats] = settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as [
    RecordFile,
    StringTable,
    Stats,
  ];
  timings.getReady = performance.now() - started;
  const of = (role: ArtifactRole) => pending(root, manifest, ARTIFACT_FILES[role]);
  const known = new Set<string>([
    ...Object.values(ARTIFACT_FILES),
    HISTORY_FILE,
    REGISTRY_FILE,
    ADVISORIES_FILE,
    TOOLS_FILE,
  ]);
  return {
    manifest,
    records,
    names,
    stats,
    columns: of('columns'),
    sortIndexes: of('sortIndexes'),
    postings: of('postings'),
    search: of('search'),
    descriptions: of('descriptions'),
    lookup: of('lookup'),
    history: manifest.files[HISTORY_FILE] ? pending(root, manifest, HISTORY_FILE) : undefined,
    registry: manifest.files[REGISTRY_FILE] ? pending(root, manifest, REGISTRY_FILE) : undefined,
    advisories: manifest.files[ADVISORIES_FILE] ? pending(root, manifest, ADVISORIES_FILE) : undefined,
    tools: manifest.files[TOOLS_FILE] ? pending(root, manifest, TOOLS_FILE) : undefined,
    others: Object.keys(manifest.files)
      .filter((name) => !known.has(name))
      .map((name) => pending(root, manifest, name)),
  };
}

/** The names of the snapshot in `dir`, in record-id order (checked against the manifest): for tools and benchmarks. */
export async function readNames(dir: string): Promise<string[]> {
  const root = path.resolve(dir);
  const manifest = await readManifest(root);
  const table = decodeNames(await readVerified(root, manifest, 'names'));
  return Array.from({ length: table.length }, (_, i) => table.at(i));
}
