/**
 * The build's worker threads (src/snapshot-build/worker-module.ts). The schema checked on one while the build
 * parses (schema-check.ts): the records kept are exactly what validating on the build's thread makes,
 * whatever the input's key order; anything the worker does not pass is validated and reported on the build's
 * thread as before; nothing made from unchecked records is published, even when a bad record breaks the
 * build before the check ends. The word indexes made on another (word-indexes.ts): the same bytes.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexedPartOf, ServerRecordSchema } from '../../src/model/record-schema.js';
import { inSchemaOrder } from '../../src/model/schema-order.js';
import { generateRecords } from '../../src/bench/synthetic.js';
import { isParsedAsIs } from '../../src/snapshot-build/schema-check-worker.js';
import { buildSnapshot, buildSnapshotWithDiff } from '../../src/snapshot-build/build.js';
import { readDataset } from '../../src/snapshot-build/read-input.js';
import { compareNames } from '../../src/format/name-order.js';
import { encodeWordIndexes, makeWordIndexes } from '../../src/snapshot-build/word-indexes.js';
import { makeRecord, SIGNALS } from '../support/records.js';
import { makeTempDir } from '../support/temp.js';

/** The value with every object's keys in a new order (reversed, then rotated by `turn`), values alike. */
function shuffled(value: unknown, turn = 1): unknown {
  if (Array.isArray(value)) return value.map((item) => shuffled(item, turn));
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value).reverse();
  const start = turn % Math.max(1, keys.length);
  const order = [...keys.slice(start), ...keys.slice(0, start)];
  return Object.fromEntries(order.map((key) => [key, shuffled((value as Record<string, unknown>)[key], turn + 1)]));
}

async function committedRecords(): Promise<unknown[]> {
  return JSON.parse(await readFile(path.resolve('data/servers.json'), 'utf8')) as unknown[];
}

async function ndjsonOf(records: readonly unknown[]): Promise<string> {
  const dir = await makeTempDir('mts-schema-check-');
  await writeFile(path.join(dir, 'servers.ndjson'), records.map((record) => JSON.stringify(record)).join('\n') + '\n');
  return path.join(dir, '*.ndjson');
}

describe('inSchemaOrder', () => {
  it("gives the schema's output for every committed and generated record, whatever its key order", async () => {
    const records = [...(await committedRecords()), ...generateRecords(300, 7)];
    for (const [i, record] of records.entries()) {
      const reordered = shuffled(record, i);
      const validated = ServerRecordSchema.parse(reordered);
      expect(isParsedAsIs(inSchemaOrder(reordered, ServerRecordSchema), validated), String(i)).toBe(true);
      expect(JSON.stringify(inSchemaOrder(reordered, ServerRecordSchema))).toBe(JSON.stringify(validated));
    }
  });

  it('returns a record already in order as it is, with nothing copied', async () => {
    for (const record of (await committedRecords()).slice(0, 50)) {
      const inOrder = ServerRecordSchema.parse(record);
      expect(inSchemaOrder(inOrder, ServerRecordSchema)).toBe(inOrder);
    }
  });
});

