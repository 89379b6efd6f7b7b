/**
 * Two nights in a row (issue 29): `npm run republish` run twice as a process, with every step real but the
 * platform upload. Each night's dataset is written where the build reads it (`--skip-rescore`); the deploy
 * is `npm start`'s server on the new snapshot, on a free port, and its `/v1/health` must name that snapshot;
 * the snapshot is kept on a branch of a local bare git repository, as the real run keeps it on GitHub.
 * The second snapshot must carry the first's history and a `changes.json` with exactly the changes made.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerRecord } from '../../src/model/schema.js';
import { readHistory } from '../../src/query/previous-snapshot.js';
import { CHANGES_FILE, MANIFEST_FILE } from '../../src/format/manifest.js';
import { makeRecord } from '../support/records.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BRANCH = 'published-snapshot';
const RUN_BOUND_MS = 120_000;

let root: string;
let bare: string;

/** Run `npm run republish` (as its script) with `args`; resolves with its exit code and output. */
function republish(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join('scripts', 'republish.ts'), ...args], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_BOUND_MS);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}

const localArgs = () => [
  '--deploy',
  'local',
  '--keep',
  `git:${bare}#${BRANCH}`,
  '--skip-rescore',
  '--skip-tests',
  '--data',
  path.join(root, 'data'),
  '--snapshot',
  path.join(root, 'snapshot'),
  '--work',
  path.join(root, 'work'),
];

/** Write a night's dataset where the build reads it. */
async function writeNight(records: ServerRecord[]): Promise<void> {
  await mkdir(path.join(root, 'data', 'registry'), { recursive: true });
  await writeFile(path.join(root, 'data', 'servers.json'), JSON.stringify(records));
  await writeFile(path.join(root, 'data', 'registry', 'servers.json'), '[]');
}

/** The kept branch's snapshot, checked out into a fresh folder, and how many commits the branch has. */
async function keptSnapshot(): Promise<{ dir: string; commits: number }> {
  const dir = await mkdtemp(path.join(root, 'kept-'));
  execFileSync('git', ['clone', '--quiet', '--branch', BRANCH, bare, dir]);
  const commits = Number(execFileSync('git', ['-C', dir, 'rev-list', '--count', 'HEAD'], { encoding: 'utf8' }).trim());
  return { dir, commits };
}

async function manifestOf(dir: string): Promise<{ snapshot_id: string; files: Record<string, unknown> }> {
  return JSON.parse(await readFile(path.join(dir, MANIFEST_FILE), 'utf8')) as {
    snapshot_id: string;
    files: Record<string, unknown>;
  };
}

const NIGHT_1 = '2026-11-25T02:00:00.000Z';
const NIGHT_2 = '2026-11-26T02:00:00.000Z';

/** Twelve servers: enough that one removed stays within the build's 10% guard. */
function firstNight(): ServerRecord[] {
  const records = Array.from({ length: 10 }, (_, i) =>
    makeRecord({ name: `org.example/steady-${String(i).padStart(2, '0')}`, trust_score: 30 + i, scored_at: NIGHT_1 }),
  );
  records.push(makeRecord({ name: 'org.example/climber', trust_score: 60, scored_at: NIGHT_1 }));
  records.push(makeRecord({ name: 'org.example/gone', trust_score: 45, flags: ['DEAD_ENTRY'], scored_at: NIGHT_1 }));
  records[0] = makeRecord({ ...records[0]!, flags: ['DEAD_ENTRY'] });
  return records;
}

