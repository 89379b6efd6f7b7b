/**
 * The embedded default: with no TRUST_API_URL the checker and the MCP server answer from the snapshot shipped
 * in the package (built from the committed dataset by `npm run embed`), in process, and give the verdicts and
 * records the live API gives for the same dataset, here `npm start`'s server on it, run as a real process.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiBaseUrl } from '../../src/client/config.js';
import type { ServerRecord } from '../../src/model/schema.js';
import { REPO, type ServerProcess, startServer } from '../e2e/process.js';

const KEY = 'offline-e2e-key-0123456789';
const BIN = path.join(REPO, 'bin', 'mcp-trust-score.js');
const FIXTURES = path.join(REPO, 'test', 'fixtures', 'cli');
const NOTICE =
  /^offline data, scored \d{4}-\d{2}-\d{2} \(\d+ days? old[^)]*\); set TRUST_API_URL and TRUST_API_KEY for live scores$/;
let server: ServerProcess;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mts-offline-'));
  server = await startServer({ API_KEYS: KEY, KEYS_FILE: path.join(dir, 'keys.json'), FREE_DAILY_LIMIT: '100000' });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** The environment without any of the checker's settings, plus `env`. */
function envWith(env: Record<string, string> = {}): Record<string, string> {
  const clean = { ...process.env } as Record<string, string>;
  for (const name of ['TRUST_API_URL', 'TRUST_API_KEY', 'TRUST_API_TIMEOUT_MS']) delete clean[name];
  return { ...clean, ...env };
}

function run(args: string[], cwd: string, env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: envWith(env),
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The live API, given as people write it: the address alone, without `/v1`. */
const live = () => ({ TRUST_API_URL: server.base, TRUST_API_KEY: KEY });

describe('mcp-trust-score check with no TRUST_API_URL', () => {
  const policies = [
    [],
    ['--min-score', '60', '--deny-flags', 'SENSITIVE_CRED_REQUEST'],
    ['--require-verified', '--unknown', 'warn'],
  ];
  for (const fixture of ['pass', 'fail']) {
    for (const policy of policies) {
      it(`gives the live API's verdicts for ${fixture}/ with [${policy.join(' ')}]`, () => {
        const cwd = path.join(FIXTURES, fixture);
        const offline = run(['check', '--format', 'json', ...policy], cwd);
        const online = run(['check', '--format', 'json', ...policy], cwd, live());
        expect(offline.stderr).toBe('');
        expect(online.stderr).toBe('');
        expect(offline.status).toBe(online.status);
        const a = JSON.parse(offline.stdout) as { verdict: string; notice?: string; results: unknown[] };
        const b = JSON.parse(online.stdout) as { verdict: string; notice?: string; results: unknown[] };
        expect(a.results.length).toBeGreaterThan(0);
        expect(a.results).toEqual(b.results);
        expect(a.verdict).toBe(b.verdict);
        expect(a.notice).toMatch(NOTICE);
        expect(b.notice).toBeUndefined();
      });
    }
  }

  it('says in every format that its data is offline, and the live reports do not', () => {
    const cwd = path.join(FIXTURES, 'fail');
    const text = run(['check'], cwd);
    expect(text.stdout).toMatch(
      /\nData: offline data, scored \d{4}-\d{2}-\d{2} \(\d+ days? old[^)]*\); set TRUST_API_URL and TRUST_API_KEY/,
    );
    const github = run(['check', '--format', 'github'], cwd);
    expect(github.stdout).toMatch(/^::notice title=MCP trust data::offline data, scored /m);
    const sarif = JSON.parse(run(['check', '--format', 'sarif'], cwd).stdout) as {
      runs: { properties?: { notice?: string } }[];
    };
    expect(sarif.runs[0]?.properties?.notice).toMatch(NOTICE);
    for (const format of ['text', 'github', 'sarif', 'json']) {
      expect(run(['check', '--format', format], cwd, live()).stdout).not.toContain('offline data');
    }
  });
});

