/** Where things live by default, relative to the repository root (the process's working directory). */
import { access, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_REGISTRY_DATA } from '../registry/files.js';

/** The snapshot `npm start` serves and `npm run build` writes when given no arguments (gitignored). */
export const DEFAULT_SNAPSHOT_DIR = path.resolve('snapshot');

/** The committed dataset. */
export const DEFAULT_INPUT_GLOB = 'data/*.json';

/**
 * Where `npm start` keeps the fingerprint of the inputs it last found matching the snapshot's input hash.
 * Not an artifact: the manifest does not list it, the loader never reads it, a build replaces it.
 */
export const INPUT_FINGERPRINT_FILE = 'input-fingerprint.txt';

/**
 * True when the snapshot in `dir` should be (re)built from `inputGlob`: it is missing or unreadable, was
 * made by another artifact version, or the dataset has changed since (the manifest records its hash). The
 * dataset is hashed only when its files' fingerprint (sizes, times, inodes) is not the one recorded the last
 * time its hash matched: on an unchanged checkout that spares reading and hashing megabytes at every start.
 */
export async function snapshotIsStale(dir: string, inputGlob: string, registryFile?: string): Promise<boolean> {
  const { readManifest } = await import('./load.js');
  const { fingerprintInputs, hashInputs } = await import('./input-files.js');
  try {
    const manifest = await readManifest(dir);
    const { ARTIFACT_VERSION } = await import('./manifest.js');
    if (manifest.artifact_version !== ARTIFACT_VERSION) return true;
    const fingerprintFile = path.join(dir, INPUT_FINGERPRINT_FILE);
    const fingerprint = `${manifest.input_hash}\n${await fingerprintInputs(inputGlob, registryFile)}`;
    if ((await readFile(fingerprintFile, 'utf8').catch(() => undefined)) === fingerprint) return false;
    if (manifest.input_hash !== (await hashInputs(inputGlob, registryFile))) return true;
    // Best effort: a folder that cannot be written (a read-only deployment) only means hashing next time.
    await writeFile(fingerprintFile, fingerprint).catch(() => undefined);
    return false;
  } catch {
    return true;
  }
}

/** The committed registry data when the checkout has it (`data/registry/servers.json`), else undefined. */
export async function defaultRegistryData(): Promise<string | undefined> {
  try {
    await access(path.resolve(DEFAULT_REGISTRY_DATA));
    return DEFAULT_REGISTRY_DATA;
  } catch {
    return undefined;
  }
}
