/**
 * The benchmark and soak commands read their command line inside `runMain` (scripts/lib/main.ts), so an
 * option they do not know, or a value they refuse, ends as one line on stderr and exit 2, as every script
 * ends on an operator's mistake, never as a stack trace printed while the module loads.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');

function run(script: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(TSX, [script, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
    );
  });
}

describe('a bad option to the bench and soak commands', () => {
  it.each([
    ['scripts/bench/index.ts', ['--nope'], /^Unknown option '--nope'/],
    ['scripts/bench/soak.ts', ['--nope'], /^Unknown option '--nope'/],
    ['scripts/bench/soak.ts', ['--duration', '0'], /^--duration must be a positive whole number, not "0"$/],
  ])(
    '%s %s is one line on stderr and exit 2',
    async (script, args, line) => {
      const result = await run(script, args);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(result.stderr.trimEnd()).toMatch(line);
    },
    60_000,
  );
});
