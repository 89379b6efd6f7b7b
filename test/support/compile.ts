/**
 * Vitest's global setup: compile the production entry points once before any test, so every test that runs
 * the bin or `dist/` runs the code under test, never a stale build (and no test rewrites dist/ while another
 * runs it).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

export default function compileOnce(): void {
  const root = path.resolve(import.meta.dirname, '..', '..');
  const result = spawnSync(process.execPath, ['scripts/compile.mjs'], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm run compile failed:\n${result.stdout}${result.stderr}`);
}
