/**
 * Two nights of rescoring against the registry and GitHub stand-ins, with every remote pointing at a real MCP
 * server on 127.0.0.1 (test/support/mcp-standins.ts): the probe step writes this project's own probes and
 * pinned tools, the second night continues the first, and the method, reading them through its evidence
 * interface as the build does, gives each probe flag exactly where expected and nowhere else. A third party's
 * observation already in `<out>` is replaced, never continued. A hanging and a flooding remote are cut by
 * their bounds (recorded as `timeout` and `too-large`). Then `npm run rescore` itself: `--no-probe`, and the
 * summary line of a night that probes.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEvidenceSources, UNREAD_SOURCES } from '../../src/snapshot-build/evidence-sources.js';
import { type ProbeFile, ProbeFileSchema } from '../../src/model/probes.js';
import type { ServerRecord } from '../../src/model/schema.js';
import { ToolsFileSchema } from '../../src/model/tools.js';
import { PROBES_BY } from '../../src/pipeline/probe/probe-night.js';
import { rescore, type RescoreSummary } from '../../src/pipeline/rescore.js';
import { scoreRecord } from '../../src/scoring/score-record.js';
import { startGitHubStandIn, type GitHubStandIn } from '../support/github-standin.js';
import { startMcpStandIns, type McpStandIns } from '../support/mcp-standins.js';
import { startRegistryStandIn, type RegistryStandIn } from '../support/registry-standin.js';
import { smallFixtures } from '../support/rescore-fixtures.js';
import { runRescore, standInArgs } from '../support/rescore-run.js';
import { standInNight } from '../support/night-options.js';
import { makeTempDir } from '../support/temp.js';

const AS_OF = '2026-02-21T22:49:33.106359Z';
const POLICY = { timeoutMs: 5000, retries: 2, backoffMs: 5, maxRetryAfterMs: 2000 };
const PROBE_FLAGS = ['REMOTE_UNREACHABLE', 'SSE_ONLY', 'TOOLS_CHANGED', 'TOOL_INSTRUCTIONS'];
const PROBE_TIMEOUT_MS = 1_500;

/** Which stand-in each of the first servers' remote is; the last server has no remote. */
const REMOTES: Array<[string, 'streamable-http' | 'sse', string] | null> = [
  ['open', 'streamable-http', '/open/mcp'],
  ['oauth', 'streamable-http', '/oauth/mcp'],
  ['bare', 'streamable-http', '/bare/mcp'],
  ['sse', 'sse', '/sse'],
  ['changing', 'streamable-http', '/changing/mcp'],
  ['poisoned', 'streamable-http', '/poisoned/mcp'],
  ['hang', 'streamable-http', '/hang/mcp'],
  ['huge', 'streamable-http', '/huge/mcp'],
  ['redirect', 'streamable-http', '/redirect/mcp'],
  null,
];

let mcp: McpStandIns;
let registry: RegistryStandIn;
let github: GitHubStandIn;
/** Server name → the stand-in kind its remote is. */
const kindOf = new Map<string, string>();

beforeAll(async () => {
  mcp = await startMcpStandIns();
  const fixtures = smallFixtures(REMOTES.length);
  fixtures.entries.forEach((entry, index) => {
    const remote = REMOTES[index] ?? null;
    const server = entry.server as { name: string; remotes?: unknown; packages?: unknown };
    server.remotes = remote === null ? [] : [{ type: remote[1], url: mcp.at(remote[2]) }];
    kindOf.set(server.name, remote === null ? 'local' : remote[0]);
  });
  registry = await startRegistryStandIn(fixtures.entries);
  github = await startGitHubStandIn(fixtures.repositories, { token: 't' });
});
afterAll(async () => {
  await Promise.all([mcp.close(), registry.close(), github.close()]);
});

async function night(dir: string, probes = true): Promise<RescoreSummary> {
  return rescore({
    ...standInNight({ registryUrl: registry.url, githubUrl: github.url, asOf: AS_OF, dir, registryPolicy: POLICY }),
    probes: probes
      ? { concurrency: 4, allowPrivate: true, allowHttp: true, timeoutMs: PROBE_TIMEOUT_MS, maxBytes: 2 * 1024 * 1024 }
      : undefined,
  });
}

/** The probe flags each kind of server carries when the method scores `<out>` as the build does. */
async function probeFlags(out: string): Promise<Record<string, string[]>> {
  const sources = await loadEvidenceSources({ evidenceDir: path.join(out, 'evidence') });
  const records = JSON.parse(readFileSync(path.join(out, 'servers.json'), 'utf8')) as ServerRecord[];
  const flags: Record<string, string[]> = {};
  for (const record of records) {
    const scored = scoreRecord(record, sources, UNREAD_SOURCES).record;
    flags[kindOf.get(record.name)!] = scored.flags.filter((flag) => PROBE_FLAGS.includes(flag)).sort();
  }
  return flags;
}

const observations = (out: string) =>
  new Map(
    ProbeFileSchema.parse(JSON.parse(readFileSync(path.join(out, 'evidence', 'probes.json'), 'utf8'))).observations.map(
      (observation) => [kindOf.get(observation.name)!, observation],
    ),
  );

