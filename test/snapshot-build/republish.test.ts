/** Guarded republishing: the difference is recorded, and an implausible change is refused. */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelForScore, type ServerRecord } from '../../src/model/schema.js';
import { buildSnapshotWithDiff, SnapshotDiffRefused } from '../../src/snapshot-build/build.js';
import { UPSTREAM_METHOD } from '../../src/scoring/methods.js';
import { CHANGES_FILE, MANIFEST_FILE } from '../../src/format/manifest.js';
import { loadObjectEngine } from '../support/engine.js';
import type { SnapshotDiff } from '../../src/history/changes.js';
import { makeRecord } from '../support/records.js';

// These nights set their scores by hand: the guards and the diff of exactly those scores are what is tested.
const UPSTREAM = UPSTREAM_METHOD;

let work: string;
const base = Array.from({ length: 40 }, (_, i) =>
  makeRecord({ name: `io.github.user${i}/server-${i}`, trust_score: 40 + (i % 20) }),
);

async function writeDataset(name: string, records: ServerRecord[]): Promise<string> {
  const file = path.join(work, `${name}.json`);
  await writeFile(file, JSON.stringify(records));
  return file;
}
const rescore = (record: ServerRecord, score: number): ServerRecord => ({
  ...record,
  trust_score: score,
  trust_label: labelForScore(score),
});

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'mts-republish-'));
  await buildSnapshotWithDiff({
    input: await writeDataset('night-1', base),
    out: path.join(work, 'live'),
    method: UPSTREAM,
  });
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('republishing against the previous snapshot', () => {
  it('records servers added and removed, score and label changes, flags raised and cleared', async () => {
    const next = base
      .slice(1)
      .map((record, i) => (i === 0 ? { ...rescore(record, 85), flags: ['NO_SOURCE'] } : record));
    next.push(makeRecord({ name: 'com.acme/new-server' }));
    const out = path.join(work, 'next');
    const { diff } = await buildSnapshotWithDiff({
      input: await writeDataset('night-2', next),
      out,
      previous: path.join(work, 'live'),
      method: UPSTREAM,
    });
    expect(diff?.counts).toMatchObject({
      previous: 40,
      current: 40,
      added: 1,
      removed: 1,
      score_changed: 1,
      label_changed: 1,
      flags_raised: 1,
      flags_cleared: 0,
    });
    expect(diff?.removed).toEqual(['io.github.user0/server-0']);
    expect(diff?.score_changes).toEqual([{ name: 'io.github.user1/server-1', from: 41, to: 85 }]);
    const written = JSON.parse(await readFile(path.join(out, CHANGES_FILE), 'utf8')) as SnapshotDiff;
    expect(written.counts).toEqual(diff?.counts);
    // changes.json is listed in the manifest and checked at load like every artifact.
    const manifest = JSON.parse(await readFile(path.join(out, MANIFEST_FILE), 'utf8'));
    expect(manifest.files[CHANGES_FILE].sha256).toMatch(/^[0-9a-f]{64}$/);
    await writeFile(path.join(out, CHANGES_FILE), '{}');
    await expect(loadObjectEngine(out)).rejects.toThrow(/changes\.json: .*\(truncated or altered\)/);
  });

  it('refuses a snapshot that lost more than 10% of the servers, and the old one still serves', async () => {
    const live = path.join(work, 'live');
    const before = await readFile(path.join(live, MANIFEST_FILE), 'utf8');
    const shrunk = base.slice(0, 35); // 12.5% gone
    const error = await buildSnapshotWithDiff({
      input: await writeDataset('shrunk', shrunk),
      out: live,
      previous: live,
      method: UPSTREAM,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SnapshotDiffRefused);
    expect((error as SnapshotDiffRefused).problems[0]).toMatch(
      /5 of 40 servers \(12\.5%\) would disappear; the limit is 10\.0%/,
    );
    expect(await readFile(path.join(live, MANIFEST_FILE), 'utf8')).toBe(before);
    expect((await loadObjectEngine(live)).get('io.github.user39/server-39')).toBeDefined();
  });

  it('accepts a loss within the limit', async () => {
    const out = path.join(work, 'small-loss');
    const { diff } = await buildSnapshotWithDiff({
      input: await writeDataset('small-loss', base.slice(0, 37)),
      out,
      previous: path.join(work, 'live'),
      method: UPSTREAM,
    });
    expect(diff?.counts.removed).toBe(3);
  });

  it('refuses when more than half of the scores changed, unless forced', async () => {
    const haywire = base.map((record, i) => (i < 30 ? rescore(record, (record.trust_score + 7) % 101) : record));
    const input = await writeDataset('haywire', haywire);
    const out = path.join(work, 'haywire');
    await expect(
      buildSnapshotWithDiff({ input, out, previous: path.join(work, 'live'), method: UPSTREAM }),
    ).rejects.toThrow(/the trust score of 30 of 40 servers \(75\.0%\) changed; the limit is 50\.0%/);
    const forced = await buildSnapshotWithDiff({
      input,
      out,
      previous: path.join(work, 'live'),
      force: true,
      method: UPSTREAM,
    });
    expect(forced.diff?.counts.score_changed).toBe(30);
    expect((await loadObjectEngine(out)).get('io.github.user0/server-0')?.trust_score).toBe(47);
  });

  it('honours other limits given on the command line and prints a summary', async () => {
    const input = await writeDataset('cli-shrunk', base.slice(0, 38));
    const run = (...args: string[]) =>
      spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          'scripts/build.ts',
          '--input',
          input,
          '--out',
          path.join(work, 'cli'),
          '--previous',
          path.join(work, 'live'),
          '--method',
          'msc-7bc729d',
          ...args,
        ],
        {
          encoding: 'utf8',
        },
      );
    const strict = run('--max-removed', '0.01');
    expect(strict.status).toBe(1);
    expect(strict.stderr).toMatch(/added 0, removed 2/);
    expect(strict.stderr).toMatch(/refused to publish, the previous snapshot is untouched/);
    const ok = run();
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/40 -> 38 servers/);
    expect(run('--max-removed', '2').status).toBe(2);
  });
});