describe('the command line', () => {
  const version = JSON.parse(
    spawnSync('npm', ['pkg', 'get', 'version'], { cwd: REPO, encoding: 'utf8' }).stdout,
  ) as string;

  it('prints help and the version for the bin and for check, and exits 0', () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const help = run(args, tmpdir());
      expect(help.status).toBe(0);
      expect(help.stdout).toMatch(/^usage: mcp-trust-score \[command\]/);
      expect(help.stdout).toContain('check [files...]');
    }
    const checkHelp = run(['check', '--help'], tmpdir());
    expect(checkHelp.status).toBe(0);
    expect(checkHelp.stdout).toMatch(/^usage: mcp-trust-score check \[files\.\.\.\] \[options\]/);
    expect(run(['mcp', '--help'], tmpdir()).stdout).toContain('check_server_trust');
    for (const args of [['--version'], ['-v'], ['check', '--version']]) {
      const shown = run(args, tmpdir());
      expect(shown.status).toBe(0);
      expect(shown.stdout).toBe(`${version}\n`);
    }
  });

  it('refuses an unknown option or command in one line with exit code 2', () => {
    const cases: [string[], string][] = [
      [['--frobnicate'], 'unknown option "--frobnicate"; see mcp-trust-score --help'],
      [['chek'], 'unknown command "chek"; see mcp-trust-score --help'],
      [['check', '--json'], 'unknown option "--json" for check; see mcp-trust-score check --help'],
      [['mcp', '--port', '3'], 'mcp takes no options (got "--port"); see mcp-trust-score mcp --help'],
    ];
    for (const [args, line] of cases) {
      const refused = run(args, path.join(FIXTURES, 'pass'));
      expect(refused.status, args.join(' ')).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toBe(`${line}\n`);
    }
  });

  it('takes TRUST_API_URL with or without /v1', () => {
    expect(apiBaseUrl('https://trust.example.com')).toBe('https://trust.example.com/v1');
    expect(apiBaseUrl('https://trust.example.com/')).toBe('https://trust.example.com/v1');
    expect(apiBaseUrl('https://trust.example.com/v1/')).toBe('https://trust.example.com/v1');
    expect(apiBaseUrl('http://127.0.0.1:3000/v1')).toBe('http://127.0.0.1:3000/v1');
    expect(apiBaseUrl('https://example.com/trust')).toBe('https://example.com/trust/v1');
    const cwd = path.join(FIXTURES, 'pass');
    const withV1 = run(['check', '--format', 'json'], cwd, { ...live(), TRUST_API_URL: `${server.base}/v1/` });
    const without = run(['check', '--format', 'json'], cwd, live());
    expect(withV1.status).toBe(0);
    expect(withV1.stdout).toBe(without.stdout);
  });

  it('asks for the key in one line when TRUST_API_URL is set without one', () => {
    const refused = run(['check'], path.join(FIXTURES, 'pass'), { TRUST_API_URL: server.base });
    expect(refused.status).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain('TRUST_API_KEY is not set');
  });
});

describe('the MCP server with no TRUST_API_URL', () => {
  it('lists its four tools and answers check_server_trust offline with the live API’s record', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN],
      env: envWith(),
      cwd: tmpdir(),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'offline-e2e', version: '1.0.0' });
    await client.connect(transport);
    try {
      const tools = (await client.listTools()).tools.map((tool) => tool.name);
      expect(tools.sort()).toEqual(['check_server_trust', 'get_ecosystem_stats', 'list_servers', 'search_servers']);
      const result = await client.callTool({ name: 'check_server_trust', arguments: { package: 'npm:@azure/mcp' } });
      expect(result.isError).toBeFalsy();
      const response = await fetch(`${server.base}/v1/servers/com.microsoft/azure`, { headers: { 'X-API-Key': KEY } });
      const { description: _publisherText, ...record } = ((await response.json()) as { data: ServerRecord }).data;
      expect(result.structuredContent).toEqual(record);
      const text = (result.content as { type: string; text: string }[]).map((part) => part.text).join('\n');
      expect(text).toContain('package npm:@azure/mcp resolves to com.microsoft/azure');
      expect(text.split('\n').at(-1)).toMatch(
        /^\(offline data, scored \d{4}-\d{2}-\d{2} \(\d+ days? old[^)]*\); set TRUST_API_URL and TRUST_API_KEY for live scores\)$/,
      );
    } finally {
      await client.close();
    }
  });
});