describe('isParsedAsIs', () => {
  it('tells key order, values, and array lengths apart', () => {
    expect(isParsedAsIs({ a: 1, b: [1, { c: 'x' }] }, { a: 1, b: [1, { c: 'x' }] })).toBe(true);
    expect(isParsedAsIs({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(isParsedAsIs({ a: [1, 2] }, { a: [1, 2, 3] })).toBe(false);
    expect(isParsedAsIs({ a: { b: null } }, { a: { b: 0 } })).toBe(false);
    expect(isParsedAsIs({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(isParsedAsIs([{ a: 1 }], { 0: { a: 1 } })).toBe(false);
  });
});

describe('reading with the schema checked on a worker', () => {
  it('keeps the records parsed here, in schema order, when every record passes', async () => {
    const records = [
      makeRecord({ name: 'com.acme/a', signals: SIGNALS }),
      shuffled(makeRecord({ name: 'com.acme/b', description: 'B', packages: [] })),
    ];
    const dataset = await readDataset(await ndjsonOf(records), process.cwd(), 'always');
    expect(dataset.checkedBy).toBe('worker');
    const validated = records.map((record) => ServerRecordSchema.parse(record));
    const texts = [...dataset.texts.linesOf([0, 1])].map((chunk) => chunk.toString('utf8')).join('');
    expect(texts).toBe(validated.map((record) => `${JSON.stringify(record)}\n`).join(''));
    expect(dataset.records).toEqual(validated.map(indexedPartOf));
  });

  it('validates on the build thread, reporting as before, when a record breaks the schema or a name repeats', async () => {
    const bad = { ...makeRecord({ name: 'com.acme/b' }), trust_score: 101 };
    await expect(
      readDataset(await ndjsonOf([makeRecord({ name: 'com.acme/a' }), bad]), process.cwd(), 'always'),
    ).rejects.toThrow(/servers\.ndjson: line 2 \("com\.acme\/b"\) breaks the schema/);
    const twice = [makeRecord({ name: 'com.acme/a' }), makeRecord({ name: 'COM.acme/A' })];
    await expect(readDataset(await ndjsonOf(twice), process.cwd(), 'always')).rejects.toThrow(
      /line 2 \("COM\.acme\/A"\): duplicate name/,
    );
  });

  it('checks on this thread, with no worker to start, a dataset too small for one to pay off', async () => {
    const dataset = await readDataset(await ndjsonOf([makeRecord({ name: 'com.acme/a' })]));
    expect(dataset.checkedBy).toBe('this thread');
  });

  it('builds the same snapshot from records in any key order', async () => {
    const records = generateRecords(200, 3);
    const out = await makeTempDir('mts-schema-check-out-');
    const inOrder = await buildSnapshotWithDiff({
      input: await ndjsonOf(records),
      out: path.join(out, 'a'),
      workers: 'always',
    });
    const reordered = await buildSnapshotWithDiff({
      input: await ndjsonOf(records.map((record, i) => shuffled(record, i))),
      out: path.join(out, 'b'),
      workers: 'always',
    });
    expect(inOrder.checkedBy).toBe('worker');
    expect(reordered.checkedBy).toBe('worker');
    expect(reordered.manifest.snapshot_id).toBe(inOrder.manifest.snapshot_id);
  });

  it('publishes nothing made from records the check did not pass, whether the build got through or broke', async () => {
    const cases = [
      // Builds without trouble from the parsed records: only the check stands in the way.
      { ...makeRecord({ name: 'com.acme/b' }), trust_score: 101 },
      // Breaks the index code, likely before the worker has answered.
      { ...makeRecord({ name: 'com.acme/b' }), scores: null },
    ];
    for (const bad of cases) {
      const out = path.join(await makeTempDir('mts-schema-check-out-'), 'snapshot');
      await expect(
        buildSnapshot({ input: await ndjsonOf([makeRecord({ name: 'com.acme/a' }), bad]), out, workers: 'always' }),
      ).rejects.toThrow(/line 2 \("com\.acme\/b"\) breaks the schema/);
      await expect(readFile(path.join(out, 'manifest.json'))).rejects.toThrow(/ENOENT/);
    }
  });

  it("reports a bad record rather than a republish guard's objection the parsed records would raise", async () => {
    const work = await makeTempDir('mts-schema-check-out-');
    const names = Array.from({ length: 10 }, (_, i) => `com.acme/s${i}`);
    await buildSnapshot({
      input: await ndjsonOf(names.map((name) => makeRecord({ name }))),
      out: path.join(work, 'previous'),
    });
    // Nine of ten servers gone trips the removal guard; the one left breaks the schema.
    const input = await ndjsonOf([{ ...makeRecord({ name: names[0]! }), trust_score: 101 }]);
    await expect(
      buildSnapshotWithDiff({
        input,
        out: path.join(work, 'next'),
        previous: path.join(work, 'previous'),
        workers: 'always',
      }),
    ).rejects.toThrow(/line 1 \("com\.acme\/s0"\) breaks the schema/);
  });
});

describe('the word indexes made on a worker', () => {
  it('are the bytes this thread makes', async () => {
    const records = generateRecords(500, 11);
    const names = records.map((record) => record.name).sort(compareNames);
    const descriptions = names.map((_, i) => records[i]!.description);
    const made = await makeWordIndexes(names, descriptions, 'always');
    expect(made.madeBy).toBe('worker');
    const here = encodeWordIndexes({ names, descriptions });
    expect(made.search.equals(here.search)).toBe(true);
    expect(made.descriptions.equals(here.descriptions)).toBe(true);
    expect((await makeWordIndexes(names, descriptions)).madeBy).toBe('this thread');
  });
});
