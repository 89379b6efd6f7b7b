/**
 * The package as a user gets it: `npm pack`, the tarball installed into an empty folder from the npm cache,
 * and there, with no TRUST_API_URL and HOME at a fixture tree of eleven clients' user-level configurations,
 * the installed `check --user` gives the verdicts the live API gives for the same entries, and the installed MCP server lists its four tools and
 * answers offline. The tarball holds the bin, dist/, the embedded snapshot and the user's docs, nothing else.
 */
import { spawnSync } from 'node:child_process';
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
      /^(bin\/mcp-trust-score\.js|dist\/[^/]+\.mjs|embedded-snapshot\/[^/]+|docs\/(ci|mcp)\.md|README\.md|package\.json)$/;
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
    expect((await readdir(path.join(installed, 'dist'))).every((file) => file.endsWith('.mjs'))).toBe(true);
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
