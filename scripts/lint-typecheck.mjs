// Prettier, ESLint and tsc at the same time (the scripts `lint:format`, `lint:code` and `typecheck`), each one
// process on one core, so on a machine with two or more cores the step takes about as long as its longest part
// (tsc) instead of the sum of the three. Each one's output is printed whole when it ends, never interleaved; the
// step fails when any of them fails, after all have ended.
//
// `--background` (how `npm test` runs it, beside the tests: scripts/test.mjs) lowers this process's priority
// before it starts the three, so they inherit it: they take the cores when the tests leave them idle (while
// the tests wait on the servers, builds and browsers they start) instead of slowing the tests' own processes,
// some of which answer within deadlines.
//
// Plain JavaScript on purpose, like scripts/compile.mjs: it only starts other commands, so it compiles nothing.
import { spawn } from 'node:child_process';
import { constants, setPriority } from 'node:os';

const STEPS = ['lint:format', 'lint:code', 'typecheck'];

function run(step) {
  const started = performance.now();
  const child = spawn('npm', ['run', '--silent', step], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => {
    // A child that cannot start still emits 'close' after this.
    child.once('error', (error) => (output += `${error.message}\n`));
    child.once('close', (code, signal) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const verdict = code === 0 ? `passed in ${seconds} s` : `FAILED (${signal ?? `exit ${code}`}) in ${seconds} s`;
      process.stdout.write(
        `${output}${output === '' || output.endsWith('\n') ? '' : '\n'}> npm run ${step}: ${verdict}\n`,
      );
      resolve({ step, ok: code === 0 });
    });
  });
}

if (process.argv.includes('--background')) {
  try {
    setPriority(constants.priority.PRIORITY_BELOW_NORMAL);
  } catch {
    // Where the system refuses, the checks run at the normal priority: the same verdict, the tests a little slower.
  }
}

const results = await Promise.all(STEPS.map(run));
const failed = results.filter((result) => !result.ok).map((result) => result.step);
if (failed.length > 0) {
  console.error(`lint-typecheck: ${failed.join(', ')} failed`);
  process.exitCode = 1;
}
