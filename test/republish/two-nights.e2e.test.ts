/**
 * Two nights in a row (issue 29): `npm run republish` run as a process, every step real but the platform
 * upload. Each night rescores (`npm run rescore`) from stand-ins of the MCP registry and of GitHub's REST API
 * on 127.0.0.1 (test/support/), whose data changes between the nights; the deploy is `npm start`'s server on
 * the new snapshot, on a free port, whose `/v1/health` must name that snapshot; the snapshot is kept on a
 * branch of a local bare git repository, as the real run keeps it on GitHub. The second snapshot must carry
 * the first's history and a `changes.json` with exactly the changes made.
 */
import { makeRecordScorer, mts2Scoring } from '../../src/snapshot-build/score-records.js';
import { randomBytes } from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerRecord } from '../../src/model/schema.js';
import { readHistory } from '../../src/snapshot-build/previous-snapshot.js';
import { ADVISORIES_FILE, CHANGES_FILE, MANIFEST_FILE } from '../../src/format/manifest.js';
import { startGitHubStandIn, type GitHubStandIn } from '../support/github-standin.js';
import { startRegistryStandIn, type RegistryStandIn, type StandInEntry } from '../support/registry-standin.js';
import { committedData, reproductionFixtures } from '../support/rescore-fixtures.js';
import { standInArgs } from '../support/rescore-run.js';
import { newSigningKey, SIGNING_KEY_ENV } from '../../src/publish/sign-bundle.js';
import { BUNDLE_INDEX_FILE, BUNDLE_SIGNATURE_FILE } from '../../src/format/snapshot-bundle.js';
import { checkBundleFile, checkManifest, verifyIndex } from '../../src/update/verify-bundle.js';
import { existsSync } from 'node:fs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BRANCH = 'published-snapshot';
const RUN_BOUND_MS = 180_000;
const OFFICIAL = 'io.modelcontextprotocol.registry/official';
const TOKEN = randomBytes(12).toString('hex');
const SERVERS = 30;

const data = committedData();
const fixtures = reproductionFixtures(data);
/** Night one's registry: the first SERVERS entries (copies: the nights change them). */
const entries: StandInEntry[] = structuredClone(fixtures.entries.slice(0, SERVERS));
/** Published on the second night. */
const newcomer: StandInEntry = structuredClone(fixtures.entries[SERVERS]!);
const repositoryKey = (entry: StandInEntry) =>
  /^https:\/\/github\.com\/([^/]+\/[^/]+?)(?:\.git)?\/?$/
    .exec(String((entry.server.repository as { url?: string } | undefined)?.url ?? ''))?.[1]
    ?.toLowerCase();

let root: string;
/** The night's signing key (the workflow's secret); empty: a night without one. */
let signingKeyTonight = '';
const signing = newSigningKey();
let bare: string;
let registry: RegistryStandIn;
let github: GitHubStandIn;

