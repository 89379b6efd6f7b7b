/**
 * The release path of docs/snapshot.md, end to end but the upload: build the new snapshot against the
 * published one (changes.json written), check it, then run the platform's build command
 * (`npm run build:platform`) as `vercel build` does. The snapshot that deploys is the one that was checked.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRecordScorer, mts2Scoring } from '../../src/snapshot-build/score-records.js';
import { labelForScore, type ServerRecord } from '../../src/model/schema.js';
import { CHANGES_FILE, MANIFEST_FILE } from '../../src/format/manifest.js';
import { REPO } from '../e2e/process.js';
import { loadObjectEngine } from '../support/engine.js';
import { makeRecord } from '../support/records.js';

const TSX = path.join(REPO, 'node_modules/.bin/tsx');
let work: string;

/** `npm run build -- <args>` in the work folder, as the pipeline and the platform run it. */
function build(args: string[] = [], script = 'scripts/build.ts') {
  const result = spawnSync(TSX, [path.join(REPO, script), ...args], { cwd: work, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const manifestOf = async (dir: string) =>
  JSON.parse(await readFile(path.join(work, dir, MANIFEST_FILE), 'utf8')) as {
    snapshot_id: string;
    files: Record<string, unknown>;
  };

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'mts-release-'));
  await mkdir(path.join(work, 'data'));
}, 30_000);
afterAll(() => rm(work, { recursive: true, force: true }));

describe('a release', () => {
  it('deploys the snapshot that was checked: the platform build keeps it, changes.json included', async () => {
    // The build scores with mts-2, from what the registry entry says: one server's transport changes.
    const night = (transports: string[]) =>
      Array.from({ length: 20 }, (_, i) =>
        makeRecord({
          name: `io.github.u${i}/s${i}`,
          trust_score: 50,
          trust_label: labelForScore(50),
          install: {
            repo_url: null,
            version: '1.0.0',
            package_types: [],
            transport_types: i === 0 ? transports : ['streamable-http'],
          },
        }),
      );
    const score = await makeRecordScorer(mts2Scoring(work));
    const tonight = (score(night(['streamable-http'])[0]) as ServerRecord).trust_score;
    expect(tonight).not.toBe((score(night([])[0]) as ServerRecord).trust_score);
    // Last night's published snapshot.
    await writeFile(path.join(work, 'data', 'servers.json'), JSON.stringify(night([])));
    expect(build(['--out', 'published']).status).toBe(0);
    // Tonight: a new dataset, built against the published snapshot into the default folder.
    await writeFile(path.join(work, 'data', 'servers.json'), JSON.stringify(night(['streamable-http'])));
    const built = build(['--previous', 'published']);
    expect(built.status, built.stderr).toBe(0);
    expect(built.stdout).toMatch(/score changed 1/);
    const checked = await manifestOf('snapshot');
    expect(checked.files[CHANGES_FILE]).toBeDefined();
    // The check: the snapshot loads, every hash verified, and answers.
    expect((await loadObjectEngine(path.join(work, 'snapshot'))).get('io.github.u0/s0')?.trust_score).toBe(tonight);

    // The platform's build command: nothing is rebuilt.
    const platform = build([], 'scripts/platform-build.ts');
    expect(platform.status, platform.stderr).toBe(0);
    expect(platform.stdout).toMatch(/deploying snapshot [0-9a-f]+ as it was built, with its changes\.json/);
    // And `npm run build` with no arguments keeps a current snapshot too.
    expect(build().stdout).toMatch(/is current for .* kept as it is, with its changes\.json/);
    const deployed = await manifestOf('snapshot');
    expect(deployed.snapshot_id).toBe(checked.snapshot_id);
    expect(deployed.files[CHANGES_FILE]).toEqual(checked.files[CHANGES_FILE]);
    expect((await loadObjectEngine(path.join(work, 'snapshot'))).snapshot.id).toBe(checked.snapshot_id);
  }, 60_000);

  it('rebuilds when the dataset changed since, and on --force', async () => {
    const records = JSON.parse(await readFile(path.join(work, 'data', 'servers.json'), 'utf8')) as unknown[];
    await writeFile(path.join(work, 'data', 'servers.json'), JSON.stringify(records.slice(1)));
    const rebuilt = build();
    expect(rebuilt.status, rebuilt.stderr).toBe(0);
    expect(rebuilt.stdout).toMatch(/^built snapshot [0-9a-f]+: 19 records/m);
    expect(build(['--force']).stdout).toMatch(/^built snapshot/m);
  }, 60_000);
});