/** The second night: one server gone, one new, two scores moved (one across a band), one flag raised, one cleared. */
function secondNight(): ServerRecord[] {
  const records = firstNight()
    .filter((record) => record.name !== 'org.example/gone')
    .map((record) => ({ ...record, scored_at: NIGHT_2 }));
  const at = (name: string) => records.findIndex((record) => record.name === name);
  records[at('org.example/climber')] = makeRecord({ name: 'org.example/climber', trust_score: 82, scored_at: NIGHT_2 });
  records[at('org.example/steady-03')] = makeRecord({
    name: 'org.example/steady-03',
    trust_score: 35,
    scored_at: NIGHT_2,
  });
  records[at('org.example/steady-05')] = makeRecord({
    name: 'org.example/steady-05',
    trust_score: 35,
    flags: ['NO_SOURCE'],
    scored_at: NIGHT_2,
  });
  records[at('org.example/steady-00')] = makeRecord({
    name: 'org.example/steady-00',
    trust_score: 30,
    scored_at: NIGHT_2,
  });
  records.push(makeRecord({ name: 'org.example/newcomer', trust_score: 70, scored_at: NIGHT_2 }));
  return records;
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'mts-republish-'));
  bare = path.join(root, 'kept.git');
  execFileSync('git', ['init', '--quiet', '--bare', bare]);
});

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe('npm run republish, two nights in a row', { timeout: 4 * RUN_BOUND_MS }, () => {
  let firstId = '';

  it('refuses a night with nothing kept unless told it is the first, with one line and nothing kept', async () => {
    await writeNight(firstNight());
    const run = await republish(localArgs());
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^republish: fetch-previous failed, nothing was published: no published snapshot is kept in branch published-snapshot of .* \(--first publishes the first one\)$/,
      ),
    ]);
    expect(execFileSync('git', ['--git-dir', bare, 'branch', '--list'], { encoding: 'utf8' })).toBe('');
  });

  it('publishes the first night: served by the started server, then kept on the branch', async () => {
    const run = await republish([...localArgs(), '--first']);
    expect(run.code, run.stderr).toBe(0);
    const published = /published snapshot ([0-9a-f]{20}) \(after none\) at (http:\/\/127\.0\.0\.1:\d+)/.exec(
      run.stdout,
    );
    expect(published).not.toBeNull();
    firstId = published![1]!;
    expect(run.stdout).toContain(`health check: ${published![2]} serves snapshot ${firstId}`);
    // The platform build ran the same build command and kept the checked snapshot as it was.
    expect(run.stdout).toMatch(/is current for .* kept as it is/);
    const kept = await keptSnapshot();
    expect((await manifestOf(kept.dir)).snapshot_id).toBe(firstId);
    expect(kept.commits).toBe(1);
  });

  it('publishes the second night against the first: its history goes on, and changes.json holds exactly the changes', async () => {
    await writeNight(secondNight());
    const run = await republish(localArgs());
    expect(run.code, run.stderr).toBe(0);
    const secondId = /published snapshot ([0-9a-f]{20}) \(after ([0-9a-f]{20})\)/.exec(run.stdout);
    expect(secondId?.[2]).toBe(firstId);
    expect(secondId?.[1]).not.toBe(firstId);

    const kept = await keptSnapshot();
    const manifest = await manifestOf(kept.dir);
    expect(manifest.snapshot_id).toBe(secondId?.[1]);
    expect(manifest.files[CHANGES_FILE]).toBeDefined();
    // One commit: each night replaces the branch, so the repository does not grow with every snapshot.
    expect(kept.commits).toBe(1);

    const changes = JSON.parse(await readFile(path.join(kept.dir, CHANGES_FILE), 'utf8')) as Record<string, unknown>;
    expect(changes).toEqual({
      previous: { snapshot_id: firstId, generated_at: expect.any(String), record_count: 12 },
      counts: {
        previous: 12,
        current: 12,
        added: 1,
        removed: 1,
        score_changed: 2,
        label_changed: 1,
        flags_raised: 1,
        flags_cleared: 1,
      },
      added: ['org.example/newcomer'],
      removed: ['org.example/gone'],
      score_changes: [
        { name: 'org.example/steady-03', from: 33, to: 35 },
        { name: 'org.example/climber', from: 60, to: 82 },
      ],
      label_changes: [{ name: 'org.example/climber', from: 'Moderate Trust', to: 'High Trust' }],
      flags_raised: [{ name: 'org.example/steady-05', flags: ['NO_SOURCE'] }],
      flags_cleared: [{ name: 'org.example/steady-00', flags: ['DEAD_ENTRY'] }],
    });

    const history = await readHistory(kept.dir);
    expect(history?.snapshots.map((snapshot) => snapshot.snapshot_id)).toEqual([secondId?.[1], firstId]);
  });

  it('ends a night whose dataset is the published one without deploying or keeping anything', async () => {
    const before = execFileSync('git', ['--git-dir', bare, 'rev-parse', BRANCH], { encoding: 'utf8' });
    const run = await republish(localArgs());
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/snapshot [0-9a-f]{20} is already the published one; nothing published/);
    expect(run.stdout).not.toContain('deploy:');
    expect(execFileSync('git', ['--git-dir', bare, 'rev-parse', BRANCH], { encoding: 'utf8' })).toBe(before);
  });

  it('refuses a night the build guard objects to: one line, exit 1, the kept snapshot untouched', async () => {
    const before = execFileSync('git', ['--git-dir', bare, 'rev-parse', BRANCH], { encoding: 'utf8' });
    await writeNight(secondNight().slice(0, 6));
    const run = await republish(localArgs());
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n').at(-1)).toBe(
      'republish: build failed, nothing was published: npm run build exited with 1: build: refused to publish, the previous ' +
        'snapshot is untouched: 6 of 12 servers (50.0%) would disappear; the limit is 10.0% (--force publishes anyway)',
    );
    expect(run.stdout).not.toContain('deploy:');
    expect(execFileSync('git', ['--git-dir', bare, 'rev-parse', BRANCH], { encoding: 'utf8' })).toBe(before);
  });
});
