/**
 * The benches that compare this tree's search with the search before issue 43 (`name-index.ts`,
 * `name-queries.ts`): that tree's `src/`, taken from git, and a child process that runs a bench script's
 * `--child` part on one tree's `src/` and gives back the JSON of its last line of output.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** `main` before issue 43's search changes (3683794 and after): the search the issue measures against. */
export const BASELINE_COMMIT = '8f583fb94fe0579628efdc4799acfe0048b1dea6';
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * BASELINE_COMMIT's `src/`, taken from git into `work` beside a link to this checkout's dependencies so its
 * imports resolve.
 */
export async function baselineSource(work: string): Promise<string> {
  const baseline = path.join(work, 'baseline');
  await mkdir(baseline);
  const archive = execFileSync('git', ['-C', ROOT, 'archive', '--format=tar', BASELINE_COMMIT, 'src'], {
    maxBuffer: 1 << 28,
  });
  execFileSync('tar', ['-x', '-C', baseline], { input: archive });
  await symlink(path.join(ROOT, 'node_modules'), path.join(baseline, 'node_modules'), 'dir');
  return path.join(baseline, 'src');
}

/**
 * Runs `script` (under `scripts/bench/`) with `--child <source> --input <input>` in a fresh Node process with
 * `nodeFlags`, and parses the last line it prints.
 */
export function runTreeChild<T>(script: string, source: string, input: string, nodeFlags: string[] = []): T {
  const result = spawnSync(
    process.execPath,
    [...nodeFlags, '--import', 'tsx', path.join(ROOT, 'scripts/bench', script), '--child', source, '--input', input],
    { encoding: 'utf8', cwd: ROOT, maxBuffer: 1 << 26 },
  );
  if (result.status !== 0) throw new Error(`${script} child (${source}) failed:\n${result.stderr}`);
  const lines = result.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]!) as T;
}
