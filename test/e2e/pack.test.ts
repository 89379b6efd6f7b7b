/**
 * The package as a user gets it: `npm pack`, the tarball installed into an empty folder from the npm cache,
 * and there, with no TRUST_API_URL and HOME at a fixture tree of eleven clients' user-level configurations,
 * the installed `check --user` gives the verdicts the live API gives for the same entries, and the installed MCP server lists its four tools and
 * answers offline. The tarball holds the bin, dist/, the embedded snapshot and the user's docs, nothing else.
 * The installed `update`, against the stand-in bundle host: a newer signed snapshot installed and then reported
 * by `check`; every bad bundle refused in one line (exit 2) with the held snapshot still answering; with no
 * trusted key no connection; and `check --offline` opens no socket (a preload that fails every connect).
 */
import { spawn, spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerRecord } from '../../src/model/schema.js';
import { REPO, type ServerProcess, startServer } from './process.js';
import { recordForModel } from '../../src/mcp/publisher-values.js';
import { BUNDLE_SIGNATURE_FILE } from '../../src/format/snapshot-bundle.js';
import { newSigningKey, signingKeyOf, writeSnapshotBundle } from '../../src/publish/sign-bundle.js';
import { RECORDS } from '../gateway/harness.js';
import { startBundleStandin, type BundleStandin } from '../support/bundle-standin.js';
import { buildTestSnapshot, makeRecord } from '../support/records.js';

const KEY = 'pack-e2e-key-0123456789';
const FIXTURE = path.join(REPO, 'test', 'fixtures', 'cli', 'fail');
/** A home folder with the user-level configurations of eleven MCP clients (test/fixtures/cli/README.md). */
const HOME = path.join(REPO, 'test', 'fixtures', 'cli', 'user-home');

interface PackedFile {
  path: string;
  size: number;
}
interface Packed {
  filename: string;
  size: number;
  entryCount: number;
  files: PackedFile[];
}

let dir: string;
let project: string;
let packed: Packed;
let server: ServerProcess;
/** What `npm install` of the tarball printed on stderr. */
let installWarnings = '';

/**
 * The environment of a user with no setting of the checker and HOME at the fixture tree (npm's cache and logs
 * kept apart, so nothing is written there).
 */
function userEnv(): Record<string, string> {
  const env = { ...process.env } as Record<string, string>;
  for (const name of ['TRUST_API_URL', 'TRUST_API_KEY', 'TRUST_API_TIMEOUT_MS', 'XDG_CONFIG_HOME']) delete env[name];
  return {
    ...env,
    HOME,
    USERPROFILE: HOME,
    APPDATA: path.join(HOME, 'AppData', 'Roaming'),
    npm_config_cache: path.join(dir, 'npx-cache'),
  };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mts-pack-'));
  project = path.join(dir, 'project');
  await mkdir(project);
  // The global setup ran what `prepack` runs (compile, embed); packing again here would rewrite dist/ under
  // the other tests' feet, so the scripts are skipped and the test below holds `prepack` to those commands.
  const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (pack.status !== 0) throw new Error(`npm pack failed:\n${pack.stderr}`);
  packed = (JSON.parse(pack.stdout) as Packed[])[0]!;
  await writeFile(path.join(project, 'package.json'), '{ "name": "a-project", "private": true }\n');
  // From the npm cache: the tarball's dependencies are those `npm ci` put there; npm asks the registry only
  // for what the cache lacks (a fresh cache may lack their metadata, which `npm ci` does not fetch).
  const install = spawnSync(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', path.join(dir, packed.filename)],
    { cwd: project, encoding: 'utf8', timeout: 240_000 },
  );
  if (install.status !== 0) throw new Error(`npm install of the tarball failed:\n${install.stderr}`);
  installWarnings = install.stderr;
  await cp(FIXTURE, project, { recursive: true });
  server = await startServer({ API_KEYS: KEY, KEYS_FILE: path.join(dir, 'keys.json'), FREE_DAILY_LIMIT: '100000' });
}, 400_000);

