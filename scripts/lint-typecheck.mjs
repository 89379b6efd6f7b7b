// `npm test`'s first step: Prettier, ESLint and tsc at the same time (the scripts `lint:format`, `lint:code` and
// `typecheck`), each one process on one core, so on a machine with two or more cores the step takes about as
// long as its longest part (tsc) instead of the sum of the three. Each one's output is printed whole when it
// ends, never interleaved; the step fails when any of them fails, after all have ended.
//
// Plain JavaScript on purpose, like scripts/compile.mjs: it only starts other commands, so it compiles nothing.
import { spawn } from 'node:child_process';

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

const results = await Promise.all(STEPS.map(run));
const failed = results.filter((result) => !result.ok).map((result) => result.step);
if (failed.length > 0) {
  console.error(`lint-typecheck: ${failed.join(', ')} failed`);
  process.exitCode = 1;
}
