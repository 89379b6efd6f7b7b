// `npm test`: the lint and typecheck step (scripts/lint-typecheck.mjs) and the vitest run at the same time, and
// the command fails when either fails, after both have ended, with a last line that names which. The tests
// leave the cores idle for part of their run, while they wait on the servers, builds and browsers they start;
// the checks, at a lower priority, fill that time instead of running before the first test. Arguments go to
// vitest (`npm test -- test/format`).
//
// dist/ is compiled first: tsc reads dist/vercel/vercel.d.mts (the function files' types), and the e2e
// project's global setup, which compiles again, then finds dist/ current and leaves it in place
// (scripts/compile.mjs) instead of swapping it while tsc reads it.
//
// The checks are not the tests' processes: they do not carry the run's MTS_TEST_RUN, which the tests' global
// setup sets inside vitest (test/support/clean-state.ts), so they are never taken for a process a test left.
//
// Plain JavaScript on purpose, like scripts/compile.mjs: it only starts other commands, so it compiles nothing.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const vitest = path.join(path.dirname(require.resolve('vitest/package.json')), 'vitest.mjs');

const compiled = spawnSync(process.execPath, ['scripts/compile.mjs'], { cwd: root, stdio: 'inherit' });
if (compiled.status !== 0) {
  console.error(`npm test: npm run compile failed (${compiled.signal ?? `exit ${compiled.status}`}); nothing was run`);
  process.exit(1);
}

/** Run `args` with node in the checkout, its output on this one's; resolves with what failed, never rejects. */
function run(name, args) {
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
  let startError;
  child.once('error', (error) => (startError = `could not start: ${error.message}`));
  return new Promise((resolve) => {
    child.once('close', (code, signal) =>
      resolve({ name, failed: code === 0 ? undefined : (startError ?? signal ?? `exit ${code}`) }),
    );
  });
}

const results = await Promise.all([
  run('lint and typecheck', ['scripts/lint-typecheck.mjs', '--background']),
  run('vitest', [vitest, 'run', ...process.argv.slice(2)]),
]);
const failed = results.filter((result) => result.failed !== undefined);
if (failed.length > 0) {
  console.error(`npm test: ${failed.map((result) => `${result.name} failed (${result.failed})`).join('; ')}`);
  process.exitCode = 1;
} else {
  console.log('npm test: lint, typecheck and tests passed');
}
