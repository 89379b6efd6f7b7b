/** The records artifact gives the same records kept in memory and read on demand, and refuses a bad file either way. */
import { readFile, writeFile, mkdtemp, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateRecords } from '../../src/bench/synthetic.js';
import { ARTIFACT_FILES, MANIFEST_FILE, type Manifest } from '../../src/snapshot/manifest.js';
import { openRecordFile, RecordFileError } from '../../src/snapshot/record-file.js';
import { buildTestSnapshot } from '../support/records.js';

let file: string;
let expected: { bytes: number; sha256: string; count: number };
let lines: string[];

beforeAll(async () => {
  const dir = await buildTestSnapshot(generateRecords(3000, 5));
  file = path.join(dir, ARTIFACT_FILES.records);
  const manifest = JSON.parse(await readFile(path.join(dir, MANIFEST_FILE), 'utf8')) as Manifest;
  expected = { ...manifest.files[ARTIFACT_FILES.records]!, count: manifest.record_count };
  lines = (await readFile(file, 'utf8')).split('\n').slice(0, -1);
});

const modes = [
  ['kept in memory', {}],
  // A limit of 0 bytes forces reading on demand; the 8 MB read chunks then hold many records each.
  ['read on demand', { inMemoryMaxBytes: 0 }],
] as const;

describe.each(modes)('a records file %s', (_, options) => {
  it('gives every record exactly as its line', async () => {
    const records = await openRecordFile(file, expected, options);
    for (let id = 0; id < lines.length; id++) expect(records.json(id)).toBe(lines[id]);
    records.close();
  });

  it('refuses an altered file, a truncated one and a wrong record count', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mts-records-'));
    const altered = path.join(dir, 'altered.ndjson');
    const original = await readFile(file);
    const changed = Buffer.from(original);
    changed[10] = changed[10] === 0x61 ? 0x62 : 0x61;
    await writeFile(altered, changed);
    await expect(openRecordFile(altered, expected, options)).rejects.toThrow(/does not match the manifest's hash/);
    const truncated = path.join(dir, 'truncated.ndjson');
    await writeFile(truncated, original.subarray(0, original.length - 5));
    await expect(openRecordFile(truncated, expected, options)).rejects.toThrow(/bytes where the manifest says/);
    const copy = path.join(dir, 'copy.ndjson');
    await copyFile(file, copy);
    await expect(openRecordFile(copy, { ...expected, count: expected.count + 1 }, options)).rejects.toBeInstanceOf(RecordFileError);
    await expect(openRecordFile(copy, { ...expected, count: expected.count - 1 }, options)).rejects.toThrow(/more lines than/);
  });
});
