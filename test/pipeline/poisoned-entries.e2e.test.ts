/**
 * One entry never aborts a night: each of the entries below is one the registry's own schema (2025-12-01)
 * accepts (the stand-in checks every page it serves) but that cannot make a valid record. A rescoring with
 * one of them among good entries leaves it out, counts and names it in the summary, and publishes the rest.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerRecord } from '../../src/model/schema.js';
import { rescore } from '../../src/pipeline/rescore.js';
import { startGitHubStandIn } from '../support/github-standin.js';
import { startRegistryStandIn, type StandInEntry } from '../support/registry-standin.js';
import { smallFixtures } from '../support/rescore-fixtures.js';
import { runRescore, standInArgs } from '../support/rescore-run.js';
import { makeTempDir } from '../support/temp.js';

const AS_OF = '2026-02-21T22:49:33.106359Z';
const TOKEN = 'poisoned-entries-token';
const OFFICIAL = 'io.modelcontextprotocol.registry/official';
const open: Array<{ close(): Promise<void> }> = [];
let githubLog: { path: string; status: number }[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

/** A registry entry with no repository (so no GitHub request), published at `publishedAt`. */
function entry(name: string, server: Record<string, unknown>, publishedAt = '2026-01-01T00:00:00Z'): StandInEntry {
  return {
    server: { name, description: `The ${name} server`, version: '1.0.0', ...server },
    _meta: { [OFFICIAL]: { status: 'active', publishedAt, updatedAt: publishedAt, isLatest: true } },
  };
}

const POISONED: Array<[string, StandInEntry]> = [
  [
    'a 600-character remote URL',
    entry('io.example/long-remote', {
      remotes: [{ type: 'streamable-http', url: `https://mcp.example.com/${'a'.repeat(576)}` }],
    }),
  ],
  [
    'a 522-character mcpb identifier',
    entry('io.example/long-bundle', {
      packages: [
        {
          registryType: 'mcpb',
          identifier: `https://example.com/${'b'.repeat(498)}.mcpb`,
          fileSha256: 'a'.repeat(64),
          transport: { type: 'stdio' },
        },
      ],
    }),
  ],
  [
    '65 remotes',
    entry('io.example/many-remotes', {
      remotes: Array.from({ length: 65 }, (_, i) => ({ type: 'streamable-http', url: `https://mcp${i}.example.com/` })),
    }),
  ],
  [
    'a 65-character registryType',
    entry('io.example/long-type', {
      packages: [{ registryType: 'r'.repeat(65), identifier: 'some-package', transport: { type: 'stdio' } }],
    }),
  ],
];

async function night(entries: StandInEntry[]) {
  const fixtures = smallFixtures(3);
  const registry = await startRegistryStandIn([...fixtures.entries, ...entries]);
  const github = await startGitHubStandIn(fixtures.repositories, { token: TOKEN });
  open.push(registry, github);
  const dir = await makeTempDir('poisoned-');
  const out = path.join(dir, 'out');
  const summary = await rescore({
    registryUrl: registry.url,
    githubApiUrl: github.url,
    asOf: AS_OF,
    out,
    cache: path.join(dir, 'cache'),
    token: TOKEN,
    maxUnenriched: 0.1,
    registryPolicy: { timeoutMs: 5000, retries: 1, backoffMs: 5, maxRetryAfterMs: 1000 },
    github: {
      maxWaitMs: 1000,
      timeoutMs: 5000,
      concurrency: 4,
      participationAttempts: 2,
      participationDelayMs: 5,
      retries: 1,
      retryBaseMs: 5,
    },
  });
  expect(registry.invalid).toEqual([]);
  githubLog = github.log;
  const records = JSON.parse(readFileSync(path.join(out, 'servers.json'), 'utf8')) as ServerRecord[];
  return { fixtures, summary, names: records.map((record) => record.name) };
}

describe('an entry that cannot make a valid record', () => {
  it.each(POISONED)('is left out and named, with %s, and the rest is published', async (_what, poisoned) => {
    const { fixtures, summary, names } = await night([poisoned]);
    expect(names).toEqual(fixtures.entries.map((e) => e.server.name).sort());
    expect(summary.leftOut.map((left) => left.name)).toEqual([poisoned.server.name]);
    expect(summary.leftOut[0]!.reason).toMatch(/\S/);
    expect(summary.scored).toBe(fixtures.entries.length);
  });

  it('is left out when its name differs from an earlier one only in case, and the earlier one stays', async () => {
    const { fixtures, summary, names } = await night([
      entry('io.example/Twin', {}, '2026-01-02T00:00:00Z'),
      entry('io.example/twin', {}, '2025-06-01T00:00:00Z'),
    ]);
    expect(names).toContain('io.example/twin');
    expect(names).not.toContain('io.example/Twin');
    expect(names).toHaveLength(fixtures.entries.length + 1);
    expect(summary.leftOut).toEqual([
      { name: 'io.example/Twin', reason: expect.stringMatching(/differs only in case from io\.example\/twin/) },
    ]);
  });

  it('are all left out together, and the night still publishes the rest', async () => {
    const { fixtures, summary, names } = await night(POISONED.map(([, poisoned]) => poisoned));
    expect(names).toHaveLength(fixtures.entries.length);
    expect(summary.leftOut.map((left) => left.name).sort()).toEqual(
      POISONED.map(([, poisoned]) => poisoned.server.name).sort(),
    );
  });
});

describe('names that are not what they claim to be', () => {
  it('leaves out servers whose id is a dot segment, named, and publishes the rest', async () => {
    const { fixtures, summary, names } = await night([entry('io.example/..', {}), entry('io.example/.', {})]);
    expect(names).toHaveLength(fixtures.entries.length);
    expect(summary.leftOut.map((left) => left.name)).toEqual(['io.example/.', 'io.example/..']);
  });

  it('never sends a request outside /repos/{owner}/{repo} for a repository URL with a dot-segment owner', async () => {
    const hostile = [
      'https://github.com/../user',
      'https://github.com/../../user/repos',
      'https://github.com/a%2F..%2F../x',
    ];
    const { summary } = await night(
      hostile.map((url, i) => entry(`io.example/hostile-${i}`, { repository: { url, source: 'github' } })),
    );
    expect(githubLog.length).toBeGreaterThan(0);
    expect(
      githubLog.filter((request) => !/^\/repos\/[A-Za-z0-9-]+\/[A-Za-z0-9._-]+(?:\/|$)/.test(request.path)),
    ).toEqual([]);
    expect(summary.leftOut).toEqual([]);
  });
});

describe('npm run rescore with a poisoned entry', () => {
  it('names the entry it left out on its summary line and says why on its own line', async () => {
    const fixtures = smallFixtures(2);
    const poisoned = POISONED[0]![1];
    const registry = await startRegistryStandIn([...fixtures.entries, poisoned]);
    const github = await startGitHubStandIn(fixtures.repositories, { token: TOKEN });
    open.push(registry, github);
    const dir = await makeTempDir('poisoned-');
    const run = await runRescore(
      [
        ...standInArgs({ registryUrl: registry.url, githubUrl: github.url, asOf: AS_OF, cache: path.join(dir, 'c') }),
        '--out',
        path.join(dir, 'out'),
      ],
      { token: TOKEN },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(
        `scored ${fixtures.entries.length}, flagged \\d+, left out 1 that make no valid record \\(io\\.example/long-remote\\);`,
      ),
    );
    expect(run.stderr.trim()).toMatch(/^rescore: left out io\.example\/long-remote: .*remotes\[0\]\.url/);
  }, 60_000);
});
