/**
 * The one reader of a snapshot folder's manifest and of the files it lists, for every lifetime that reads a
 * snapshot: the server's loader, the build (the snapshot it replaces, staleness), the republish and the
 * offline client. The manifest is checked against its schema and an artifact version the caller accepts;
 * every file against the manifest's size and hash before anything parses it (a missing, truncated or altered
 * file is refused with one clear line).
 */
import { createHash } from 'node:crypto';
import { open, readFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { OperatorError } from '../errors/operator-error.js';
import {
  ARTIFACT_FILES,
  ARTIFACT_VERSION,
  MANIFEST_FILE,
  ManifestSchema,
  type ArtifactRole,
  type Manifest,
} from './manifest.js';

/** The snapshot cannot be served: the message is one line that says which file and why. */
export class SnapshotLoadError extends OperatorError {
  override name = 'SnapshotLoadError';
}

export async function readManifest(dir: string, versions: readonly number[] = [ARTIFACT_VERSION]): Promise<Manifest> {
  const file = path.join(dir, MANIFEST_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new SnapshotLoadError(
      `${file}: cannot read the manifest (${(error as NodeJS.ErrnoException).code ?? error}); build a snapshot with \`npm run build\``,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new SnapshotLoadError(`${file}: the manifest is not valid JSON`);
  }
  const version = (raw as { artifact_version?: unknown } | null)?.artifact_version;
  if (typeof version !== 'number' || !versions.includes(version)) {
    throw new SnapshotLoadError(
      `${file}: artifact version ${JSON.stringify(version)} is not one this server knows (it reads version ${ARTIFACT_VERSION}); rebuild the snapshot with this version of the code`,
    );
  }
  const parsed = ManifestSchema.safeParse(raw);
  if (!parsed.success)
    throw new SnapshotLoadError(
      `${file}: the manifest is malformed: ${z.prettifyError(parsed.error).replace(/\n/g, ' ')}`,
    );
  return parsed.data;
}

/** Bytes read per step; the next step's read overlaps the hashing of this one. */
const READ_CHUNK = 8 * 1024 * 1024;

/**
 * Read one artifact and check it against the manifest before anything parses it. The file is read in
 * chunks with the next read in flight while the current chunk is hashed, so verifying a large records
 * file costs about as much as reading it.
 */
export async function readVerified(dir: string, manifest: Manifest, role: ArtifactRole): Promise<Buffer> {
  return readVerifiedFile(dir, manifest, ARTIFACT_FILES[role]);
}

/** A file the manifest lists, read whole and checked against its size and hash. */
export async function readVerifiedFile(dir: string, manifest: Manifest, name: string): Promise<Buffer> {
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
      throw new SnapshotLoadError(
        `${file}: ${size} bytes where the manifest says ${expected.bytes} (truncated or altered)`,
      );
    }
    const bytes = Buffer.allocUnsafe(size);
    const hash = createHash('sha256');
    const readAt = (position: number) =>
      position >= size
        ? Promise.resolve(0)
        : handle.read(bytes, position, Math.min(READ_CHUNK, size - position), position).then((r) => r.bytesRead);
    let position = 0;
    let pending = readAt(0);
    while (position < size) {
      const bytesRead = await pending.catch((error: unknown) => {
        throw fail(error);
      });
      if (bytesRead === 0)
        throw new SnapshotLoadError(`${file}: shorter than the manifest says (truncated while reading)`);
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

/**
 * What every artifact version's manifest says of its snapshot, read from a manifest of any version (the
 * republish compares the snapshot it kept, which an older version of the code may have built).
 */
export const ManifestFactsSchema = z.looseObject({
  snapshot_id: z.string().min(1).max(200),
  input_hash: z.string().max(200),
  record_count: z.number().int().min(0),
  files: z.record(z.string(), z.unknown()),
});
export type ManifestFacts = z.infer<typeof ManifestFactsSchema>;

/** The facts of `dir`'s manifest, whatever its artifact version; a missing or malformed one is one line. */
export async function readManifestFacts(dir: string): Promise<ManifestFacts> {
  const file = path.join(dir, MANIFEST_FILE);
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new SnapshotLoadError(
      `${file}: cannot read the manifest (${(error as NodeJS.ErrnoException).code ?? 'not JSON'})`,
    );
  }
  const parsed = ManifestFactsSchema.safeParse(raw);
  if (!parsed.success)
    throw new SnapshotLoadError(
      `${file}: the manifest is malformed: ${z.prettifyError(parsed.error).replace(/\n/g, ' ')}`,
    );
  return parsed.data;
}
