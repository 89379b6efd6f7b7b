/**
 * `npm start` rebuilds the default snapshot when the dataset changed since it was built. It hashes the
 * dataset only when the files' fingerprint (size, times, inode) is not the one it recorded the last time
 * the hash matched, so an unchanged checkout starts without reading it; any write is still seen.
 */
import { readFile, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSnapshot } from '../../src/snapshot-build/build.js';
import { hashInput } from '../../src/snapshot-build/input-files.js';
import { INPUT_FINGERPRINT_FILE, snapshotIsStale } from '../../src/snapshot-build/staleness.js';
import { makeRecord } from '../support/records.js';
import { makeTempDir } from '../support/temp.js';

async function dataset() {
  const root = await makeTempDir('mts-stale-');
  const file = path.join(root, 'servers.json');
  await writeFile(file, JSON.stringify([makeRecord({ name: 'com.acme/one', trust_score: 70 })]));
  const glob = path.join(root, '*.json');
  const dir = path.join(root, 'snapshot');
  await buildSnapshot({ input: glob, out: dir });
  return { file, glob, dir };
}

describe('whether the default snapshot is stale', () => {
  it('is not, for the dataset it was built from, and records the fingerprint that says so', async () => {
    const { glob, dir } = await dataset();
    expect(await snapshotIsStale(dir, glob)).toBe(false);
    const fingerprint = await readFile(path.join(dir, INPUT_FINGERPRINT_FILE), 'utf8');
    expect(fingerprint.split('\n')[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(await snapshotIsStale(dir, glob)).toBe(false);
    expect(await readFile(path.join(dir, INPUT_FINGERPRINT_FILE), 'utf8')).toBe(fingerprint);
  });

  it('is, once a file changes, even to the same size with its modification time put back', async () => {
    const { file, glob, dir } = await dataset();
    expect(await snapshotIsStale(dir, glob)).toBe(false);
    const before = await stat(file);
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('"trust_score":70', '"trust_score":71'));
    await utimes(file, before.atime, before.mtime);
    expect((await stat(file)).size).toBe(before.size);
    expect(await snapshotIsStale(dir, glob)).toBe(true);
  });

  it('is, when a file is added, and when the recorded fingerprint is not the files’', async () => {
    const { file, glob, dir } = await dataset();
    expect(await snapshotIsStale(dir, glob)).toBe(false);
    // A fingerprint that does not match is only a reason to hash again: the hash still decides.
    await writeFile(path.join(dir, INPUT_FINGERPRINT_FILE), 'something else');
    expect(await snapshotIsStale(dir, glob)).toBe(false);
    await writeFile(path.join(path.dirname(file), 'more.json'), '[]');
    expect(await snapshotIsStale(dir, glob)).toBe(true);
  });
});

describe('a snapshot made before the build scored with mts-2', () => {
  it('is stale although the dataset is the same: its hash is the dataset alone, not the method and evidence', async () => {
    const { glob, dir } = await dataset();
    const manifestFile = path.join(dir, 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as { input_hash: string };
    // What a build before mts-2 recorded: the hash of the dataset's files only.
    manifest.input_hash = await hashInput(glob);
    await writeFile(manifestFile, JSON.stringify(manifest));
    await writeFile(path.join(dir, INPUT_FINGERPRINT_FILE), 'from an older build');
    expect(await snapshotIsStale(dir, glob)).toBe(true);
  });
});
