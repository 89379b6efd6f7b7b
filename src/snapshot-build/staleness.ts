/**
 * Whether a snapshot is current for its dataset: what `npm start` asks before serving the default snapshot
 * and `npm run build` before rebuilding one (so the platform's build command keeps a checked snapshot).
 * Imported statically by both: each of them needs it on every run, and a dynamic import is a round trip to
 * the module loader at start.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fingerprintInputs, hashInputs } from './input-files.js';
import { readManifest } from '../format/verified-read.js';
import { ARTIFACT_VERSION } from '../format/manifest.js';
import { MTS2_METHOD, type MethodId } from '../scoring/methods.js';

/**
 * Where `npm start` keeps the fingerprint of the inputs it last found matching the snapshot's input hash.
 * Not an artifact: the manifest does not list it, the loader never reads it, a build replaces it.
 */
export const INPUT_FINGERPRINT_FILE = 'input-fingerprint.txt';

/**
 * True when the snapshot in `dir` should be (re)built from `inputGlob`: it is missing or unreadable, was
 * made by another artifact version, or the dataset has changed since (the manifest records its hash, which
 * says the method too: `method` is the one the caller would build with, mts-2 by default). The
 * dataset is hashed only when its files' fingerprint (sizes, times, inodes) is not the one recorded the last
 * time its hash matched: on an unchanged checkout that spares reading and hashing megabytes at every start.
 * `evidenceDir` is the folder of the evidence mts-2 reads (default the committed `data/evidence`).
 */
export async function snapshotIsStale(
  dir: string,
  inputGlob: string,
  registryFile?: string,
  method: MethodId = MTS2_METHOD,
  catalogFile?: string,
  evidenceDir = 'data/evidence',
): Promise<boolean> {
  try {
    const manifest = await readManifest(dir);
    if (manifest.artifact_version !== ARTIFACT_VERSION) return true;
    const fingerprintFile = path.join(dir, INPUT_FINGERPRINT_FILE);
    // The method is part of it: a snapshot current for one method is stale for the other.
    // So are the evidence files mts-2 reads (by their sizes and times, like the dataset's).
    const evidence =
      method === MTS2_METHOD
        ? await fingerprintInputs(path.join(evidenceDir, '*.json'), undefined).catch(() => 'none')
        : '';
    const fingerprint = `${manifest.input_hash}\n${method}\n${await fingerprintInputs(inputGlob, registryFile, process.cwd(), catalogFile)}\n${evidence}`;
    if ((await readFile(fingerprintFile, 'utf8').catch(() => undefined)) === fingerprint) return false;
    const hash = await hashInputs(
      inputGlob,
      registryFile,
      process.cwd(),
      method,
      catalogFile,
      path.resolve(evidenceDir),
    );
    if (manifest.input_hash !== hash) return true;
    // Best effort: a folder that cannot be written (a read-only deployment) only means hashing next time.
    await writeFile(fingerprintFile, fingerprint).catch(() => undefined);
    return false;
  } catch {
    return true;
  }
}