/** Run `npm run republish` (as its script) with `args`; resolves with its exit code and output. */
function republish(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join('scripts', 'republish.ts'), ...args], {
      cwd: REPO,
      env: { ...process.env, GITHUB_TOKEN: TOKEN, [SIGNING_KEY_ENV]: signingKeyTonight },
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

/** A night: rescore from the stand-ins (same --as-of every night, so only what the stand-ins changed moves). */
const night = (...extra: string[]) =>
  republish([
    '--deploy',
    'local',
    '--keep',
    `git:${bare}#${BRANCH}`,
    '--skip-tests',
    '--data',
    path.join(root, 'data'),
    '--snapshot',
    path.join(root, 'snapshot'),
    '--work',
    path.join(root, 'work'),
    '--bundle-out',
    path.join(root, 'bundle'),
    ...extra,
    '--',
    ...standInArgs({
      registryUrl: registry.url,
      githubUrl: github.url,
      asOf: data.scoredAt,
      cache: path.join(root, 'cache'),
    }),
  ]);

/** The dataset the last night put where the build reads it. */
/** The dataset the last night wrote, as its snapshot serves it: each record scored by the build (mts-2). */
async function datasetOfLastNight(): Promise<ServerRecord[]> {
  const written = JSON.parse(await readFile(path.join(root, 'data', 'servers.json'), 'utf8')) as unknown[];
  const score = await makeRecordScorer(mts2Scoring(root));
  return written.map((record) => score(record) as ServerRecord);
}

/** An entry changed now, so an incremental collection (`updated_since` the last run) sees it. */
function touch(entry: StandInEntry, status?: string): void {
  const meta = entry._meta![OFFICIAL]!;
  if (status !== undefined) meta.status = status;
  meta.updatedAt = new Date(Date.now() + 1000).toISOString();
}

/** What changed between two datasets, computed naively by name: the oracle changes.json must equal. */
function naiveChanges(before: ServerRecord[], after: ServerRecord[]) {
  const old = new Map(before.map((record) => [record.name, record]));
  const now = new Set(after.map((record) => record.name));
  const common = after.filter((record) => old.has(record.name));
  const flagDelta = (a: string[], b: string[]) => a.filter((flag) => !b.includes(flag));
  return {
    added: after.filter((record) => !old.has(record.name)).map((record) => record.name),
    removed: before.filter((record) => !now.has(record.name)).map((record) => record.name),
    score_changes: common
      .filter((record) => old.get(record.name)!.trust_score !== record.trust_score)
      .map((record) => ({ name: record.name, from: old.get(record.name)!.trust_score, to: record.trust_score })),
    label_changes: common
      .filter((record) => old.get(record.name)!.trust_label !== record.trust_label)
      .map((record) => ({ name: record.name, from: old.get(record.name)!.trust_label, to: record.trust_label })),
    flags_raised: common
      .map((record) => ({ name: record.name, flags: flagDelta(record.flags, old.get(record.name)!.flags) }))
      .filter((change) => change.flags.length > 0),
    flags_cleared: common
      .map((record) => ({ name: record.name, flags: flagDelta(old.get(record.name)!.flags, record.flags) }))
      .filter((change) => change.flags.length > 0),
  };
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

const branchCommit = () => execFileSync('git', ['--git-dir', bare, 'rev-parse', BRANCH], { encoding: 'utf8' });

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'mts-republish-'));
  bare = path.join(root, 'kept.git');
  execFileSync('git', ['init', '--quiet', '--bare', bare]);
  await mkdir(path.join(root, 'data', 'evidence'), { recursive: true });
  // The dataset's own evidence: one advisory of the committed file, so a build that read the checkout's
  // data/evidence instead of the dataset's would show it.
  const committed = JSON.parse(await readFile(path.join(REPO, 'data', 'evidence', 'advisories.json'), 'utf8')) as {
    advisories: unknown[];
  };
  await writeFile(
    path.join(root, 'data', 'evidence', 'advisories.json'),
    JSON.stringify({ ...committed, advisories: committed.advisories.slice(0, 1) }),
  );
  registry = await startRegistryStandIn(entries);
  github = await startGitHubStandIn(fixtures.repositories, { token: TOKEN, rateLimit: 100_000 });
});

