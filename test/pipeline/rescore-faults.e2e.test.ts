/**
 * Faults: a registry page that is not the documented shape, a GitHub answer that is not JSON, a token GitHub
 * refuses, a secondary rate limit, a socket closed mid-answer, a full disk. Each gives one line naming what
 * failed and a non-zero exit, writes nothing to --out, and leaves the cache usable: the next run, with the
 * fault gone, succeeds from it. Transient faults (a 503, a 429 with Retry-After, one closed socket, a short
 * secondary limit) are retried and the run succeeds; a 404 and a 301 are answers.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerRecord } from '../../src/model/schema.js';
import { startGitHubStandIn, type GitHubFault, type GitHubStandIn } from '../support/github-standin.js';
import { startRegistryStandIn, type RegistryFault, type RegistryStandIn } from '../support/registry-standin.js';
import { smallFixtures } from '../support/rescore-fixtures.js';
import { runRescore, standInArgs } from '../support/rescore-run.js';

const AS_OF = '2026-02-21T22:49:33.106359Z';
const TOKEN = 'faults-test-token';
const open: Array<{ close(): Promise<void> }> = [];
const cleanups: Array<() => void> = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

async function setUp(count = 6) {
  const fixtures = smallFixtures(count);
  const registry: RegistryStandIn = await startRegistryStandIn(fixtures.entries);
  const github: GitHubStandIn = await startGitHubStandIn(fixtures.repositories, { token: TOKEN });
  open.push(registry, github);
  const dir = mkdtempSync(path.join(tmpdir(), 'rescore-faults-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const out = path.join(dir, 'out');
  const run = (options: { out?: string; token?: string } = {}, ...extra: string[]) =>
    runRescore(
      [
        ...standInArgs({
          registryUrl: registry.url,
          githubUrl: github.url,
          asOf: AS_OF,
          cache: path.join(dir, 'cache'),
        }),
        '--out',
        options.out ?? out,
        '--max-wait',
        '5s',
        ...extra,
      ],
      { token: options.token ?? TOKEN },
    );
  const repo = fixtures.repositories[0]!;
  const repoPath = new RegExp(`^/repos/${repo.owner}/${repo.name}$`, 'i');
  return { fixtures, registry, github, dir, out, run, repo, repoPath };
}

type Setup = Awaited<ReturnType<typeof setUp>>;

/** A failed run: one line naming the cause, a non-zero exit, nothing in --out; then the next run succeeds. */
async function expectFailureThenRecovery(setup: Setup, cause: RegExp, clear: () => void, options = {}) {
  const failed = await setup.run(options);
  expect(failed.stderr.trim().split('\n')).toHaveLength(1);
  expect(failed.stderr).toMatch(cause);
  expect(failed.code).toBe(1);
  expect(failed.stdout).toBe('');
  expect(existsSync(setup.out) ? readdirSync(setup.out) : []).toEqual([]);
  clear();
  const next = await setup.run();
  expect(next.stderr).toBe('');
  expect(next.code).toBe(0);
  expect(JSON.parse(readFileSync(path.join(setup.out, 'servers.json'), 'utf8'))).toHaveLength(
    setup.fixtures.entries.length,
  );
}

const registryFault = (setup: Setup, fault: RegistryFault, times?: number) =>
  setup.registry.faults.push({ page: 1, fault, ...(times === undefined ? {} : { times }) });
const githubFault = (setup: Setup, fault: GitHubFault, times?: number) =>
  setup.github.faults.push({ path: setup.repoPath, fault, ...(times === undefined ? {} : { times }) });