describe('two nights of rescoring with the probe step', () => {
  it('gives each probe flag exactly where expected, and continues only its own observations', async () => {
    const dir = await makeTempDir('probe-nights-');
    const out = path.join(dir, 'out');
    // A third party saw the hanging server down: its observation is shown until replaced, never continued.
    const hangName = [...kindOf].find(([, kind]) => kind === 'hang')![0];
    const theirs: ProbeFile = {
      by: 'A prober (test), July 2026',
      third_party: true,
      observations: [
        {
          name: hangName,
          reachable: false,
          auth: null,
          tool_count: null,
          transport: 'streamable-http',
          probed_at: '2026-07-24T19:46:10.788Z',
        },
      ],
    };
    mkdirSync(path.join(out, 'evidence'), { recursive: true });
    writeFileSync(path.join(out, 'evidence', 'probes.json'), JSON.stringify(theirs));

    mcp.night = 1;
    const first = await night(dir);
    expect(first.probes).toMatchObject({ probed: 9, reachable: 7, open: 5, oauth: 1, bare401: 1, toolsChanged: 0 });
    expect(first.probes?.failures).toEqual({ timeout: 1, address: 1, 'too-large': 1 });
    expect(await probeFlags(out)).toEqual({
      open: [],
      oauth: [],
      bare: [],
      sse: ['SSE_ONLY'],
      changing: [],
      poisoned: ['TOOL_INSTRUCTIONS'],
      hang: [],
      huge: [],
      redirect: [],
      local: [],
    });
    const seen = observations(out);
    // The bounds, not the wall clock: the hanging remote was cut by the per-server deadline, the flood by the budget.
    expect(seen.get('hang')).toMatchObject({ reachable: false, failure: 'timeout', consecutive_failures: 1 });
    expect(seen.get('huge')).toMatchObject({ reachable: true, auth: 'open', failure: 'too-large', tool_count: null });
    expect(seen.get('redirect')).toMatchObject({ reachable: false, failure: 'address' });
    expect(seen.get('sse')).toMatchObject({ reachable: true, transport: 'sse' });
    expect(seen.get('oauth')).toMatchObject({ auth: 'oauth', tool_count: null, tools_hash: null });
    expect(seen.get('open')).toMatchObject({ auth: 'open', tool_count: 3, server_info: { name: 'standin' } });
    const tools = ToolsFileSchema.parse(JSON.parse(readFileSync(path.join(out, 'evidence', 'tools.json'), 'utf8')));
    expect(tools).toMatchObject({ by: PROBES_BY, third_party: false });
    expect(tools.servers.map((server) => kindOf.get(server.name)).sort()).toEqual([
      'changing',
      'open',
      'poisoned',
      'sse',
    ]);
    expect(mcp.credentialsSeen).toBe(0);

    mcp.night = 2;
    const second = await night(dir);
    expect(second.probes).toMatchObject({ probed: 9, toolsChanged: 1 });
    expect(await probeFlags(out)).toEqual({
      open: [],
      oauth: [],
      bare: [],
      sse: ['SSE_ONLY'],
      changing: ['TOOLS_CHANGED'],
      poisoned: ['TOOL_INSTRUCTIONS'],
      hang: ['REMOTE_UNREACHABLE'],
      huge: [],
      redirect: ['REMOTE_UNREACHABLE'],
      local: [],
    });
    const again = observations(out);
    expect(again.get('hang')).toMatchObject({ failure: 'timeout', consecutive_failures: 2 });
    expect(again.get('changing')?.tools_changed_at).toBe(again.get('changing')?.probed_at);
    expect(again.get('open')).toMatchObject({ consecutive_failures: 0, tools_changed_at: null });

    // A night without the probe step leaves the evidence in <out> as it was.
    const before = readFileSync(path.join(out, 'evidence', 'probes.json'), 'utf8');
    const skipped = await night(dir, false);
    expect(skipped.probes).toBeUndefined();
    expect(readFileSync(path.join(out, 'evidence', 'probes.json'), 'utf8')).toBe(before);
  }, 120_000);
});

describe('npm run rescore and the probe step', () => {
  it('says --no-probe in its usage, probes with the test permissions, and sums the probes up', async () => {
    const help = await runRescore(['--help']);
    expect(help.stdout).toMatch(/--no-probe/);
    const dir = await makeTempDir('probe-cli-');
    const out = path.join(dir, 'out');
    const args = [
      ...standInArgs({
        registryUrl: registry.url,
        githubUrl: github.url,
        asOf: AS_OF,
        cache: path.join(dir, 'c'),
      }).filter((arg) => arg !== '--no-probe'),
      '--out',
      out,
      '--probe-timeout',
      '1.5s',
    ];
    const previous = { ...process.env };
    process.env.PROBES_ALLOW_PRIVATE = '1';
    process.env.PROBES_ALLOW_HTTP = '1';
    let run;
    try {
      run = await runRescore(args, { token: 't' });
    } finally {
      process.env = previous;
    }
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/; probes: 9 remotes, 7 reachable \(5 open, 1 OAuth, 1 bare 401\), 0 changed tools/);
    expect(run.stdout).toMatch(/failed: 1 address, 1 timeout, 1 too-large/);

    // Without the permissions, every remote on 127.0.0.1 over http is refused before any request.
    const strict = await runRescore([...args, '--out', path.join(dir, 'strict')], { token: 't' });
    expect(strict.code).toBe(0);
    expect(strict.stdout).toMatch(/; probes: 9 remotes, 0 reachable .*failed: 9 url/);
  }, 120_000);
});
