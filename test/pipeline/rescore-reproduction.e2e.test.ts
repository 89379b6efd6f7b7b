/**
 * Reproduction: `npm run rescore` against stand-ins built from the committed registry entries and from GitHub
 * facts that make the committed signals, with `--as-of` the committed `scored_at`, gives back the committed
 * records (scores, label, flags, targets, badge ids) for at least 99% of those whose inputs the stand-ins can
 * give back exactly, and every one it does not is explained.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerRecord } from '../../src/model/schema.js';
import { startGitHubStandIn, type GitHubStandIn } from '../support/github-standin.js';
import { startRegistryStandIn, type RegistryStandIn } from '../support/registry-standin.js';
import { committedData, reproductionFixtures } from '../support/rescore-fixtures.js';
import { runRescore, type RescoreRun, standInArgs } from '../support/rescore-run.js';

const OFFICIAL = 'io.modelcontextprotocol.registry/official';
const data = committedData();
const fixtures = reproductionFixtures(data);
const token = randomBytes(12).toString('hex');
const dir = mkdtempSync(path.join(tmpdir(), 'rescore-reproduction-'));
const out = path.join(dir, 'out');
let registry: RegistryStandIn;
let github: GitHubStandIn;
let run: RescoreRun;

/** What the reproduction compares: everything the method and the importer decide. */
const decided = (r: ServerRecord) =>
  JSON.stringify([r.trust_score, r.trust_label, r.scores, r.flags, r.targets, r.badges.map((b) => b.id)]);

beforeAll(async () => {
  registry = await startRegistryStandIn(fixtures.entries);
  github = await startGitHubStandIn(fixtures.repositories, { token, rateLimit: 100_000 });
  run = await runRescore(
    [
      ...standInArgs({
        registryUrl: registry.url,
        githubUrl: github.url,
        asOf: data.scoredAt,
        cache: path.join(dir, 'cache'),
      }),
      '--out',
      out,
      // The method the committed scores were made with, named as docs/method.md gives the command.
      '--method',
      'msc-7bc729d',
    ],
    { token, viaNpm: true },
  );
}, 400_000);

afterAll(async () => {
  await registry?.close();
  await github?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run rescore against stand-ins of the committed inputs', () => {
  it('runs, and every answer the stand-ins gave passes the registry schemas and GitHub OpenAPI description', () => {
    expect(run.stderr).not.toMatch(/unexpected/);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^rescore: wrote .*collected 2285 servers/);
    expect(registry.invalid).toEqual([]);
    expect(github.invalid).toEqual([]);
  });

  it('writes the registry data byte for byte as the committed import wrote it', () => {
    expect(readFileSync(path.join(out, 'registry', 'servers.json'), 'utf8')).toBe(
      readFileSync(path.resolve(import.meta.dirname, '../../data/registry/servers.json'), 'utf8'),
    );
  });

  it('reproduces at least 99% of the reproducible records, each miss a registry entry published after scoring', () => {
    const written = JSON.parse(readFileSync(path.join(out, 'servers.json'), 'utf8')) as ServerRecord[];
    const byName = new Map(written.map((record) => [record.name, record]));
    const published = new Map(fixtures.entries.map((e) => [e.server.name, String(e._meta?.[OFFICIAL]?.publishedAt)]));
    const eligible = data.records.filter((record) => !fixtures.excluded.has(record.name));
    const missed = eligible.filter((record) => {
      const mine = byName.get(record.name);
      return mine === undefined || decided(mine) !== decided(record) || mine.scored_at !== record.scored_at;
    });
    expect(eligible.length).toBeGreaterThan(2000);
    expect(1 - missed.length / eligible.length).toBeGreaterThanOrEqual(0.99);
    const unexplained = missed.filter((record) => !(published.get(record.name)! > data.scoredAt));
    expect(unexplained.map((record) => record.name)).toEqual([]);
  });

  it('scores the servers the upstream run left without GitHub data with their data', () => {
    const written = new Map(
      (JSON.parse(readFileSync(path.join(out, 'servers.json'), 'utf8')) as ServerRecord[]).map((r) => [r.name, r]),
    );
    const withoutData = [...fixtures.excluded].filter(([, why]) => why.includes('without GitHub data'));
    expect(withoutData.length).toBeGreaterThan(200);
    for (const [name] of withoutData) expect(written.get(name)?.signals?.repo_not_archived).toBe(true);
  });
});
