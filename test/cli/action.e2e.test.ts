/**
 * The GitHub Action (`action.yml`): its inputs mirror the CLI's options, and its script, run by bash as the
 * runner runs it with the inputs as environment variables, passes them to the CLI and reports its exit code.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CHECK_USAGE } from '../../src/cli/check.js';
import { REPO, type ServerProcess, startServer } from '../e2e/process.js';

interface Action {
  inputs: Record<string, { required: boolean; default?: string }>;
  runs: { using: string; steps: { id?: string; run: string; env?: Record<string, string> }[] };
}

const KEY = 'action-test-key-0123456789';
let action: Action;
let server: ServerProcess;
let dir: string;

beforeAll(async () => {
  action = parse(await readFile(path.join(REPO, 'action.yml'), 'utf8')) as Action;
  dir = await mkdtemp(path.join(tmpdir(), 'mts-action-'));
  server = await startServer({ API_KEYS: KEY, KEYS_FILE: path.join(dir, 'keys.json'), FREE_DAILY_LIMIT: '1000' });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** Run the check step's script with bash, inputs given as the runner gives them (environment variables). */
function runStep(inputs: Record<string, string>, cwd: string) {
  const step = action.runs.steps.find((candidate) => candidate.id === 'check');
  if (step === undefined) throw new Error('action.yml has no step with id "check"');
  // The install step (tested from a packed tarball in test/e2e/pack.test.ts) leaves the installed bin here.
  const bin = path.join(REPO, 'bin', 'mcp-trust-score.js');
  const output = path.join(dir, `output-${Math.random().toString(36).slice(2)}`);
  const defaults = Object.fromEntries(
    Object.entries(action.inputs).map(([name, input]) => [name, input.default ?? '']),
  );
  const values = { ...defaults, ...inputs };
  const env: Record<string, string> = {
    ...process.env,
    GITHUB_OUTPUT: output,
    MCP_TRUST_SCORE_BIN: bin,
  } as Record<string, string>;
  for (const name of ['TRUST_API_URL', 'TRUST_API_KEY']) delete env[name];
  for (const [name, expression] of Object.entries(step.env ?? {})) {
    const input = /\$\{\{ inputs\.([a-z-]+) \}\}/.exec(expression)?.[1];
    if (input !== undefined) env[name] = values[input] ?? '';
  }
  const result = spawnSync('bash', ['-e', '-c', step.run], { cwd, env, encoding: 'utf8', timeout: 60_000 });
  return { ...result, output };
}

describe('action.yml', () => {
  it('is a composite action whose inputs mirror the CLI options', () => {
    expect(action.runs.using).toBe('composite');
    for (const option of [
      'min-score',
      'deny-flags',
      'require-verified',
      'unknown',
      'strict',
      'policy',
      'allow',
      'format',
      'output',
    ]) {
      expect(Object.keys(action.inputs)).toContain(option);
      expect(CHECK_USAGE).toContain(`--${option}`);
    }
    // Offline by default: the API's address and key are for a live check only.
    expect(action.inputs['api-key']?.required).toBe(false);
    expect(action.inputs['api-url']?.required).toBe(false);
  });

  it('installs the published package, not the repository and its development dependencies', () => {
    const install = action.runs.steps.find((candidate) => candidate.id === 'install-checker');
    expect(install?.run).toMatch(/npm install --prefix "\$INSTALL_DIR" .*-- "\$spec"/);
    expect(install?.run).toContain('mcp-trust-score@$(node -p');
    expect(action.runs.steps.map((step) => step.run).join('\n')).not.toMatch(/npm ci/);
  });

  it('checks offline when no api-url is given, saying so in the report', () => {
    const run = runStep({ 'min-score': '80', format: 'text' }, path.join(REPO, 'test/fixtures/cli/pass'));
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Verdict: PASS/);
    expect(run.stdout).toMatch(/Data: offline data, scored /);
  });

  it('runs the check with the inputs and fails the step on a fail, recording the exit code', async () => {
    const base = { 'api-key': KEY, 'api-url': `${server.base}/v1` };
    const pass = runStep({ ...base, 'min-score': '80', format: 'text' }, path.join(REPO, 'test/fixtures/cli/pass'));
    expect(pass.status, pass.stderr).toBe(0);
    expect(pass.stdout).toMatch(/Verdict: PASS/);
    expect(await readFile(pass.output, 'utf8')).toBe('exit-code=0\n');

    const sarif = path.join(dir, 'results.sarif');
    const fail = runStep(
      {
        ...base,
        'min-score': '60',
        'deny-flags': 'SENSITIVE_CRED_REQUEST',
        format: 'sarif',
        output: sarif,
        files: '.mcp.json',
      },
      path.join(REPO, 'test/fixtures/cli/fail'),
    );
    expect(fail.status, fail.stderr).toBe(1);
    expect(await readFile(fail.output, 'utf8')).toBe('exit-code=1\n');
    expect((JSON.parse(await readFile(sarif, 'utf8')) as { version: string }).version).toBe('2.1.0');
  });

  it('stops with exit code 2 on a misspelt deny-flags input, naming the flag it meant', () => {
    const run = runStep(
      { 'api-key': KEY, 'api-url': `${server.base}/v1`, 'deny-flags': 'NO_SOURCES' },
      path.join(REPO, 'test/fixtures/cli/pass'),
    );
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr.trim()).toMatch(
      /^--deny-flags names a flag no scored server has ever carried: "NO_SOURCES" \(did you mean NO_SOURCE\?\)/,
    );
  });

  it('passes strict, allow and a policy file on to the check', async () => {
    const cwd = path.join(REPO, 'test/fixtures/cli/seven');
    const relaxed = runStep({ format: 'text' }, cwd);
    expect(relaxed.status, relaxed.stdout).toBe(0);
    const strict = runStep({ format: 'text', strict: 'true' }, cwd);
    expect(strict.status).toBe(1);
    const allowed = runStep(
      {
        format: 'text',
        strict: 'true',
        allow:
          'npm:@modelcontextprotocol/server-filesystem npm:@playwright/mcp pypi:mcp-server-fetch io.github.upstash/context7',
      },
      cwd,
    );
    expect(allowed.status, allowed.stdout).toBe(0);
    const file = path.join(dir, 'strict-policy.json');
    await writeFile(file, '{"strict": true}');
    const fromFile = runStep({ format: 'text', policy: file }, cwd);
    expect(fromFile.status).toBe(1);
    expect(fromFile.stdout).toMatch(/^Policy file: .*strict-policy\.json$/m);
  });
});
