/**
 * `check --user` on the clients Snyk Agent Scan discovers and the VS Code extensions that keep their own MCP
 * settings (test/fixtures/cli/user-home-clients/): Kiro, Antigravity, Amazon Q Developer, GitHub Copilot, Amp,
 * Cline and Roo Code, on Linux, macOS and Windows layouts; and a --user check with nothing to read.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readUserConfigs } from '../../src/cli/user-configs.js';
import { REPO } from '../e2e/process.js';
import { makeTempDir } from '../support/temp.js';

const HOME = path.join(REPO, 'test', 'fixtures', 'cli', 'user-home-clients');
const env = { HOME, APPDATA: path.join(HOME, 'AppData', 'Roaming'), XDG_CONFIG_HOME: '' };

describe('the user configurations of more clients', () => {
  it('finds each client’s servers in its own file', async () => {
    const { entries, files } = await readUserConfigs(env);
    const byClient = Object.fromEntries(files.map((file) => [file.file, file.client]));
    expect(byClient).toEqual({
      [path.join('~', '.kiro', 'settings', 'mcp.json')]: 'Kiro',
      [path.join('~', '.gemini', 'antigravity', 'mcp_config.json')]: 'Antigravity',
      [path.join('~', '.aws', 'amazonq', 'mcp.json')]: 'Amazon Q Developer',
      [path.join('~', '.aws', 'amazonq', 'agents', 'default.json')]: 'Amazon Q Developer',
      [path.join('~', '.copilot', 'mcp-config.json')]: 'GitHub Copilot',
      [path.join('~', '.config', 'amp', 'settings.json')]: 'Amp',
      [path.join(
        '~',
        'Library',
        'Application Support',
        'Code',
        'User',
        'globalStorage',
        'saoudrizwan.claude-dev',
        'settings',
        'cline_mcp_settings.json',
      )]: 'Cline',
      [path.join(
        '~',
        '.config',
        'Code',
        'User',
        'globalStorage',
        'saoudrizwan.claude-dev',
        'settings',
        'cline_mcp_settings.json',
      )]: 'Cline',
      [path.join(
        '~',
        'AppData',
        'Roaming',
        'Code',
        'User',
        'globalStorage',
        'rooveterinaryinc.roo-cline',
        'settings',
        'mcp_settings.json',
      )]: 'Roo Code',
    });
    expect(entries.map((entry) => entry.name).sort()).toEqual(
      [
        'amp-playwright',
        'antigravity-github',
        'cline-mac-fetch',
        'cline-postmark',
        'copilot-notion',
        'kiro-fetch',
        'q-agent-linear',
        'q-context7',
        'roo-filesystem',
      ].sort(),
    );
  });

  it('judges them like any other entry: the malicious package in Cline fails the check', () => {
    const cwd = path.join(REPO, 'test', 'fixtures', 'cli', 'seven');
    const run = spawnSync(
      process.execPath,
      [path.join(REPO, 'bin', 'mcp-trust-score.js'), 'check', '--user', '.mcp.json', '--format', 'json'],
      {
        cwd,
        encoding: 'utf8',
        env: { ...cleanEnv(), ...env },
        timeout: 60_000,
      },
    );
    expect(run.status, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout) as { results: { name: string; verdict: string; server: string | null }[] };
    const verdicts = Object.fromEntries(report.results.map((r) => [r.name, r.verdict]));
    expect(verdicts['cline-postmark']).toBe('fail');
    expect(verdicts['copilot-notion']).toBe('pass');
  });

  it('exits 2 with one line when --user finds no file to read', async () => {
    const empty = await makeTempDir('no-clients-');
    const run = spawnSync(process.execPath, [path.join(REPO, 'bin', 'mcp-trust-score.js'), 'check', '--user'], {
      cwd: empty,
      encoding: 'utf8',
      env: { ...cleanEnv(), HOME: empty, APPDATA: path.join(empty, 'AppData'), XDG_CONFIG_HOME: '' },
      timeout: 60_000,
    });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim()).toMatch(
      /^no MCP configuration file here .* none of the MCP clients' user configurations exists/,
    );
  });
});

function cleanEnv(): Record<string, string> {
  const clean = { ...process.env } as Record<string, string>;
  for (const name of ['TRUST_API_URL', 'TRUST_API_KEY', 'COPILOT_HOME', 'CODEX_HOME']) delete clean[name];
  return clean;
}
