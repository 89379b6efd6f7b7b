/**
 * Loads a snapshot folder once: reads the manifest, refuses an artifact version it does not know, checks
 * every artifact against the manifest's size and hash (a missing, truncated or altered file is refused
 * with one clear line), and hands over the artifacts, verified, for the query engine (`src/query/open.ts`).
 */
import { createHash } from 'node:crypto';
import { open, readFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { OperatorError } from '../errors/operator-error.js';
import type { RecordSummary } from './diff.js';
import { openRecordFile, RecordFileError, type RecordFile } from './record-file.js';
import { type Stats, StatsSchema } from '../model/schema.js';
import type { Postings, SearchArtifact, SortIndexes } from './artifacts.js';
import { HISTORY_FILE, type HistoryArtifact, type PreviousRecord } from './history.js';
import type { LookupArtifact } from './lookup.js';
import { parseRegistryArtifact, REGISTRY_FILE, type RegistryArtifact } from '../registry/artifact.js';
import { ARTIFACT_FILES, ARTIFACT_VERSION, MANIFEST_FILE, ManifestSchema, type ArtifactRole, type Manifest } from './manifest.js';

/** The snapshot cannot be served: the message is one line that says which file and why. */
export class SnapshotLoadError extends OperatorError {
  override name = 'SnapshotLoadError';
}

/** Milliseconds per artifact (read and verified at load, plus parsed on first use), and milestones. */
export type LoadTimings = Partial<Record<ArtifactRole | 'history' | 'manifest' | 'getReady' | 'total', number>>;

export async function readManifest(dir: string): Promise<Manifest> {
  const file = path.join(dir, MANIFEST_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new SnapshotLoadError(`${file}: cannot read the manifest (${(error as NodeJS.ErrnoException).code ?? error}); build a snapshot with \`npm run build\``);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new SnapshotLoadError(`${file}: the manifest is not valid JSON`);
  }
  const version = (raw as { artifact_version?: unknown } | null)?.artifact_version;
  if (version !== ARTIFACT_VERSION) {
    throw new SnapshotLoadError(
      `${file}: artifact version ${JSON.stringify(version)} is not one this server knows (it reads version ${ARTIFACT_VERSION}); rebuild the snapshot with this version of the code`,
    );
  }
  const parsed = ManifestSchema.safeParse(raw);
  if (!parsed.success) throw new SnapshotLoadError(`${file}: the manifest is malformed: ${z.prettifyError(parsed.error).replace(/\n/g, ' ')}`);
  return parsed.data;
}

/** Bytes read per step; the next step's read overlaps the hashing of this one. */
const READ_CHUNK = 8 * 1024 * 1024;

/**
 * Read one artifact and check it against the manifest before anything parses it. The file is read in
 * chunks with the next read in flight while the current chunk is hashed, so verifying a large records
 * file costs about as much as reading it.
 */
async function readVerified(dir: string, manifest: Manifest, role: ArtifactRole): Promise<Buffer> {
  return readVerifiedFile(dir, manifest, ARTIFACT_FILES[role]);
}

/** A file the manifest lists, read whole and checked against its size and hash. */
async function readVerifiedFile(dir: string, manifest: Manifest, name: string): Promise<Buffer> {
  const expected = manifest.files[name];
  const file = path.join(dir, name);
  if (!expected) throw new SnapshotLoadError(`${file}: not listed in the manifest`);
  const fail = (error: unknown) =>
    new SnapshotLoadError(`${file}: cannot read the artifact (${(error as NodeJS.ErrnoException).code ?? error})`);
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    throw fail(error);
  }
  try {
    const size = (await handle.stat()).size;
    if (size !== expected.bytes) {
      throw new SnapshotLoadError(`${file}: ${size} bytes where the manifest says ${expected.bytes} (truncated or altered)`);
    }
    const bytes = Buffer.allocUnsafe(size);
    const hash = createHash('sha256');
    const readAt = (position: number) =>
      position >= size ? Promise.resolve(0) : handle.read(bytes, position, Math.min(READ_CHUNK, size - position), position).then((r) => r.bytesRead);
    let position = 0;
    let pending = readAt(0);
    while (position < size) {
      const bytesRead = await pending.catch((error: unknown) => {
        throw fail(error);
      });
      if (bytesRead === 0) throw new SnapshotLoadError(`${file}: shorter than the manifest says (truncated while reading)`);
      pending = readAt(position + bytesRead);
      hash.update(bytes.subarray(position, position + bytesRead));
      position += bytesRead;
    }
    await pending.catch(() => 0);
    if (hash.digest('hex') !== expected.sha256) {
      throw new SnapshotLoadError(`${file}: content does not match the manifest's hash (altered)`);
    }
    return bytes;
  } finally {
    await handle.close();
  }
}

function parseJson(dir: string, role: ArtifactRole, bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new SnapshotLoadError(`${path.join(dir, ARTIFACT_FILES[role])}: not valid JSON`);
  }
}

