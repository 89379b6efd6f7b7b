/**
 * The checker's policy, end to end and offline (the snapshot shipped in the package): the seven-server
 * configuration under the default policy, policy files kept in the repository, `--allow`, `--strict`, and the
 * reports that carry the policy and the files read.
 */
import { spawnSync } from 'node:child_process';
import { cp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../e2e/process.js';
import { makeTempDir } from '../support/temp.js';

const BIN = path.join(REPO, 'bin', 'mcp-trust-score.js');
const SEVEN = path.join(REPO, 'test', 'fixtures', 'cli', 'seven');
let dir: string;

beforeAll(async () => {
  dir = await makeTempDir('policy-e2e');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function run(args: string[], cwd: string) {
  const env = { ...process.env } as Record<string, string>;
  for (const name of ['TRUST_API_URL', 'TRUST_API_KEY']) delete env[name];
  const result = spawnSync(process.execPath, [BIN, 'check', ...args], { cwd, encoding: 'utf8', env, timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A copy of the seven-server configuration with `files` beside it. */
async function folder(name: string, files: Record<string, string> = {}): Promise<string> {
  const target = path.join(dir, name);
  await cp(SEVEN, target, { recursive: true });
  for (const [file, text] of Object.entries(files)) await writeFile(path.join(target, file), text);
  return target;
}

describe('the default policy on the servers people use', () => {
  it('gives no FAIL to the seven most used servers, and each WARN says what evidence is missing', () => {
    const result = run([], SEVEN);
    expect(result.stderr).toBe('');
    expect(result.status, result.stdout).toBe(0);
    expect(result.stdout).not.toMatch(/^FAIL /m);
    const warnings = result.stdout
      .split('\n')
      .flatMap((line, index, lines) => (line.startsWith('WARN ') ? [lines[index + 1]!] : []));
    expect(warnings.length).toBeGreaterThan(0);
    for (const reason of warnings) expect(reason).toMatch(/no evidence of it was measured|not measured: /);
    expect(result.stdout).toMatch(/^PASS .* notion: https:\/\/mcp\.notion\.com\/mcp → com\.notion\/mcp /m);
  });

  it('fails the servers it does not know, and those known only from a catalog, with --strict', () => {
    const result = run(['--strict'], SEVEN);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/^FAIL .* playwright: npm:@playwright\/mcp@latest → no scored server$/m);
    // A reference server known only from the curators' catalog: matched, and too little measured to pass --strict.
    expect(result.stdout).toMatch(
      /^FAIL .* filesystem: npm:@modelcontextprotocol\/server-filesystem → catalog:reference\/filesystem 0 /m,
    );
  });
});

describe('a policy file in the repository', () => {
  it('is found at the root, applied, and named in every format; the command line overrides its members', async () => {
    const cwd = await folder('yaml', {
      '.mcp-trust.yaml': [
        'min_score: 60',
        'strict: true',
        'allow:',
        '  - npm:@modelcontextprotocol/server-filesystem',
        '  - https://mcp.linear.app/sse',
        'exceptions:',
        '  - package: pypi:mcp-server-fetch',
        '    reason: reviewed by the security team',
        '    until: 2099-12-31',
        '  - package: npm:@playwright/mcp',
        '    reason: trial',
        '    until: 2020-01-01',
        '',
      ].join('\n'),
    });
    const text = run([], cwd);
    expect(text.stdout).toMatch(/^Policy file: \.mcp-trust\.yaml$/m);
    expect(text.stdout).toMatch(/^PASS .* filesystem: .*$/m);
    expect(text.stdout).toMatch(/^PASS .* linear: .*$/m);
    expect(text.stdout).toContain('excepted until 2099-12-31 by the policy: reviewed by the security team');
    expect(text.stdout).toMatch(/^FAIL .* playwright: /m);
    expect(text.stdout).toContain(
      'the exception for npm:@playwright/mcp expired on 2020-01-01 (trial); it no longer applies',
    );
    expect(text.stdout).toMatch(/^FAIL .* context7: .*\n.*below the policy's minimum of 60/m);
    expect(text.status).toBe(1);
    const lowered = run(['--min-score', '0', '--format', 'json'], cwd);
    const json = JSON.parse(lowered.stdout) as { policy: { min_score: number; strict: boolean; file: string } };
    expect(json.policy).toMatchObject({ min_score: 0, strict: true, file: '.mcp-trust.yaml' });
    const sarif = JSON.parse(run(['--format', 'sarif'], cwd).stdout) as {
      runs: { properties: { policy: { file: string; text: string }; files: unknown[]; notice: string } }[];
    };
    // Offline too: one property bag with the policy, the files read and where the scores came from.
    expect(sarif.runs[0]!.properties.policy.file).toBe('.mcp-trust.yaml');
    expect(sarif.runs[0]!.properties.policy.text).toMatch(/^fail below trust score 60; /);
    expect(sarif.runs[0]!.properties.files).toHaveLength(1);
    expect(sarif.runs[0]!.properties.notice).toMatch(/^offline data, scored /);
  });

  it.each([
    [
      '.mcp-trust.json',
      '{"min_score": 40, "colour": "red"}',
      /^\.mcp-trust\.json: policy has a member the check does not know: colour$/,
    ],
    [
      '.mcp-trust.json',
      '{"exceptions": [{"server": "a.b/c", "reason": "x", "until": "soon"}]}',
      /^\.mcp-trust\.json: policy\.exceptions\.0\.until: until must be a date/,
    ],
    [
      '.mcp-trust.json',
      '{"deny_flags": ["MALWARE"]}',
      /^\.mcp-trust\.json: policy\.deny_flags names a flag no scored server has ever carried: "MALWARE" \(no known flag is close\)/,
    ],
    ['.mcp-trust.yml', 'min_score: [', /^\.mcp-trust\.yml: not valid YAML/],
  ])('refuses %s holding %s with one line and exit 2', async (file, text, message) => {
    const cwd = await folder(`bad-${file}-${text.length}`, { [file]: text });
    const result = run([], cwd);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim()).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('reads the file --policy names, and --allow passes a server by its remote URL', async () => {
    const cwd = await folder('named');
    await writeFile(path.join(dir, 'strict.json'), '{"strict": true}');
    const strict = run(['--policy', path.join(dir, 'strict.json')], cwd);
    expect(strict.status).toBe(1);
    const allowed = run(
      [
        '--strict',
        '--allow',
        'npm:@modelcontextprotocol/server-filesystem',
        '--allow',
        'pkg:npm/%40playwright/mcp',
        '--allow',
        'pkg:pypi/mcp-server-fetch',
        // context7's repository was never read: insufficient evidence, which --strict fails unless allowed.
        '--allow',
        'io.github.upstash/context7',
      ],
      cwd,
    );
    expect(allowed.stdout).not.toMatch(/^FAIL /m);
    expect(allowed.status, allowed.stdout).toBe(0);
    const bad = run(['--allow', 'not a thing'], cwd);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^--allow: "not a thing" is not a server name/m);
  });
});
