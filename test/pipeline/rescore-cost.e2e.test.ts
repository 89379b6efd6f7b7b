/**
 * Cost: a first run asks GitHub at most 3 times per repository (202 retries aside); a second run against
 * unchanged stand-ins asks only conditionally and every answer is a 304, so it spends none of the rate limit;
 * the summary line reports both counts. The stand-in enforces a primary rate limit: a run that hits it waits
 * for the reset when that is within --max-wait, and otherwise stops, keeps what it fetched and writes nothing.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startGitHubStandIn, type GitHubStandIn } from '../support/github-standin.js';
import { startRegistryStandIn, type RegistryStandIn } from '../support/registry-standin.js';
import { smallFixtures } from '../support/rescore-fixtures.js';
import { runRescore, standInArgs } from '../support/rescore-run.js';

const AS_OF = '2026-02-21T22:49:33.106359Z';
const TOKEN = 'cost-test-token';
const open: Array<{ close(): Promise<void> }> = [];
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function setUp(count: number, github: { rateLimit?: number; windowSeconds?: number } = {}) {
  const fixtures = smallFixtures(count);
  const registry: RegistryStandIn = await startRegistryStandIn(fixtures.entries);
  const gh: GitHubStandIn = await startGitHubStandIn(fixtures.repositories, { token: TOKEN, ...github });
  open.push(registry, gh);
  const dir = mkdtempSync(path.join(tmpdir(), 'rescore-cost-'));
  dirs.push(dir);
  const out = path.join(dir, 'out');
  const run = (...extra: string[]) =>
    runRescore(
      [
        ...standInArgs({ registryUrl: registry.url, githubUrl: gh.url, asOf: AS_OF, cache: path.join(dir, 'cache') }),
        '--out',
        out,
        ...extra,
      ],
      { token: TOKEN },
    );
  return { fixtures, registry, github: gh, out, run };
}

/** The two counts of the summary line: GitHub requests, and how many were answered 304. */
function counts(stdout: string): { requests: number; notModified: number } {
  const match = /; (\d+) GitHub requests, (\d+) answered 304;/.exec(stdout);
  if (match === null) throw new Error(`no request counts in ${JSON.stringify(stdout)}`);
  return { requests: Number(match[1]), notModified: Number(match[2]) };
}

describe('what a run costs on GitHub', () => {
  it('asks at most 3 times per repository, then only conditionally, every answer a 304', async () => {
    const { fixtures, github, run } = await setUp(12);
    const slow = fixtures.repositories[0]!;
    github.repositories.get(`${slow.owner}/${slow.name}`.toLowerCase())!.computingFor = 1;
    const repos = fixtures.repositories.length;

    const first = await run();
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const retries202 = github.log.filter((entry) => entry.status === 202).length;
    expect(retries202).toBe(1);
    expect(counts(first.stdout)).toEqual({ requests: github.log.length, notModified: 0 });
    expect(github.log.length - retries202).toBeLessThanOrEqual(3 * repos);

    const remaining = github.rate.remaining;
    github.log.length = 0;
    const second = await run();
    expect(second.code).toBe(0);
    expect(counts(second.stdout)).toEqual({ requests: 3 * repos, notModified: 3 * repos });
    expect(github.log.every((entry) => entry.status === 304)).toBe(true);
    expect(github.rate.remaining).toBe(remaining);
    expect(second.stdout).toContain(
      `enriched ${repos} of ${repos} GitHub repositories (0 found nothing, ${repos} unchanged)`,
    );
    expect(second.stdout).toContain(`${fixtures.entries.length} records unchanged since the last run`);
    expect(github.invalid).toEqual([]);
  }, 120_000);

  it('waits for the primary limit to reset when that is within --max-wait', async () => {
    const { fixtures, github, run } = await setUp(8, { rateLimit: 10, windowSeconds: 2 });
    const result = await run('--max-wait', '15m');
    expect(result.code).toBe(0);
    expect(github.log.some((entry) => entry.status === 403)).toBe(true);
    const repos = fixtures.repositories.length;
    expect(result.stdout).toContain(`enriched ${repos} of ${repos} GitHub repositories`);
  }, 120_000);

  it('stops when the reset is past --max-wait, writes nothing, and keeps what it fetched for the next run', async () => {
    const { fixtures, github, out, run } = await setUp(8, { rateLimit: 9, windowSeconds: 3600 });
    const stopped = await run('--max-wait', '1s');
    expect(stopped.code).toBe(1);
    expect(stopped.stdout).toBe('');
    expect(stopped.stderr.trim().split('\n')).toHaveLength(1);
    expect(stopped.stderr).toMatch(
      /^rescore: \d+ of \d+ GitHub repositories could not be enriched .*rate limit is spent/,
    );
    expect(existsSync(out)).toBe(false);

    // The next night, with room in the limit: what the stopped run fetched costs a 304.
    github.rate.remaining = 1000;
    const next = await run('--max-wait', '1s');
    expect(next.code).toBe(0);
    expect(counts(next.stdout).notModified).toBeGreaterThanOrEqual(9 - 3);
    expect(JSON.parse(readFileSync(path.join(out, 'servers.json'), 'utf8'))).toHaveLength(fixtures.entries.length);
  }, 120_000);
});
