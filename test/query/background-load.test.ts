/**
 * Issue 16: a snapshot opens as soon as Get Server can answer, the rest loads in slices while requests are
 * served, a request waits only for the part it needs and gets the same answer as from a fully loaded
 * snapshot, and a part whose bytes fail their check is refused before anything of it is served.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateRecords } from '../../src/bench/synthetic.js';
import { loadSnapshot, openSnapshot } from '../../src/query/open.js';
import { PartNotReadyError } from '../../src/query/parts.js';
import type { QueryEngine } from '../../src/query/types.js';
import { ARTIFACT_FILES } from '../../src/format/manifest.js';
import { HISTORY_FILE } from '../../src/history/history.js';
import { writeSnapshot } from '../../src/snapshot-build/build.js';
import { cp } from 'node:fs/promises';
import { makeTempDir } from '../support/temp.js';

const RECORDS = generateRecords(6_000, 7);
let dir: string;
let full: QueryEngine;

/** A fresh copy of the snapshot, so a test may damage it. */
async function copyOfSnapshot(): Promise<string> {
  const copy = await makeTempDir('mts-parts-');
  await cp(dir, copy, { recursive: true });
  return copy;
}

/** Overwrite `file` with bytes of the same length that differ (so only the hash can tell). */
async function alter(file: string): Promise<void> {
  const bytes = await readFile(file);
  bytes[Math.floor(bytes.length / 2)]! ^= 0x01;
  await writeFile(file, bytes);
}

const LIST = { limit: 20, offset: 40, sort: 'popularity', order: 'desc', flags: 'no_license' } as const;
const firstName = () => RECORDS[1234]!.name;

beforeAll(async () => {
  dir = await makeTempDir('mts-parts-src-');
  await writeSnapshot(RECORDS, dir);
  full = await loadSnapshot(dir);
}, 60_000);

describe('loading a snapshot in parts', () => {
  it('answers Get Server at once and each other route once its part is ready', async () => {
    const engine = await openSnapshot(dir, {}, { sliceMs: 0 });
    try {
      expect(engine.getJson(firstName().toUpperCase())).toBe(full.getJson(firstName()));
      expect(engine.statsJson()).toBe(full.statsJson());
      expect(() => engine.listJson(LIST)).toThrow(PartNotReadyError);
      expect(() => engine.searchJson('github', 10)).toThrow(PartNotReadyError);
      expect(engine.loaded()).toBe(false);
      await engine.ready('lists');
      expect(engine.listJson(LIST)).toEqual(full.listJson(LIST));
      // Search needs the lists too (ties by score), which are ready: it waits for its own index only.
      await engine.ready('search');
      expect(engine.searchJson('github mcp', 50)).toEqual(full.searchJson('github mcp', 50));
    } finally {
      engine.close();
    }
  });

  it('keeps answering while the rest loads in the background, and a request waits only for its part', async () => {
    const engine = await openSnapshot(dir, {}, { sliceMs: 0 });
    try {
      let loadedAll = false;
      const loading = engine.loadAll().then(() => (loadedAll = true));
      // Get Server answers between the slices: the loader gives the event loop turns.
      let turnsWhileLoading = 0;
      while (!loadedAll) {
        expect(engine.getJson(firstName())).toBe(full.getJson(firstName()));
        turnsWhileLoading++;
        await nextTurn();
      }
      await loading;
      expect(turnsWhileLoading).toBeGreaterThan(10);
      expect(engine.loaded()).toBe(true);
      // Get Server's name index is made by now: every name is found through it, in any letter case, and a
      // name the snapshot does not hold is not.
      RECORDS.forEach((record, i) => {
        const id = engine.getId(i % 2 === 0 ? record.name.toUpperCase() : record.name);
        expect(id === undefined ? undefined : (JSON.parse(engine.recordJson(id)) as { name: string }).name).toBe(
          record.name,
        );
      });
      expect(engine.getId('io.github.nobody/nothing-here')).toBeUndefined();
      // The history was checked in the background and is decoded when first asked for.
      expect(() => engine.historyJson(firstName())).toThrow(PartNotReadyError);
      await engine.ready('history');
      expect(engine.historyJson(firstName())).toBe(full.historyJson(firstName()));
    } finally {
      engine.close();
    }
  });

  it('gives a request that arrives while another part loads the right answer', async () => {
    const engine = await openSnapshot(dir, {}, { sliceMs: 0 });
    try {
      const background = engine.loadAll();
      // History is loaded last in the background; asked for now, it loads beside the others.
      await engine.ready('history');
      expect(engine.historyJson(firstName())).toBe(full.historyJson(firstName()));
      expect(engine.changesJson(full.snapshot.id, 10, 0)).toEqual(full.changesJson(full.snapshot.id, 10, 0));
      await engine.ready('lookup');
      expect(engine.lookupJson({ kind: 'package', key: 'npm:none' })).toEqual(
        full.lookupJson({ kind: 'package', key: 'npm:none' }),
      );
      await background;
    } finally {
      engine.close();
    }
  });
});

describe('a damaged part', () => {
  it.each([
    ['sortIndexes', 'lists'],
    ['postings', 'lists'],
    ['columns', 'lists'],
    ['search', 'search'],
    ['descriptions', 'descriptions'],
    ['lookup', 'lookup'],
  ] as const)('refuses %s before any of it is served (%s)', async (role, part) => {
    const copy = await copyOfSnapshot();
    const engine = await openSnapshot(copy, {}, { sliceMs: 0 });
    try {
      await alter(path.join(copy, ARTIFACT_FILES[role]));
      const file = ARTIFACT_FILES[role].replace('.', '\\.');
      await expect(engine.ready(part)).rejects.toThrow(
        new RegExp(`${file}: content does not match the manifest's hash`),
      );
      // Refused for good: asked again, the same error; and nothing of the part answers.
      await expect(engine.ready(part)).rejects.toThrow(new RegExp(file));
      await expect(engine.loadAll()).rejects.toThrow(new RegExp(file));
      if (part === 'lists') expect(() => engine.listJson(LIST)).toThrow(PartNotReadyError);
      if (part === 'search') expect(() => engine.searchJson('github', 5)).toThrow(PartNotReadyError);
      // What was checked before the damage still answers.
      expect(engine.getJson(firstName())).toBe(full.getJson(firstName()));
    } finally {
      engine.close();
    }
  });

  it('refuses a truncated history and a file serving never reads', async () => {
    const copy = await copyOfSnapshot();
    const engine = await openSnapshot(copy, {}, { sliceMs: 0 });
    try {
      const history = path.join(copy, HISTORY_FILE);
      await writeFile(history, (await readFile(history)).subarray(0, 100));
      await expect(engine.ready('history')).rejects.toThrow(
        /history\.jsonl: 100 bytes where the manifest says \d+ \(truncated or altered\)/,
      );
    } finally {
      engine.close();
    }
    const second = await copyOfSnapshot();
    await writeFile(
      path.join(second, 'manifest.json'),
      (await readFile(path.join(second, 'manifest.json'), 'utf8')).replace(
        '"files": {',
        '"files": {\n    "extra.json": { "sha256": "' + '0'.repeat(64) + '", "bytes": 2 },',
      ),
    );
    await writeFile(path.join(second, 'extra.json'), '{}');
    await expect(loadSnapshot(second)).rejects.toThrow(/extra\.json: content does not match the manifest's hash/);
  });
});
