/**
 * Where the checker and the MCP server keep the snapshots `update` installs, and which snapshot they use.
 * The cache folder (`MCP_TRUST_SCORE_CACHE`, else the platform's cache folder) holds `snapshots/<id>/`, each a
 * verified bundle as downloaded (its signed index and signature beside the files), and `current.json` naming
 * the one in use and the one before it. A new snapshot is written aside, renamed into `snapshots/`, then
 * `current.json` is replaced by a rename: a reader sees the old snapshot or the new one, never half of one.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as z from 'zod';
import { MANIFEST_FILE, ManifestSchema } from '../format/manifest.js';
import {
  BUNDLE_INDEX_FILE,
  BUNDLE_SIGNATURE_FILE,
  type BundleIndex,
  type TrustedKeys,
} from '../format/snapshot-bundle.js';
import { BundleError, checkBundleFile, verifyIndex } from './verify-bundle.js';

type Env = Readonly<Record<string, string | undefined>>;

export const CACHE_ENV = 'MCP_TRUST_SCORE_CACHE';

/** The cache folder: `MCP_TRUST_SCORE_CACHE`, else `mcp-trust-score` in the platform's cache folder. */
export function cacheRoot(env: Env = process.env, platform = process.platform, home = os.homedir()): string {
  const given = env[CACHE_ENV];
  if (given !== undefined && given !== '') return path.resolve(given);
  if (platform === 'win32')
    return path.join(env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'), 'mcp-trust-score');
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches', 'mcp-trust-score');
  const xdg = env.XDG_CACHE_HOME;
  return path.join(xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(home, '.cache'), 'mcp-trust-score');
}

const CURRENT_FILE = 'current.json';
const SnapshotId = z.string().regex(/^[0-9a-f]{16,64}$/);
const CurrentSchema = z.strictObject({ current: SnapshotId, previous: SnapshotId.nullable() });

/** A snapshot one can open: its folder, its id and how old its scores are. */
export interface HeldSnapshot {
  dir: string;
  snapshotId: string;
  scoredAt: string;
  generatedAt: string;
  held: 'cached' | 'packed';
}

/** Which of two snapshots is newer: by the age of their scores, then by when they were built. */
export const isNewer = (
  a: Pick<HeldSnapshot, 'scoredAt' | 'generatedAt'>,
  b: Pick<HeldSnapshot, 'scoredAt' | 'generatedAt'>,
) =>
  Date.parse(a.scoredAt) > Date.parse(b.scoredAt) ||
  (Date.parse(a.scoredAt) === Date.parse(b.scoredAt) && Date.parse(a.generatedAt) > Date.parse(b.generatedAt));

/** The snapshot packed in the package, from its manifest; undefined when that cannot be read (the loader then says why). */
export function packedSnapshot(dir: string): HeldSnapshot | undefined {
  let manifest;
  try {
    manifest = ManifestSchema.parse(JSON.parse(readFileSync(path.join(dir, MANIFEST_FILE), 'utf8')));
  } catch {
    return undefined;
  }
  return {
    dir,
    snapshotId: manifest.snapshot_id,
    scoredAt: manifest.newest_scored_at ?? manifest.generated_at,
    generatedAt: manifest.generated_at,
    held: 'packed',
  };
}

/**
 * The cached snapshot in use, its signature verified again (a key retired since it was installed stops it
 * being used) and its manifest checked against the signed index; the loader then checks every file against
 * the manifest. `{ problem }` when there is one that cannot be used; undefined when there is none.
 */
export function cachedSnapshot(
  root: string,
  keys: TrustedKeys,
  nowMs = Date.now(),
): HeldSnapshot | { problem: string } | undefined {
  let current: z.infer<typeof CurrentSchema>;
  try {
    current = CurrentSchema.parse(JSON.parse(readFileSync(path.join(root, CURRENT_FILE), 'utf8')));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return { problem: `${CURRENT_FILE} in the cache cannot be read` };
  }
  const dir = path.join(root, 'snapshots', current.current);
  try {
    const index = verifyIndex(
      readFileSync(path.join(dir, BUNDLE_INDEX_FILE)),
      readFileSync(path.join(dir, BUNDLE_SIGNATURE_FILE), 'utf8'),
      keys,
      nowMs,
    );
    const manifest = index.files.find((file) => file.name === MANIFEST_FILE)!;
    checkBundleFile(manifest, readFileSync(path.join(dir, MANIFEST_FILE)));
    if (index.snapshot_id !== current.current) throw new BundleError('the cached snapshot is not the one named');
    return {
      dir,
      snapshotId: index.snapshot_id,
      scoredAt: index.scored_at,
      generatedAt: index.generated_at,
      held: 'cached',
    };
  } catch (error) {
    if (error instanceof BundleError) return { problem: `the cached snapshot ${current.current}: ${error.message}` };
    return { problem: `the cached snapshot ${current.current} cannot be read` };
  }
}

/** The newest verified snapshot held: the cached one when it is newer than the packed one. */
export function newestHeld(
  packed: HeldSnapshot,
  root: string,
  keys: TrustedKeys,
  nowMs = Date.now(),
): { snapshot: HeldSnapshot; problem?: string } {
  const cached = cachedSnapshot(root, keys, nowMs);
  if (cached === undefined) return { snapshot: packed };
  if ('problem' in cached) return { snapshot: packed, problem: cached.problem };
  return { snapshot: isNewer(cached, packed) ? cached : packed };
}

/**
 * Install a verified bundle's files (`files` holds every file the index names, checked, plus the index and its
 * signature) as the snapshot in use, keeping the one it replaces; older ones are removed.
 */
export async function installSnapshot(
  root: string,
  index: BundleIndex,
  files: ReadonlyMap<string, Buffer>,
): Promise<void> {
  const snapshots = path.join(root, 'snapshots');
  await mkdir(snapshots, { recursive: true });
  const target = path.join(snapshots, index.snapshot_id);
  const staging = path.join(root, `incoming-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await mkdir(staging);
    for (const [name, bytes] of files) await writeFile(path.join(staging, name), bytes);
    await rm(target, { recursive: true, force: true });
    await rename(staging, target);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  let previous: string | null;
  try {
    previous = CurrentSchema.parse(JSON.parse(readFileSync(path.join(root, CURRENT_FILE), 'utf8'))).current;
  } catch {
    previous = null;
  }
  if (previous === index.snapshot_id) previous = null;
  const temporary = path.join(root, `${CURRENT_FILE}.tmp-${process.pid}`);
  await writeFile(temporary, `${JSON.stringify({ current: index.snapshot_id, previous })}\n`);
  await rename(temporary, path.join(root, CURRENT_FILE));
  for (const name of await readdir(snapshots)) {
    if (name !== index.snapshot_id && name !== previous)
      await rm(path.join(snapshots, name), { recursive: true, force: true });
  }
}
