/** `npm run keys -- create|list|revoke` as a real child process against a temporary key file. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../src/keys/keys.js';
import { runKeys } from './process.js';

let dir: string;
let env: Record<string, string>;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mts-keys-cli-'));
  env = { KEYS_FILE: path.join(dir, 'keys.json') };
});
afterAll(() => rm(dir, { recursive: true, force: true }));

// Each CLI run is a fresh tsx process (a second or two on a loaded machine).
describe('npm run keys', { timeout: 120_000 }, () => {
  let key: string;

  it('create prints the new key once, alone on the last line of stdout, and stores only its hash', async () => {
    const result = runKeys(['create', '--label', 'CI pipeline'], env);
    expect(result.status).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    key = lines.at(-1) ?? '';
    expect(key).toMatch(/^mts_[A-Za-z0-9_-]{43}$/);
    expect(lines.slice(0, -1).join('\n')).not.toContain(key);
    const file = await readFile(env.KEYS_FILE ?? '', 'utf8');
    expect(file).not.toContain(key);
    expect(file).toContain(hashKey(key));
  });

  it('refuses --plan pro with a clear message: the plan is not available yet', () => {
    const result = runKeys(['create', '--plan', 'pro'], env);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('not available yet');
    expect(result.stdout).not.toMatch(/mts_/);
  });

  it('refuses an unknown plan and an unknown command', () => {
    expect(runKeys(['create', '--plan', 'gold'], env).stderr).toContain('Unknown plan "gold"');
    expect(runKeys(['rotate'], env).stderr).toContain('Unknown command "rotate"');
  });

  it('list shows hash prefix, plan, created_at and label, never a key', () => {
    const result = runKeys(['list'], env);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(hashKey(key).slice(0, 8));
    expect(result.stdout).toContain('free');
    expect(result.stdout).toContain('CI pipeline');
    expect(result.stdout).toMatch(/\d{4}-\d\d-\d\dT/);
    expect(result.stdout).not.toContain(key);
    expect(result.stdout).not.toContain(hashKey(key)); // the prefix only
  });

  it('revoke removes the key by its hash prefix, and says so when nothing matches', () => {
    const prefix = hashKey(key).slice(0, 8);
    expect(runKeys(['revoke', prefix], env).status).toBe(0);
    expect(runKeys(['list'], env).stdout).not.toContain(prefix);
    const again = runKeys(['revoke', prefix], env);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(`No key's hash starts with ${prefix}`);
    expect(runKeys(['revoke', 'xyz'], env).stderr).toContain('8 to 64 hex characters');
  });
});
