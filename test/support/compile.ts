/**
 * Vitest's global setup: compile the production entry points once before any test, so every test that runs
 * the bin or `dist/` runs the code under test, never a stale build (and no test rewrites dist/ while another
 * runs it); and build the snapshot the package ships (`npm run embed`, kept as it is when current), as
 * `npm pack` does through `prepack`, so the offline checker and MCP server have their data.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

export default function compileOnce(): void {
  const root = path.resolve(import.meta.dirname, '..', '..');
  const compiled = spawnSync(process.execPath, ['scripts/compile.mjs'], { cwd: root, encoding: 'utf8' });
  if (compiled.status !== 0) throw new Error(`npm run compile failed:\n${compiled.stdout}${compiled.stderr}`);
  const embedded = spawnSync('npm', ['run', '--silent', 'embed'], { cwd: root, encoding: 'utf8' });
  if (embedded.status !== 0) throw new Error(`npm run embed failed:\n${embedded.stdout}${embedded.stderr}`);
}