afterAll(async () => {
  await server?.stop();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('installs on this Node with no dependency asking for another (npm warns EBADENGINE)', () => {
    // The package supports Node 20 (`engines`); what only the repository's scripts use (Octokit, whose
    // request library asks for Node 22) is a development dependency, never installed with the package.
    expect(installWarnings).not.toMatch(/EBADENGINE/);
    expect(existsSync(path.join(project, 'node_modules', '@octokit'))).toBe(false);
  });

  it('ships the bin, dist/, the embedded snapshot and the user docs, nothing else', async () => {
    const files = packed.files.map((file) => file.path);
    const allowed =
      /^(bin\/mcp-trust-score\.js|dist\/[^/]+\.(mjs|cjs)|embedded-snapshot\/[^/]+|docs\/(ci|mcp)\.md|README\.md|package\.json)$/;
    expect(files.filter((file) => !allowed.test(file))).toEqual([]);
    for (const file of ['bin/mcp-trust-score.js', 'dist/cli.mjs', 'dist/mcp.mjs', 'embedded-snapshot/manifest.json']) {
      expect(files).toContain(file);
    }
    // Every artifact the manifest lists (and so the loader checks by its hash) is in the tarball.
    const manifest = JSON.parse(await readFile(path.join(REPO, 'embedded-snapshot', 'manifest.json'), 'utf8')) as {
      files: Record<string, unknown>;
    };
    for (const name of Object.keys(manifest.files)) expect(files).toContain(`embedded-snapshot/${name}`);
    const scripts = JSON.parse(await readFile(path.join(REPO, 'package.json'), 'utf8')) as {
      private?: boolean;
      scripts: Record<string, string>;
    };
    expect(scripts.private).toBeUndefined();
    expect(scripts.scripts.prepack).toBe('node scripts/compile.mjs && npm run embed');
  });

  it('installs without a TypeScript loader and runs compiled JavaScript only', async () => {
    const installed = path.join(project, 'node_modules', 'mcp-trust-score');
    expect(existsSync(path.join(project, 'node_modules', 'tsx'))).toBe(false);
    expect(existsSync(path.join(installed, 'src'))).toBe(false);
    const bin = await readFile(path.join(installed, 'bin', 'mcp-trust-score.js'), 'utf8');
    expect(bin).not.toMatch(/tsx|\.ts['"`]/);
    // JavaScript only: the ES modules and `npm start`'s CommonJS bundle, never the code cache a start on the packing
    // machine wrote beside it (V8's compiled code for that machine's Node).
    expect((await readdir(path.join(installed, 'dist'))).every((file) => /\.(mjs|cjs)$/.test(file))).toBe(true);
  });

  it('checks offline with npx, the user-level files too, and gives the live API’s verdicts for the same entries', () => {
    const offline = spawnSync('npx', ['--offline', 'mcp-trust-score', 'check', '--user', '--format', 'json'], {
      cwd: project,
      env: userEnv(),
      encoding: 'utf8',
      timeout: 60_000,
    });
    // The fixture home's broken Continue block cannot be read: the check says so and exits 2 (never a pass).
    const unread = /^could not read ~\/\.continue\/mcpServers\/broken\.yaml: the check is incomplete \(exit 2\)\n$/;
    expect(offline.stderr).toMatch(unread);
    expect(offline.status).toBe(2);
    const live = spawnSync(
      process.execPath,
      [path.join(REPO, 'bin', 'mcp-trust-score.js'), 'check', '--user', '--format', 'json'],
      {
        cwd: project,
        env: { ...userEnv(), TRUST_API_URL: server.base, TRUST_API_KEY: KEY },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(live.stderr).toMatch(unread);
    interface Answer {
      verdict: string;
      notice?: string;
      files: { file: string; client: string; read: boolean }[];
      results: { file: string; verdict: string }[];
    }
    const mine = JSON.parse(offline.stdout) as Answer;
    const theirs = JSON.parse(live.stdout) as Answer;
    // The four project files, and the user-level files of at least six clients, each read.
    const clients = new Set(
      mine.files.filter((file) => file.read && file.client !== 'project').map((file) => file.client),
    );
    expect(clients.size).toBeGreaterThanOrEqual(6);
    expect(mine.files.filter((file) => file.client === 'project')).toHaveLength(4);
    expect(mine.results.length).toBeGreaterThan(8);
    expect(mine.files).toEqual(theirs.files);
    expect(mine.results).toEqual(theirs.results);
    expect(mine.verdict).toBe(theirs.verdict);
    expect(offline.status).toBe(live.status);
    expect(mine.notice).toMatch(/^offline data, scored \d{4}-\d{2}-\d{2} \(\d+ days? old[^)]*\); /);
  });

  it('answers --help and --version from the installed bin', () => {
    const help = spawnSync('npx', ['--offline', 'mcp-trust-score', '--help'], {
      cwd: project,
      env: userEnv(),
      encoding: 'utf8',
    });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: mcp-trust-score/);
    const version = spawnSync('npx', ['--offline', 'mcp-trust-score', '--version'], {
      cwd: project,
      env: userEnv(),
      encoding: 'utf8',
    });
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('runs the installed MCP server offline: four tools, and check_server_trust answered from the package', async () => {
    const transport = new StdioClientTransport({
      command: 'npx',
      args: ['--offline', 'mcp-trust-score'],
      env: userEnv(),
      cwd: project,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'pack-e2e', version: '1.0.0' });
    await client.connect(transport);
    try {
      const tools = (await client.listTools()).tools.map((tool) => tool.name).sort();
      expect(tools).toEqual(['check_server_trust', 'get_ecosystem_stats', 'list_servers', 'search_servers']);
      const result = await client.callTool({
        name: 'check_server_trust',
        arguments: { name: 'io.github.github/github-mcp-server' },
      });
      expect(result.isError).toBeFalsy();
      const response = await fetch(`${server.base}/v1/servers/io.github.github/github-mcp-server`, {
        headers: { 'X-API-Key': KEY },
      });
      // What reaches a model: the record with publisher text withheld or checked (src/mcp/publisher-values.ts).
      const record = ((await response.json()) as { data: ServerRecord }).data;
      expect(result.structuredContent).toEqual(recordForModel(record));
      const text = (result.content as { text: string }[]).map((part) => part.text).join('\n');
      expect(text).toContain('offline data, scored ');
    } finally {
      await client.close();
    }
  });
});

describe('the packed package’s update, against the stand-in bundle host', () => {
  const DAY = 86_400_000;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const signer = newSigningKey(new Date(Date.now() - 30 * DAY));
  const retiredSigner = newSigningKey(new Date(Date.now() - 30 * DAY));
  /** Scored after the packed snapshot (built from data/ before now), the newest after that. */
  const newerScored = Date.now() - 2 * DAY;
  const newestScored = Date.now() - DAY;
  let work: string;
  let keysFile: string;
  let cache: string;
  let bundles: Record<string, string>;
  const hosts: BundleStandin[] = [];

  async function bundleOf(scored: number, name: string, key = signer) {
    const snapshot = await buildTestSnapshot([
      ...RECORDS,
      makeRecord({ name: `org.update/${name}`, scored_at: new Date(scored).toISOString() }),
    ]);
    const out = path.join(work, 'bundles', name);
    await writeSnapshotBundle(snapshot, out, signingKeyOf(key.privateKeyPem));
    await rm(path.dirname(snapshot), { recursive: true, force: true });
    return out;
  }

  async function host(dir: string, options: Parameters<typeof startBundleStandin>[1] = {}) {
    const started = await startBundleStandin(dir, options);
    hosts.push(started);
    return started;
  }

  /**
   * The installed bin run with node directly, with the update's settings; asynchronously, since the stand-in
   * answers from this process.
   */
  function installed(
    args: string[],
    env: Record<string, string> = {},
  ): Promise<{ status: number | null; stdout: string; stderr: string }> {
    const child = spawn(
      process.execPath,
      [path.join(project, 'node_modules', 'mcp-trust-score', 'bin', 'mcp-trust-score.js'), ...args],
      {
        cwd: project,
        env: {
          ...userEnv(),
          MCP_TRUST_SCORE_CACHE: cache,
          TRUST_SNAPSHOT_ALLOW_HTTP: 'true',
          TRUST_SNAPSHOT_ALLOW_PRIVATE: 'true',
          TRUST_SNAPSHOT_UPDATE_TIMEOUT_MS: '1500',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    return new Promise((resolve) => child.once('close', (status) => resolve({ status, stdout, stderr })));
  }

  /** The data line of the installed `check --offline`: which snapshot answers. */
  async function heldNotice(env: Record<string, string> = {}): Promise<string> {
    const check = await installed(['check', '--offline', '--format', 'json'], {
      TRUST_SNAPSHOT_KEYS: keysFile,
      ...env,
    });
    expect(check.stderr).toBe('');
    return (JSON.parse(check.stdout) as { notice: string }).notice;
  }

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mts-pack-update-'));
    cache = path.join(work, 'cache');
    keysFile = path.join(work, 'test-keys.json');
    // Trusted in addition to the shipped keys (TRUST_SNAPSHOT_KEYS, docs/snapshot.md): the test key, and one
    // retired yesterday.
    await writeFile(
      keysFile,
      JSON.stringify({
        bundle_url: null,
        keys: [signer.trusted, { ...retiredSigner.trusted, not_after: new Date(Date.now() - DAY).toISOString() }],
      }),
    );
    bundles = {
      newer: await bundleOf(newerScored, 'newer'),
      newest: await bundleOf(newestScored, 'newest'),
      older: await bundleOf(Date.parse('2020-01-01T00:00:00Z'), 'older'),
      retired: await bundleOf(newestScored, 'retired', retiredSigner),
    };
    for (const spoiled of ['tampered', 'bad-signature', 'truncated', 'hanging']) {
      await cp(bundles.newest!, path.join(work, 'bundles', spoiled), { recursive: true });
      bundles[spoiled] = path.join(work, 'bundles', spoiled);
    }
    await writeFile(path.join(bundles.tampered!, 'stats.json'), '{"tampered":true}');
    await writeFile(
      path.join(bundles['bad-signature']!, BUNDLE_SIGNATURE_FILE),
      `${Buffer.alloc(64, 1).toString('base64')}\n`,
    );
  }, 120_000);

  afterAll(async () => {
    for (const started of hosts) await started.close();
    if (work !== undefined) await rm(work, { recursive: true, force: true });
  });

  it('with no trusted key (the shipped list is empty), says so in one line, exit 2, and connects nowhere', async () => {
    const standin = await host(bundles.newer!);
    const url = `${standin.url}/snapshot-bundle/`;
    const update = await installed(['update', '--from', url]);
    expect(update.status).toBe(2);
    expect(update.stderr).toMatch(/^update failed: this mcp-trust-score trusts no snapshot signing key yet [^\n]*\n$/);
    // Old data by the bound, a URL set, and still no automatic update without a key.
    const check = await installed(['check', '--format', 'json'], {
      TRUST_SNAPSHOT_URL: url,
      TRUST_SNAPSHOT_MAX_AGE_DAYS: '0',
    });
    expect((JSON.parse(check.stdout) as { notice: string }).notice).toMatch(/^offline data, scored /);
    expect(standin.connections()).toBe(0);
  });

  it('installs a newer signed snapshot with update --from, and check then reports its date', async () => {
    const standin = await host(bundles.newer!);
    const update = await installed(['update', '--from', `${standin.url}/snapshot-bundle/`], {
      TRUST_SNAPSHOT_KEYS: keysFile,
    });
    expect(update.stderr).toBe('');
    expect(update.status).toBe(0);
    expect(update.stdout).toMatch(new RegExp(`^updated to [0-9a-f]+, scored ${day(newerScored)}\\n$`));
    expect(await heldNotice()).toMatch(
      new RegExp(`^offline data, scored ${day(newerScored)} \\(2 days old, from mcp-trust-score update\\)`),
    );
  });

  const refusals: [string, Parameters<typeof startBundleStandin>[1], RegExp][] = [
    ['tampered', {}, /^update failed: stats\.json: /],
    ['bad-signature', {}, /^update failed: the bundle signature does not verify$/],
    ['truncated', { truncate: 'records.ndjson' }, /^update failed: records\.ndjson from \S+: /],
    ['older', {}, /is not newer than the one held/],
    ['retired', {}, /^update failed: the bundle is signed with key [0-9a-f]{16}, retired on /],
    ['hanging', { hang: true }, /^update failed: bundle-index\.json from \S+: no answer within 1500 ms$/],
  ];
  for (const [name, options, message] of refusals) {
    it(`refuses the ${name} bundle in one line, exit 2, and the held snapshot keeps answering`, async () => {
      const standin = await host(bundles[name]!, options);
      const update = await installed(['update', '--from', `${standin.url}/snapshot-bundle/`], {
        TRUST_SNAPSHOT_KEYS: keysFile,
      });
      expect(update.status).toBe(2);
      expect(update.stdout).toBe('');
      const lines = update.stderr.split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(message);
      expect(await heldNotice()).toMatch(new RegExp(`^offline data, scored ${day(newerScored)} `));
    });
  }

  it('check --offline opens no socket, though its data is old and a bundle URL is set (a planted connect is caught)', async () => {
    const standin = await host(bundles.newest!);
    const log = path.join(work, 'sockets.log');
    const preload = path.join(work, 'no-sockets.cjs');
    // Every socket connect, whatever opens it (http, fetch, net), is written down and fails.
    await writeFile(
      preload,
      [
        "const net = require('node:net');",
        "const fs = require('node:fs');",
        'net.Socket.prototype.connect = function () {',
        `  fs.appendFileSync(${JSON.stringify(log)}, 'connect\\n');`,
        "  throw new Error('no socket may be opened');",
        '};',
      ].join('\n'),
    );
    const env = {
      NODE_OPTIONS: `--require ${preload}`,
      TRUST_SNAPSHOT_KEYS: keysFile,
      TRUST_SNAPSHOT_URL: `${standin.url}/snapshot-bundle/`,
      TRUST_SNAPSHOT_MAX_AGE_DAYS: '0',
    };
    const offline = await installed(['check', '--offline', '--format', 'json'], env);
    expect(offline.stderr).toBe('');
    expect((JSON.parse(offline.stdout) as { notice: string }).notice).toMatch(
      new RegExp(`^offline data, scored ${day(newerScored)} `),
    );
    const viaEnv = await installed(['check', '--format', 'json'], { ...env, TRUST_OFFLINE: '1' });
    expect(viaEnv.stdout).toBe(offline.stdout);
    expect(existsSync(log)).toBe(false);
    // The planted case: the same check without --offline tries its one update, and the preload catches it.
    await installed(['check', '--format', 'json'], env);
    expect(await readFile(log, 'utf8')).toMatch(/^connect\n/);
    expect(standin.connections()).toBe(0);
  });
});