afterAll(async () => {
  await registry?.close();
  await github?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('npm run republish, two nights in a row', { timeout: 4 * RUN_BOUND_MS }, () => {
  let firstId = '';

  it('refuses a night with nothing kept unless told it is the first, with one line and nothing kept', async () => {
    const run = await night();
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^republish: fetch-previous failed, nothing was published: no published snapshot is kept in branch published-snapshot of .* \(--first publishes the first one\)$/,
      ),
    ]);
    expect(execFileSync('git', ['--git-dir', bare, 'branch', '--list'], { encoding: 'utf8' })).toBe('');
  });

  it('publishes the first night: rescored, built, served by the started server, then kept on the branch', async () => {
    const run = await night('--first');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`rescore: wrote .*collected ${SERVERS} servers`));
    const published = /published snapshot ([0-9a-f]{20}) \(after none\) at (http:\/\/127\.0\.0\.1:\d+)/.exec(
      run.stdout,
    );
    expect(published).not.toBeNull();
    firstId = published![1]!;
    // No signing key tonight: one line says so and no bundle is written (never an unsigned one).
    expect(run.stdout).toContain('bundle: no TRUST_SNAPSHOT_SIGNING_KEY, so no signed snapshot bundle tonight');
    expect(existsSync(path.join(root, 'bundle'))).toBe(false);
    expect(run.stdout).toContain(`health check: ${published![2]} serves snapshot ${firstId}`);
    // The platform build ran the same build command and kept the checked snapshot as it was.
    expect(run.stdout).toMatch(/is current for .* kept as it is/);
    const kept = await keptSnapshot();
    expect((await manifestOf(kept.dir)).snapshot_id).toBe(firstId);
    expect(kept.commits).toBe(1);
    // The night continued the dataset's evidence and put it back, and the build read it from the dataset.
    const advisories = JSON.parse(await readFile(path.join(kept.dir, ADVISORIES_FILE), 'utf8')) as {
      advisories: { id: string }[];
    };
    expect(advisories.advisories.map((advisory) => advisory.id)).toEqual(['GHSA-6xpm-ggf7-wc3p']);
    expect(existsSync(path.join(root, 'data', 'evidence', 'advisories.json'))).toBe(true);
    expect(registry.invalid).toEqual([]);
    expect(github.invalid).toEqual([]);
  });

  it('publishes the second night against the first: its history goes on, and changes.json holds exactly the changes', async () => {
    const before = await datasetOfLastNight();
    // The changes: one server deleted from the registry, one published, one repository archived on GitHub.
    const gone = entries[3]!;
    touch(gone, 'deleted');
    touch(newcomer);
    entries.push(newcomer);
    // A repository only one of the servers has (several servers may share one).
    const servedBy = (key: string | undefined) => entries.filter((entry) => repositoryKey(entry) === key).length;
    const archived = entries.find(
      (entry, i) =>
        i > 3 &&
        github.repositories.get(repositoryKey(entry) ?? '')?.archived === false &&
        servedBy(repositoryKey(entry)) === 1,
    )!;
    github.repositories.get(repositoryKey(archived)!)!.archived = true;

    signingKeyTonight = signing.privateKeyPem;
    const run = await night().finally(() => (signingKeyTonight = ''));
    expect(run.code, run.stderr).toBe(0);
    const ids = /published snapshot ([0-9a-f]{20}) \(after ([0-9a-f]{20})\)/.exec(run.stdout);
    expect(ids?.[2]).toBe(firstId);
    expect(ids?.[1]).not.toBe(firstId);

    // With the key, the night signs the snapshot it deploys: the bundle verifies as `update` verifies it.
    const bundleDir = path.join(root, 'bundle');
    const index = verifyIndex(
      await readFile(path.join(bundleDir, BUNDLE_INDEX_FILE)),
      await readFile(path.join(bundleDir, BUNDLE_SIGNATURE_FILE), 'utf8'),
      { bundle_url: null, keys: [signing.trusted] },
    );
    expect(index.snapshot_id).toBe(ids?.[1]);
    for (const entry of index.files) checkBundleFile(entry, await readFile(path.join(bundleDir, entry.name)));
    checkManifest(index, await readFile(path.join(bundleDir, MANIFEST_FILE)));
    // And only with that key: the same bundle is refused by a checker that trusts another one.
    const indexBytes = await readFile(path.join(bundleDir, BUNDLE_INDEX_FILE));
    const signature = await readFile(path.join(bundleDir, BUNDLE_SIGNATURE_FILE), 'utf8');
    expect(() => verifyIndex(indexBytes, signature, { bundle_url: null, keys: [newSigningKey().trusted] })).toThrow(
      /does not trust/,
    );

    const kept = await keptSnapshot();
    const manifest = await manifestOf(kept.dir);
    expect(manifest.snapshot_id).toBe(ids?.[1]);
    // One commit: each night replaces the branch, so the repository does not grow with every snapshot.
    expect(kept.commits).toBe(1);

    const changes = JSON.parse(await readFile(path.join(kept.dir, CHANGES_FILE), 'utf8')) as Record<string, unknown>;
    const expected = naiveChanges(before, await datasetOfLastNight());
    // Exactly what was changed, and nothing else moved.
    expect(expected.added).toEqual([newcomer.server.name]);
    expect(expected.removed).toEqual([gone.server.name]);
    expect(expected.flags_raised).toEqual([{ name: archived.server.name, flags: ['REPO_ARCHIVED'] }]);
    expect(expected.flags_cleared).toEqual([]);
    for (const change of [...expected.score_changes, ...expected.label_changes])
      expect(change.name).toBe(archived.server.name);
    expect(changes).toEqual({
      previous: { snapshot_id: firstId, generated_at: expect.any(String), record_count: SERVERS },
      counts: {
        previous: SERVERS,
        current: SERVERS,
        added: 1,
        removed: 1,
        score_changed: expected.score_changes.length,
        label_changed: expected.label_changes.length,
        flags_raised: 1,
        flags_cleared: 0,
      },
      ...expected,
    });

    const history = await readHistory(kept.dir);
    expect(history?.snapshots.map((snapshot) => snapshot.snapshot_id)).toEqual([ids?.[1], firstId]);
  });

  it('ends a night whose dataset is the published one without deploying or keeping anything', async () => {
    const before = branchCommit();
    const run = await night();
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/rescore: wrote .* answered 304/);
    expect(run.stdout).toMatch(/snapshot [0-9a-f]{20} is already the published one; nothing published/);
    expect(run.stdout).not.toContain('deploy:');
    expect(branchCommit()).toBe(before);
  });

  it('refuses a night the build guard objects to: one line, exit 1, the kept snapshot untouched', async () => {
    const before = branchCommit();
    for (const entry of entries.slice(5, 10)) touch(entry, 'deleted');
    const run = await night();
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n').at(-1)).toBe(
      'republish: build failed, nothing was published: npm run build exited with 1: build: refused to publish, the previous ' +
        `snapshot is untouched: 5 of ${SERVERS} servers (16.7%) would disappear; the limit is 10.0% (--force publishes anyway)`,
    );
    expect(run.stdout).not.toContain('deploy:');
    expect(branchCommit()).toBe(before);
  });
});
