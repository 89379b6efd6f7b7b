/**
 * At registry scale, on GitHub's budget: a first night over a few hundred repositories asks at most 3 times
 * per repository, an unchanged night spends at most 1 request of the rate limit per 100 repositories (its
 * conditional requests are answered 304, which GitHub does not count), and a night that the hour's budget
 * stops publishes nothing, keeps what it read, and is completed by the next night, which asks first about the
 * repositories the stopped one never reached.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerRecord } from '../../src/model/schema.js';
import { PipelineError } from '../../src/pipeline/errors.js';
import { rescore } from '../../src/pipeline/rescore.js';
import { startGitHubStandIn, type GitHubStandIn } from '../support/github-standin.js';
import { startRegistryStandIn } from '../support/registry-standin.js';
import { syntheticServers } from '../support/synthetic-servers.js';
import { makeTempDir } from '../support/temp.js';

const AS_OF = '2026-02-21T22:49:33Z';
const TOKEN = 'scale-test-token';
const open: Array<{ close(): Promise<void> }> = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

async function setUp(count: number, rateLimit = 5000) {
  const fixtures = syntheticServers(count, AS_OF);
  const registry = await startRegistryStandIn(fixtures.entries);
  const github = await startGitHubStandIn(fixtures.repositories, { token: TOKEN, rateLimit });
  open.push(registry, github);
  const dir = await makeTempDir('rescore-scale-');
  const out = path.join(dir, 'out');
  const night = (reserve = 0) =>
    rescore({
      registryUrl: registry.url,
      githubApiUrl: github.url,
      asOf: AS_OF,
      out,
      cache: path.join(dir, 'cache'),
      token: TOKEN,
      maxUnenriched: 0.1,
      registryPolicy: { timeoutMs: 10_000, retries: 1, backoffMs: 5, maxRetryAfterMs: 1000 },
      github: {
        maxWaitMs: 1000,
        timeoutMs: 10_000,
        concurrency: 8,
        participationAttempts: 2,
        participationDelayMs: 5,
        retries: 1,
        retryBaseMs: 5,
        reserve,
      },
    });
  return { fixtures, registry, github, out, night };
}

/** GitHub requests per repository (`owner/name` lower-cased), from the stand-in's log. */
function perRepository(log: GitHubStandIn['log']): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { path: requested } of log) {
    const key = requested.split('/').slice(2, 4).join('/').toLowerCase();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Requests the stand-in's primary rate limit counted since `remaining` was read. */
const counted = (github: GitHubStandIn, remaining: number) => remaining - github.rate.remaining;

const published = (out: string) =>
  (JSON.parse(readFileSync(path.join(out, 'servers.json'), 'utf8')) as ServerRecord[]).map((record) => record.name);

describe('a night over a few hundred repositories', () => {
  it('asks at most 3 times per repository, and an unchanged night spends under 1 request per 100', async () => {
    const { fixtures, registry, github, out, night } = await setUp(300);
    const repos = fixtures.repositories.length;

    const first = await night();
    expect(first.repositories).toBe(repos);
    expect(first.enriched).toBe(repos);
    expect(first.githubRequests).toBe(github.log.length);
    const asked = perRepository(github.log);
    expect(asked.size).toBe(repos);
    expect(Math.max(...asked.values())).toBeLessThanOrEqual(3);
    expect(published(out)).toHaveLength(fixtures.entries.length);

    const remaining = github.rate.remaining;
    github.log.length = 0;
    const second = await night();
    expect(second.enriched).toBe(repos);
    expect(second.unchangedRepositories).toBe(repos);
    expect(second.unchanged).toBe(fixtures.entries.length);
    expect(counted(github, remaining)).toBeLessThanOrEqual(repos / 100);
    expect(second.githubRequests - second.notModified).toBeLessThanOrEqual(repos / 100);
    expect(github.invalid).toEqual([]);
    expect(registry.invalid).toEqual([]);
  }, 120_000);
});

describe('a night the hour’s budget stops', () => {
  it('publishes nothing, and the next night reads the rest first and publishes every server', async () => {
    // 200 repositories need 600 requests; the hour holds 400, and the night keeps 20 of them in reserve.
    const { fixtures, github, out, night } = await setUp(200, 400);
    const repos = fixtures.repositories.length;

    const stopped = night(20);
    await expect(stopped).rejects.toThrow(PipelineError);
    await expect(stopped).rejects.toThrow(/could not be enriched .*down to \d+ requests \(the reserve is 20\)/);
    expect(existsSync(path.join(out, 'servers.json'))).toBe(false);
    // It stopped at the reserve, before the limit answered 403.
    expect(github.log.some((entry) => entry.status === 403)).toBe(false);
    expect(github.rate.remaining).toBeGreaterThan(0);
    const readFirst = new Set(
      [...perRepository(github.log.filter((entry) => entry.status === 200))].filter(([, n]) => n === 3).map(([k]) => k),
    );
    expect(readFirst.size).toBeGreaterThan(0);
    expect(readFirst.size).toBeLessThan(repos);

    // The next night, in the next hour: the repositories the first never read come first.
    github.rate.reset = 0;
    github.log.length = 0;
    const next = await night(20);
    expect(next.enriched).toBe(repos);
    expect(next.unenriched).toBe(0);
    const unread = repos - readFirst.size;
    const firstAsked = [...perRepository(github.log.slice(0, 3 * unread - 3 * 8)).keys()];
    expect(firstAsked.filter((key) => readFirst.has(key))).toEqual([]);
    // What the stopped night read costs a 304 (nothing of the limit); the rest is read once.
    expect(next.notModified).toBeGreaterThanOrEqual(3 * readFirst.size);
    expect(next.githubRequests - next.notModified).toBeLessThanOrEqual(3 * unread + 3 * 8);
    expect(published(out)).toHaveLength(fixtures.entries.length);
    expect(github.invalid).toEqual([]);
  }, 120_000);
});
