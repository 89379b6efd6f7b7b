/**
 * The records artifact gives the same records kept in memory and read on demand, and refuses a bad file
 * either way: kept in memory, when it is opened; read on demand, before any record of a bad block is
 * returned, and in the background check of every block.
 */
import { readFile, writeFile, copyFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateRecords } from '../../src/bench/synthetic.js';
import { ARTIFACT_FILES, MANIFEST_FILE, type Manifest } from '../../src/format/manifest.js';
import { openRecordFile, RecordFileError } from '../../src/query/record-file.js';
import { BLOCK_BYTES, decodeRecordsIndex, type RecordsIndex } from '../../src/format/records-index.js';
import { createSlicer } from '../../src/format/slicer.js';
import { buildTestSnapshot } from '../support/records.js';
import { makeTempDir } from '../support/temp.js';

let file: string;
let expected: { bytes: number; sha256: string; count: number };
let index: RecordsIndex;
let lines: string[];

beforeAll(async () => {
  // Enough records for several blocks, so a record may span two.
  const dir = await buildTestSnapshot(generateRecords(6000, 5));
  file = path.join(dir, ARTIFACT_FILES.records);
  const manifest = JSON.parse(await readFile(path.join(dir, MANIFEST_FILE), 'utf8')) as Manifest;
  expected = { ...manifest.files[ARTIFACT_FILES.records]!, count: manifest.record_count };
  index = decodeRecordsIndex(await readFile(path.join(dir, ARTIFACT_FILES.recordsIndex)));
  lines = (await readFile(file, 'utf8')).split('\n').slice(0, -1);
  expect(expected.bytes).toBeGreaterThan(3 * BLOCK_BYTES);
});

const modes = [
  ['kept in memory', {}],
  // A limit of 0 bytes forces reading on demand, checked a block at a time; with the recent records kept
  // (the default), with none kept, and with a ring of a few records that wraps over and over.
  ['read on demand', { inMemoryMaxBytes: 0 }],
  ['read on demand, no records kept', { inMemoryMaxBytes: 0, ringBytes: 0 }],
  ['read on demand, a few records kept', { inMemoryMaxBytes: 0, ringBytes: 8 * 1024 }],
] as const;

/** A copy of the records with one byte changed at `at`. */
async function alteredCopy(at: number): Promise<string> {
  const dir = await makeTempDir('mts-records-');
  const altered = path.join(dir, 'altered.ndjson');
  const changed = Buffer.from(await readFile(file));
  changed[at] = changed[at] === 0x61 ? 0x62 : 0x61;
  await writeFile(altered, changed);
  return altered;
}

describe.each(modes)('a records file %s', (mode, options) => {
  it('gives every record exactly as its line', async () => {
    const records = await openRecordFile(file, expected, index, options);
    for (let id = 0; id < lines.length; id++) expect(records.json(id)).toBe(lines[id]);
    await records.verifyAll(createSlicer());
    records.close();
  });

  it('gives every record exactly as its line when asked in any order, again and again', async () => {
    const records = await openRecordFile(file, expected, index, options);
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % lines.length;
    // Runs of nearby records (kept, then asked again) between jumps anywhere.
    for (let i = 0; i < 20_000; i++) {
      const id = i % 50 < 40 ? (next() % 30) + (Math.floor(i / 50) % 100) : next();
      // As text, as its bytes in a binary string (one character per byte), or copied into a buffer.
      if (i % 3 === 0) expect(records.json(id)).toBe(lines[id]);
      else if (i % 3 === 1) expect(records.binary(id)).toBe(Buffer.from(lines[id]!, 'utf8').toString('latin1'));
      else {
        const bytes = Buffer.from(lines[id]!, 'utf8');
        expect(records.byteLength(id)).toBe(bytes.length);
        const target = Buffer.alloc(bytes.length + 6, 0x2e);
        expect(records.copy(id, target, 3)).toBe(bytes.length);
        // Exactly its bytes, where asked, and nothing around them touched.
        expect(target.equals(Buffer.concat([Buffer.from('...'), bytes, Buffer.from('...')]))).toBe(true);
      }
    }
    records.close();
  });

  it('refuses an altered file before any of the altered block is returned', async () => {
    const at = 2 * BLOCK_BYTES + 10;
    const altered = await alteredCopy(at);
    const records = await openRecordFile(altered, expected, index, options);
    // A record of an intact block is served; one of the altered block never is, nor after the first refusal.
    expect(records.json(0)).toBe(lines[0]);
    const inAltered = lines.findIndex((_, id) => lines.slice(0, id + 1).join('\n').length + 1 > at);
    expect(() => records.json(inAltered)).toThrow(/does not match the manifest's hash/);
    expect(() => records.json(inAltered)).toThrow(RecordFileError);
    expect(() => records.binary(inAltered)).toThrow(RecordFileError);
    expect(() => records.copy(inAltered, Buffer.alloc(records.byteLength(inAltered)), 0)).toThrow(RecordFileError);
    await expect(records.verifyAll(createSlicer())).rejects.toThrow(/does not match the manifest's hash/);
    records.close();
  });

  it('finds an altered block in the background check before any record of it is asked for', async () => {
    const records = await openRecordFile(await alteredCopy(expected.bytes - 5), expected, index, options);
    await expect(records.verifyAll(createSlicer())).rejects.toThrow(/does not match the manifest's hash/);
    expect(() => records.json(lines.length - 1)).toThrow(RecordFileError);
    records.close();
  });

  it('refuses a truncated file and a wrong record count when opened', async () => {
    const dir = await makeTempDir('mts-records-');
    const truncated = path.join(dir, 'truncated.ndjson');
    await writeFile(truncated, (await readFile(file)).subarray(0, expected.bytes - 5));
    await expect(openRecordFile(truncated, expected, index, options)).rejects.toThrow(/bytes where the manifest says/);
    const copy = path.join(dir, 'copy.ndjson');
    await copyFile(file, copy);
    await expect(openRecordFile(copy, { ...expected, count: expected.count + 1 }, index, options)).rejects.toThrow(
      /the index holds \d+ lines where the manifest says/,
    );
    await expect(
      openRecordFile(copy, { ...expected, bytes: expected.bytes + 1 }, index, options),
    ).rejects.toBeInstanceOf(RecordFileError);
  });
});
