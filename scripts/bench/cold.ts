/**
 * Cold start (`npm run bench -- --only cold`): spawn → first Get Server answer, as a serverless instance or a
 * restarted server pays it, for the compiled entry `npm start` runs (`node dist/serve.mjs`) and, for
 * comparison, the TypeScript entry through tsx. Committed dataset, memory store, an existing snapshot; the
 * median of several rounds, each a fresh process. Also a bare `node -e` to show what Node itself costs here.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMITTED_COLD_START_MS, judged } from './targets.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const KEY = 'cold-start-bench-key';

/** Milliseconds from spawn to the first 200 of Get Server on `port`. */
async function coldStart(command: string, args: string[], port: number): Promise<number> {
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', API_KEYS: KEY, SNAPSHOT_DIR: '' },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/v1/servers/io.github.github/github-mcp-server`, {
          headers: { 'X-API-Key': KEY },
        });
        await response.text();
        if (response.ok) return performance.now() - started;
      } catch {
        // Not listening yet.
      }
      if (performance.now() - started > 20_000) throw new Error(`${command} ${args.join(' ')} did not answer in 20 s`);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  } finally {
    child.kill();
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

/** Milliseconds for `node -e 0`: the floor any Node entry point starts from on this machine. */
async function bareNode(): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return performance.now() - started;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

export async function benchColdStart(rounds = 5): Promise<string> {
  if (!existsSync(path.join(ROOT, 'dist', 'serve.mjs'))) throw new Error('no dist/serve.mjs: run npm run compile');
  const compiled: number[] = [];
  const tsx: number[] = [];
  const bare: number[] = [];
  // One warm-up each: the snapshot is built if missing and the file cache is warm, as on a serving machine.
  await coldStart(process.execPath, ['dist/serve.mjs'], 3190);
  for (let round = 0; round < rounds; round++) {
    compiled.push(await coldStart(process.execPath, ['dist/serve.mjs'], 3191));
    tsx.push(await coldStart(path.join(ROOT, 'node_modules/.bin/tsx'), ['scripts/serve.ts'], 3192));
    bare.push(await bareNode());
  }
  const ms = (value: number) => `${Math.round(value)} ms`;
  return [
    `| spawn → first Get Server answer, committed dataset (median of ${rounds}) | value | target |`,
    '|---|---|---|',
    `| \`node dist/serve.mjs\` (\`npm start\`) | ${ms(median(compiled))} | ${judged(median(compiled), COMMITTED_COLD_START_MS, ' ms')} |`,
    `| \`tsx scripts/serve.ts\` (before: TypeScript compiled at run time) | ${ms(median(tsx))} | |`,
    `| \`node -e 0\` (Node's own start on this machine) | ${ms(median(bare))} | |`,
  ].join('\n');
}