describe('rescore faults that stop the run', () => {
  it('refuses a registry page that is not the documented shape', async () => {
    const setup = await setUp();
    registryFault(setup, { kind: 'bad-shape' });
    await expectFailureThenRecovery(setup, /^rescore: registry page 1 .* is not the documented shape/, () =>
      setup.registry.faults.splice(0),
    );
  }, 60_000);

  it('gives up on a registry whose connection closes mid-answer every time', async () => {
    const setup = await setUp();
    registryFault(setup, { kind: 'close-mid-answer' });
    await expectFailureThenRecovery(setup, /^rescore: registry page 1 .*network error.*after 5 attempts/, () =>
      setup.registry.faults.splice(0),
    );
  }, 60_000);

  it('refuses a GitHub answer that is not JSON (the repository goes unenriched, past the bound)', async () => {
    const setup = await setUp();
    githubFault(setup, { kind: 'not-json' });
    await expectFailureThenRecovery(setup, /could not be enriched .*a body that is not JSON/, () =>
      setup.github.faults.splice(0),
    );
  }, 60_000);

  it('stops at once when GitHub refuses the token', async () => {
    const setup = await setUp();
    await expectFailureThenRecovery(setup, /^rescore: GitHub refused the token \(401/, () => {}, { token: 'wrong' });
  }, 60_000);

  it('stops at a secondary rate limit whose Retry-After is past --max-wait', async () => {
    const setup = await setUp();
    githubFault(setup, { kind: 'secondary-limit', retryAfter: 3600 });
    await expectFailureThenRecovery(setup, /secondary rate limit asks to wait 3600 s, past --max-wait/, () =>
      setup.github.faults.splice(0),
    );
  }, 60_000);

  it('gives up on a GitHub connection that closes mid-answer every time', async () => {
    const setup = await setUp();
    githubFault(setup, { kind: 'close-mid-answer' });
    await expectFailureThenRecovery(
      setup,
      /could not be enriched .*GitHub answered GET \/repos\/.* with 500: other side closed/,
      () => setup.github.faults.splice(0),
    );
  }, 60_000);

  it('refuses a registry that lists no active server', async () => {
    const setup = await setUp();
    const entries = setup.registry.entries.splice(0);
    await expectFailureThenRecovery(setup, /^rescore: the registry listed no active servers; nothing written\n$/, () =>
      setup.registry.entries.push(...entries),
    );
  }, 60_000);

  it('writes nothing when the disk is full, and the cache still serves the next run', async (context) => {
    const setup = await setUp();
    const full = path.join(setup.dir, 'full');
    mkdirSync(full);
    try {
      // A 4 KiB file system: the dataset does not fit. Needs root, as the machine and CI run.
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4k', 'tmpfs', full], { stdio: 'ignore' });
    } catch {
      context.skip('cannot mount a small tmpfs here (not root)');
    }
    cleanups.push(() => execFileSync('umount', [full]));
    const failed = await setup.run({ out: full });
    expect(failed.code).toBe(1);
    expect(failed.stderr.trim().split('\n')).toHaveLength(1);
    expect(failed.stderr).toMatch(/^rescore: cannot write .*ENOSPC/);
    expect(readdirSync(full)).toEqual([]);
    const next = await setup.run();
    expect(next.code).toBe(0);
    expect(next.stdout).toMatch(/, (\d+) answered 304;/);
    expect(Number(/, (\d+) answered 304;/.exec(next.stdout)![1])).toBeGreaterThan(0);
  }, 60_000);
});

describe('rescore faults that are retried or answered', () => {
  it('retries a 503 and waits out a 429 Retry-After from the registry', async () => {
    const setup = await setUp();
    setup.registry.faults.push({ page: 1, fault: { kind: 'status', status: 503 }, times: 2 });
    setup.registry.faults.push({ page: 1, fault: { kind: 'status', status: 429, retryAfter: 1 }, times: 1 });
    const started = Date.now();
    const result = await setup.run();
    expect(result.code).toBe(0);
    expect(setup.registry.log.map((entry) => entry.status)).toEqual([503, 503, 429, 200]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  }, 60_000);

  it('retries one closed GitHub connection and waits out a short secondary limit', async () => {
    const setup = await setUp();
    githubFault(setup, { kind: 'close-mid-answer' }, 1);
    setup.github.faults.push({
      path: /\/community\/profile$/,
      fault: { kind: 'secondary-limit', retryAfter: 1 },
      times: 1,
    });
    const result = await setup.run();
    expect(result.code).toBe(0);
    const repos = setup.fixtures.repositories.length;
    expect(result.stdout).toContain(`enriched ${repos} of ${repos} GitHub repositories`);
  }, 60_000);

  it('writes when the unenriched share is within --max-unenriched, and says how many went unenriched', async () => {
    const setup = await setUp();
    githubFault(setup, { kind: 'status', status: 500 });
    const result = await setup.run({}, '--max-unenriched', '0.5');
    expect(result.code).toBe(0);
    const repos = setup.fixtures.repositories.length;
    expect(result.stdout).toContain(`enriched ${repos - 1} of ${repos} GitHub repositories`);
  }, 60_000);

  it('follows a moved repository (301) and scores a deleted one (404) as nothing found', async () => {
    const setup = await setUp();
    const [moved, gone] = setup.fixtures.repositories;
    const movedKey = `${moved!.owner}/${moved!.name}`.toLowerCase();
    const newHome = { ...setup.github.repositories.get(movedKey)!, owner: 'new-owner', name: 'new-name', stars: 4321 };
    setup.github.repositories.set(movedKey, { ...setup.github.repositories.get(movedKey)!, movedTo: newHome });
    setup.github.repositories.set('new-owner/new-name', newHome);
    setup.github.repositories.delete(`${gone!.owner}/${gone!.name}`.toLowerCase());
    const result = await setup.run();
    expect(result.code).toBe(0);
    expect(setup.github.log.some((entry) => entry.status === 301)).toBe(true);
    expect(setup.github.invalid).toEqual([]);
    const records = JSON.parse(readFileSync(path.join(setup.out, 'servers.json'), 'utf8')) as ServerRecord[];
    const repoOf = (record: ServerRecord) => record.install.repo_url?.toLowerCase() ?? '';
    const movedRecord = records.find((r) => repoOf(r).includes(`/${moved!.owner}/${moved!.name}`.toLowerCase()))!;
    expect(movedRecord.signals?.github_stars).toBe(4321);
    const goneRecord = records.find((r) => repoOf(r).includes(`/${gone!.owner}/${gone!.name}`.toLowerCase()))!;
    expect(goneRecord.signals).toMatchObject({ repo_not_archived: true, github_stars: 0, active_commit_weeks: null });
    expect(result.stdout).toContain('(1 found nothing');
  }, 60_000);
});
