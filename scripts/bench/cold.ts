/**
 * Cold start (`npm run bench -- --only cold`): spawn → first Get Server answer, as a serverless instance or a
 * restarted server pays it, for the compiled entry `npm start` runs (`node dist/serve.mjs`) on the committed
 * dataset and on a built snapshot of `--records` synthetic records (100,000 by default), and, for comparison,
 * the TypeScript entry through tsx. Memory store, an existing snapshot; the median of several rounds, each a
 * fresh process. The target is a ratio to a bare `node -e 0` spawned in the same rounds (issue 42: ≤ 2.3×),
 * since what Node itself costs moves with the host's load far more than what the server adds to it.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COLD_START_RATIO, judged } from './targets.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const KEY = 'cold-start-bench-key';
const COMMITTED_SERVER = 'io.github.github/github-mcp-server';

/** A built snapshot to start on instead of the committed dataset's, and a server name it holds. */
export interface ColdSnapshot {
  dir: string;
  records: number;
  name: string;
}

/** Milliseconds from spawn to the first 200 of Get Server for `name` on `port`; `dir` is SNAPSHOT_DIR. */
async function coldStart(command: string, args: string[], port: number, dir = '', name = COMMITTED_SERVER) {
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', API_KEYS: KEY, SNAPSHOT_DIR: dir },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/v1/servers/${name}`, {
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

/** `2.17× node -e 0 (≤ 2.3×: PASS)` for a median against the same rounds' bare Node. */
function ratioCell(value: number, bare: number): string {
  const ratio = value / bare;
  return `${ratio.toFixed(2)}× \`node -e 0\` (${judged(Number(ratio.toFixed(2)), COLD_START_RATIO, '×')})`;
}

/**
 * `rounds` rounds, each spawning in turn the compiled server on the committed data, on `large` when given, the
 * tsx entry and a bare `node -e 0`, so every median was taken under the same load.
 */
export async function benchColdStart(rounds = 5, large?: ColdSnapshot): Promise<string> {
  if (!existsSync(path.join(ROOT, 'dist', 'serve.mjs'))) throw new Error('no dist/serve.mjs: run npm run compile');
  const compiled: number[] = [];
  const compiledLarge: number[] = [];
  const tsx: number[] = [];
  const bare: number[] = [];
  // One warm-up each: the snapshot is built if missing and the file cache is warm, as on a serving machine.
  await coldStart(process.execPath, ['dist/serve.mjs'], 3190);
  if (large !== undefined) await coldStart(process.execPath, ['dist/serve.mjs'], 3190, large.dir, large.name);
  for (let round = 0; round < rounds; round++) {
    compiled.push(await coldStart(process.execPath, ['dist/serve.mjs'], 3191));
    if (large !== undefined) {
      compiledLarge.push(await coldStart(process.execPath, ['dist/serve.mjs'], 3193, large.dir, large.name));
    }
    tsx.push(await coldStart(path.join(ROOT, 'node_modules/.bin/tsx'), ['scripts/serve.ts'], 3192));
    bare.push(await bareNode());
  }
  const ms = (value: number) => `${Math.round(value)} ms`;
  const floor = median(bare);
  const largeRow =
    large === undefined
      ? []
      : [
          `| \`node dist/serve.mjs\`, ${large.records.toLocaleString('en')} records | ${ms(median(compiledLarge))} | ` +
            `${ratioCell(median(compiledLarge), floor)} |`,
        ];
  return [
    `| spawn → first Get Server answer (median of ${rounds} rounds) | value | target |`,
    '|---|---|---|',
    `| \`node dist/serve.mjs\` (\`npm start\`), committed dataset | ${ms(median(compiled))} | ${ratioCell(median(compiled), floor)} |`,
    ...largeRow,
    `| \`tsx scripts/serve.ts\` (before: TypeScript compiled at run time), committed dataset | ${ms(median(tsx))} | |`,
    `| \`node -e 0\` (Node's own start on this machine, the same rounds) | ${ms(floor)} | |`,
  ].join('\n');
}
