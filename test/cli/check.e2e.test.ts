/**
 * `mcp-trust-score check` as CI runs it: the bin as a child process, real configuration files of the four
 * kinds, the real server on the committed dataset. Every format, exit codes 0, 1 and 2, and SARIF that
 * validates against the SARIF 2.1.0 schema of the standard.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type AjvDraft04 from 'ajv-draft-04';
import type AjvFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, type ServerProcess, startServer } from '../e2e/process.js';

// The validators are CommonJS packages whose `module.exports` is the class (and the function) itself.
const require = createRequire(import.meta.url);
const Ajv = require('ajv-draft-04') as typeof AjvDraft04.default;
const addFormats = require('ajv-formats') as typeof AjvFormats.default;

const KEY = 'cli-e2e-key-0123456789';
const FIXTURES = path.join(REPO, 'test', 'fixtures', 'cli');
const BIN = path.join(REPO, 'bin', 'mcp-trust-score.js');
let server: ServerProcess;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mts-cli-'));
  server = await startServer({ API_KEYS: KEY, KEYS_FILE: path.join(dir, 'keys.json'), FREE_DAILY_LIMIT: '10000' });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** Run the CLI in `cwd` with `args`; the key and URL as a CI job would set them, unless overridden. */
function cli(cwd: string, args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [BIN, 'check', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, TRUST_API_KEY: KEY, TRUST_API_URL: `${server.base}/v1`, ...env },
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('mcp-trust-score check', () => {
  it('passes a configuration of trusted servers with exit code 0', () => {
    const run = cli(path.join(FIXTURES, 'pass'), ['--min-score', '80']);
    expect(run.stderr).toBe('');
    expect(run.status, run.stdout).toBe(0);
    expect(run.stdout).toMatch(
      /^PASS \.mcp\.json:3 azure: npm:@azure\/mcp@latest → com\.microsoft\/azure 97 High Trust$/m,
    );
    expect(run.stdout).toMatch(/Verdict: PASS \(3 servers: 3 pass, 0 warn, 0 fail\)/);
  });

  it('reads the four kinds of configuration file it finds, reports every entry, and fails with exit code 1', () => {
    const run = cli(path.join(FIXTURES, 'fail'), ['--min-score', '60', '--deny-flags', 'SENSITIVE_CRED_REQUEST']);
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(1);
    for (const file of ['.mcp.json', '.vscode/mcp.json', '.cursor/mcp.json', 'claude_desktop_config.json']) {
      expect(run.stdout).toContain(` ${file}:`);
    }
    expect(run.stdout).toMatch(/FAIL \.mcp\.json:7 merchant: npm:mcp-merchant → ai\.shawndurrani\/mcp-merchant 56/);
    expect(run.stdout).toMatch(/carries the flag SENSITIVE_CRED_REQUEST/);
    expect(run.stdout).toMatch(
      /PASS \.vscode\/mcp\.json:6 github-remote: https:\/\/api\.githubcopilot\.com\/mcp\/ → io\.github\.github/,
    );
    // The default policy warns on what it cannot identify or does not know; --strict fails it.
    expect(run.stdout).toMatch(/WARN \.cursor\/mcp\.json:4 local-script: \(not checkable\)/);
    expect(run.stdout).toMatch(/WARN claude_desktop_config\.json:3 unknown-remote: .* → no scored server/);
    expect(run.stdout).toMatch(/Verdict: FAIL \(8 servers: /);
    const strict = cli(path.join(FIXTURES, 'fail'), ['--strict']);
    expect(strict.status, strict.stderr).toBe(1);
    expect(strict.stdout).toMatch(/FAIL \.cursor\/mcp\.json:4 local-script: \(not checkable\)/);
    expect(strict.stdout).toMatch(/FAIL claude_desktop_config\.json:3 unknown-remote: .* → no scored server/);
    expect(strict.stdout).toMatch(/the policy treats unknown servers as "fail" \(strict\)/);
  });

  it('lets --unknown warn keep unknown and uncheckable servers from failing the verdict', () => {
    const run = cli(path.join(FIXTURES, 'fail'), [
      'claude_desktop_config.json',
      '.cursor/mcp.json',
      '--unknown',
      'warn',
    ]);
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/WARN claude_desktop_config\.json:3 unknown-remote/);
  });

  it('writes SARIF 2.1.0 that validates against the standard schema, one rule per kind of reason, located by line', async () => {
    const output = path.join(dir, 'report.sarif');
    const run = cli(path.join(FIXTURES, 'fail'), ['--min-score', '60', '--format', 'sarif', '--output', output]);
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(1);
    expect(run.stdout).toBe('');
    const log = JSON.parse(await readFile(output, 'utf8')) as {
      runs: { tool: { driver: { rules: { id: string }[] } }; results: { ruleId: string; locations: unknown[] }[] }[];
    };
    const schema = JSON.parse(await readFile(path.join(REPO, 'test/fixtures/sarif/sarif-schema-2.1.0.json'), 'utf8'));
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(schema as object);
    expect(validate(log), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const run0 = log.runs[0]!;
    const ruleIds = new Set(run0.tool.driver.rules.map((rule) => rule.id));
    for (const result of run0.results) expect(ruleIds).toContain(result.ruleId);
    expect(run0.results.map((result) => result.ruleId)).toEqual(
      expect.arrayContaining(['mcp-trust/below-min-score', 'mcp-trust/unknown-server', 'mcp-trust/not-checkable']),
    );
    expect(run0.results.find((result) => result.ruleId === 'mcp-trust/not-checkable')?.locations).toEqual([
      { physicalLocation: { artifactLocation: { uri: '.cursor/mcp.json' }, region: { startLine: 4 } } },
    ]);
  });

  it('prints GitHub workflow annotations and JSON', () => {
    const github = cli(path.join(FIXTURES, 'fail'), ['.mcp.json', '--min-score', '60', '--format', 'github']);
    expect(github.status).toBe(1);
    expect(github.stdout).toMatch(/^::error file=\.mcp\.json,line=7,title=MCP trust%3A merchant::trust score 56 /m);
    const json = cli(path.join(FIXTURES, 'pass'), ['--format', 'json']);
    expect(json.status).toBe(0);
    const report = JSON.parse(json.stdout) as {
      verdict: string;
      results: { file: string; line: number; server: string; input: unknown }[];
    };
    expect(report.verdict).toBe('pass');
    // Each package item carries its package URL.
    expect(report.results[0]?.input).toEqual({ package: 'npm:@azure/mcp@latest', purl: 'pkg:npm/%40azure/mcp@latest' });
    expect(report.results.map((result) => [result.line, result.server])).toEqual([
      [3, 'com.microsoft/azure'],
      [7, 'io.github.basicmachines-co/basic-memory'],
      [11, 'io.github.github/github-mcp-server'],
    ]);
  });

  it('exits with 2 for its own errors: a broken file, no file, a bad option, no key, a wrong key, no API', () => {
    const cases: [string, string[], Record<string, string>, RegExp][] = [
      [path.join(FIXTURES, 'broken'), [], {}, /\.mcp\.json: not valid JSON/],
      [dir, [], {}, /no MCP configuration file here/],
      [path.join(FIXTURES, 'pass'), ['--format', 'xml'], {}, /--format must be one of text, json, sarif, github/],
      [
        path.join(FIXTURES, 'pass'),
        ['--deny-flags', 'SENSITIVE_CRED'],
        {},
        /^--deny-flags names a flag no scored server has ever carried: "SENSITIVE_CRED" \(did you mean SENSITIVE_CRED_REQUEST\?\)/,
      ],
      [path.join(FIXTURES, 'pass'), [], { TRUST_API_KEY: '' }, /TRUST_API_KEY is not set/],
      [path.join(FIXTURES, 'pass'), [], { TRUST_API_KEY: 'wrong-key' }, /could not check \(401\)/],
      [path.join(FIXTURES, 'pass'), [], { TRUST_API_URL: 'http://127.0.0.1:9/v1' }, /could not check: Could not reach/],
    ];
    for (const [cwd, args, env, message] of cases) {
      const run = cli(cwd, args, env);
      expect(run.status, `${args.join(' ')} ${JSON.stringify(env)}: ${run.stderr}`).toBe(2);
      expect(run.stderr.trim().split('\n').at(-1)).toMatch(message);
      expect(run.stderr).not.toMatch(/^\s+at /m);
    }
  });

  it('fails a server scored below --min-score, and every format begins with the policy it applied', async () => {
    const folder = path.join(dir, 'very-low');
    await mkdir(folder);
    await writeFile(
      path.join(folder, '.mcp.json'),
      '{"mcpServers": {"perplexity": {"command": "npx", "args": ["-y", "@perplexity-ai/mcp-server"]}}}',
    );
    const policy =
      'fail below trust score 70 (a score resting on too little measured evidence warns instead); ' +
      'fail a server carrying KNOWN_MALICIOUS, REGISTRY_TAKEDOWN (always, allow lists and exceptions included) ' +
      'or VULNERABLE_VERSION; warn on REMOTE_UNREACHABLE, TOOL_INSTRUCTIONS, TOOLS_CHANGED, DEPRECATED; ' +
      'warn on a server that matches no scored server; warn on a server with insufficient evidence';
    const text = cli(folder, ['--min-score', '70']);
    expect(text.status, text.stderr).toBe(1);
    expect(text.stdout.split('\n')[0]).toBe(`Policy: ${policy}`);
    expect(text.stdout).toMatch(
      /^FAIL \.mcp\.json:1 perplexity: npm:@perplexity-ai\/mcp-server → ai\.perplexity\/mcp-server 61 /m,
    );
    expect(text.stdout).toContain("trust score 61 (Moderate Trust) is below the policy's minimum of 70");
    const github = cli(folder, ['--min-score', '70', '--format', 'github']);
    expect(github.stdout.split('\n')[0]).toBe(`MCP trust policy: ${policy}`);
    const json = JSON.parse(cli(folder, ['--min-score', '70', '--format', 'json']).stdout) as Record<string, unknown>;
    expect(Object.keys(json)[0]).toBe('policy');
    expect(json.policy).toEqual({ min_score: 70, text: policy });
    const sarif = JSON.parse(cli(folder, ['--min-score', '70', '--format', 'sarif']).stdout) as {
      runs: Record<string, unknown>[];
    };
    expect(Object.keys(sarif.runs[0]!)[0]).toBe('properties');
    expect(sarif.runs[0]!.properties).toMatchObject({ policy: { min_score: 70, text: policy } });
  });

  it('checks the user-level configurations of eleven clients with --user, listing each file it read or could not', () => {
    const home = path.join(FIXTURES, 'user-home');
    const run = cli(dir, ['--user', '--format', 'json'], {
      HOME: home,
      APPDATA: path.join(home, 'AppData', 'Roaming'),
      XDG_CONFIG_HOME: '',
    });
    // One file could not be read: the check is incomplete, so it exits 2 however the rest was judged.
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/^could not read ~\/\.continue\/mcpServers\/broken\.yaml: the check is incomplete/m);
    const report = JSON.parse(run.stdout) as {
      files: { file: string; read: boolean }[];
      results: { name: string; server: string | null; verdict: string }[];
    };
    expect(report.files.filter((file) => file.read)).toHaveLength(12);
    expect(report.files.filter((file) => !file.read).map((file) => file.file)).toEqual([
      '~/.continue/mcpServers/broken.yaml',
    ]);
    const verdicts = Object.fromEntries(report.results.map((result) => [result.name, [result.server, result.verdict]]));
    expect(verdicts['github-via-proxy']).toEqual(['io.github.github/github-mcp-server', 'pass']);
    // Its repository was never read: a GitHub login and its own entry are all that is known, so context7
    // warns (INSUFFICIENT_EVIDENCE) under the default policy instead of passing or failing.
    expect(verdicts.context7).toEqual(['io.github.upstash/context7', 'warn']);
    expect(verdicts['local-tool']).toEqual([null, 'warn']);
    const text = cli(dir, ['--user'], {
      HOME: home,
      APPDATA: path.join(home, 'AppData', 'Roaming'),
      XDG_CONFIG_HOME: '',
    });
    expect(text.stdout).toMatch(/^Read ~\/\.cursor\/mcp\.json \(Cursor\): 2 servers$/m);
    expect(text.stdout).toMatch(
      /^Could not read ~\/\.continue\/mcpServers\/broken\.yaml \(Continue\): not valid YAML/m,
    );
  });

  it('fails closed with --user when a user-level file cannot be read: exit 2, in every format, naming the file', async () => {
    const home = path.join(dir, 'home-unreadable');
    await mkdir(home, { recursive: true });
    await writeFile(path.join(home, '.claude.json'), '{"mcpServers": {"x": ');
    const env = { HOME: home, APPDATA: '', XDG_CONFIG_HOME: '' };
    for (const format of ['text', 'json', 'sarif']) {
      const run = cli(dir, ['--user', '--format', format], env);
      expect(run.status, `${format}: ${run.stderr}`).toBe(2);
      expect(run.stdout).toContain('.claude.json');
      expect(run.stderr).toMatch(/^could not read ~\/\.claude\.json: the check is incomplete/m);
      if (format === 'json') expect((JSON.parse(run.stdout) as { verdict: string }).verdict).toBe('fail');
    }
  });

  it('exits 2 with --user when neither the folder nor the home holds any configuration, saying where it looked', async () => {
    const home = path.join(dir, 'home-empty');
    await mkdir(home, { recursive: true });
    const empty = path.join(dir, 'cwd-empty');
    await mkdir(empty, { recursive: true });
    const run = cli(empty, ['--user'], { HOME: home, APPDATA: '', XDG_CONFIG_HOME: '' });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^no MCP configuration file here/);
  });
});