/** Open the records artifact, checked against the manifest while it is indexed. */
async function openRecords(dir: string, manifest: Manifest): Promise<RecordFile> {
  const file = path.join(dir, ARTIFACT_FILES.records);
  const expected = manifest.files[ARTIFACT_FILES.records];
  if (!expected) throw new SnapshotLoadError(`${file}: not listed in the manifest`);
  try {
    return await openRecordFile(file, { ...expected, count: manifest.record_count });
  } catch (error) {
    if (error instanceof RecordFileError) throw new SnapshotLoadError(`${file}: ${error.message}`);
    throw new SnapshotLoadError(`${file}: cannot read the artifact (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
}

/** The name, score, label and flags of every record of a snapshot (checked like any load), for diffs. */
export async function readRecordSummaries(dir: string): Promise<{ snapshot_id: string; generated_at: string; records: RecordSummary[] }> {
  const root = path.resolve(dir);
  const manifest = await readManifest(root);
  const bytes = await readVerified(root, manifest, 'records');
  const records: RecordSummary[] = [];
  let start = 0;
  for (let end = bytes.indexOf(0x0a); end >= 0; start = end + 1, end = bytes.indexOf(0x0a, start)) {
    const { name, trust_score, trust_label, flags, scores, scored_at } = JSON.parse(
      bytes.toString('utf8', start, end),
    ) as RecordSummary & PreviousRecord;
    records.push({ name, trust_score, trust_label, flags, scores, scored_at } as RecordSummary);
  }
  return { snapshot_id: manifest.snapshot_id, generated_at: manifest.generated_at, records };
}

/** Check the manifest's files that serving does not read (such as changes.json), so none is left unchecked. */
async function verifyOthers(dir: string, manifest: Manifest): Promise<void> {
  const read = new Set<string>([...Object.values(ARTIFACT_FILES), HISTORY_FILE, REGISTRY_FILE]);
  for (const [name, expected] of Object.entries(manifest.files)) {
    if (read.has(name)) continue;
    const file = path.join(dir, name);
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch (error) {
      throw new SnapshotLoadError(`${file}: cannot read the artifact (${(error as NodeJS.ErrnoException).code ?? error})`);
    }
    if (bytes.length !== expected.bytes || createHash('sha256').update(bytes).digest('hex') !== expected.sha256) {
      throw new SnapshotLoadError(`${file}: does not match the manifest (truncated or altered)`);
    }
  }
}

/** What the loader hands over: the manifest, the records' bytes and the parsed artifacts. */
export interface LoadedArtifacts {
  manifest: Manifest;
  records: RecordFile;
  names: string[];
  stats: Stats;
  /** Parsers of artifacts whose bytes were already checked against the manifest; called on first use. */
  columns: () => { trust_score: number[] };
  sortIndexes: () => SortIndexes;
  postings: () => Postings;
  search: () => SearchArtifact;
  lookup: () => LookupArtifact;
  /** The score history, when the snapshot has one (parsed on first use). */
  history: () => HistoryArtifact | undefined;
  /** The registry entries of the scored servers, when the snapshot has them (parsed on first use). */
  registry: () => RegistryArtifact | undefined;
}

/**
 * Read and verify the snapshot in `dir`. Throws SnapshotLoadError when it cannot be served. The caller owns
 * the records' file from then on (`records.close()`).
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
  // What `get` needs, read side by side: the records (indexed and verified as they stream) and the names.
  const [records, names] = await Promise.all([
    timed('records', () => openRecords(root, manifest)),
    verified('names').then((bytes) => parseJson(root, 'names', bytes) as string[]),
  ]);
  timings.getReady = performance.now() - started;
  // Every other artifact is read and checked now, so nothing unverified is ever served, but parsed only
  // when first needed. They are the build's own output, checked by hash, so their shapes are trusted
  // (validating millions of integers with zod would cost seconds for nothing).
  let artifacts: LoadedArtifacts;
  try {
    // One after another: each is small beside the records, and the timings stay per artifact.
    const columns = await verified('columns');
    const stats = await verified('stats');
    const sortIndexes = await verified('sortIndexes');
    const postings = await verified('postings');
    const search = await verified('search');
    const lookup = await verified('lookup');
    const historyBytes = manifest.files[HISTORY_FILE] ? await readVerifiedFile(root, manifest, HISTORY_FILE) : undefined;
    const registryBytes = manifest.files[REGISTRY_FILE] ? await readVerifiedFile(root, manifest, REGISTRY_FILE) : undefined;
    // Each parser lets go of its bytes once it has parsed them: a million-server snapshot would
    // otherwise hold a quarter of a gigabyte of JSON text it no longer needs.
    const parse = <T>(role: ArtifactRole, bytes: Buffer) => {
      let held: Buffer | undefined = bytes;
      return () => {
        if (held === undefined) throw new Error(`${ARTIFACT_FILES[role]} was parsed already`);
        const value = parseJson(root, role, held) as T;
        held = undefined;
        return value;
      };
    };
    artifacts = {
      manifest,
      records,
      names,
      stats: StatsSchema.parse(parseJson(root, 'stats', stats)),
      columns: parse('columns', columns),
      sortIndexes: parse('sortIndexes', sortIndexes),
      postings: parse('postings', postings),
      search: parse('search', search),
      lookup: parse('lookup', lookup),
      history: () => (historyBytes === undefined ? undefined : (JSON.parse(historyBytes.toString('utf8')) as HistoryArtifact)),
      registry: () => (registryBytes === undefined ? undefined : parseRegistryArtifact(registryBytes.toString('utf8'))),
    };
  } catch (error) {
    records.close();
    throw error;
  }
  try {
    await verifyOthers(root, manifest);
    timings.total = performance.now() - started;
    return artifacts;
  } catch (error) {
    records.close();
    throw error;
  }
}

/** The history of the snapshot in `dir`, checked against its manifest; undefined when it has none. */
export async function readHistory(dir: string): Promise<HistoryArtifact | undefined> {
  const root = path.resolve(dir);
  const manifest = await readManifest(root);
  if (!manifest.files[HISTORY_FILE]) return undefined;
  return JSON.parse((await readVerifiedFile(root, manifest, HISTORY_FILE)).toString('utf8')) as HistoryArtifact;
}
