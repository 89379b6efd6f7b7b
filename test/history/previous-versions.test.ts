/**
 * `--previous` reads the history of a snapshot built by an earlier artifact version, so the first republish
 * after an upgrade keeps it: version 2 (`history.json`, one JSON document) and version 3 (`history.jsonl`,
 * the layout version 4 keeps). Serving reads the current version only.
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readManifest } from '../../src/query/load.js';
import { readHistory } from '../../src/snapshot-build/previous-snapshot.js';
import { HISTORY_FILE } from '../../src/history/history.js';
import { loadSnapshot } from '../../src/query/open.js';
import { buildTestSnapshot, makeRecord } from '../support/records.js';

const RECORDS = [
  makeRecord({ name: 'com.acme/one', trust_score: 70 }),
  makeRecord({ name: 'com.acme/two', trust_score: 20 }),
];

async function setVersion(dir: string, change: (manifest: Record<string, unknown>) => void) {
  const file = path.join(dir, 'manifest.json');
  const manifest = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  change(manifest);
  await writeFile(file, JSON.stringify(manifest));
}

describe('the history of an earlier artifact version', () => {
  it('is read from a version 3 snapshot, whose history has the layout of today', async () => {
    const dir = await buildTestSnapshot(RECORDS);
    const current = await readHistory(dir);
    await setVersion(dir, (manifest) => (manifest.artifact_version = 3));
    expect(await readHistory(dir)).toEqual(current);
    expect(Object.keys(current?.servers ?? {}).sort()).toEqual(['com.acme/one', 'com.acme/two']);
    // Served, it is refused: a version 3 snapshot has no description index.
    await expect(loadSnapshot(dir)).rejects.toThrow(/artifact version 3 is not one this server knows/);
  });

  it('is read from a version 2 snapshot, whose history is one JSON document', async () => {
    const dir = await buildTestSnapshot(RECORDS);
    const current = await readHistory(dir);
    const text = JSON.stringify(current);
    await writeFile(path.join(dir, 'history.json'), text);
    const manifest = await readManifest(dir);
    await setVersion(dir, (raw) => {
      raw.artifact_version = 2;
      const files = { ...manifest.files };
      delete files[HISTORY_FILE];
      files['history.json'] = {
        sha256: createHash('sha256').update(text).digest('hex'),
        bytes: Buffer.byteLength(text),
      };
      raw.files = files;
    });
    expect(await readHistory(dir)).toEqual(current);
  });

  it('is refused from a version this code never wrote', async () => {
    const dir = await buildTestSnapshot(RECORDS);
    await setVersion(dir, (manifest) => (manifest.artifact_version = 1));
    await expect(readHistory(dir)).rejects.toThrow(/artifact version 1 is not one this server knows/);
  });
});
