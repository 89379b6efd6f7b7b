/**
 * A Vercel function's cold start (`npm run bench -- --only cold`): in a fresh Node process, the import of
 * what a function file in `api/` loads plus its first Get Server answer, on the committed dataset. The
 * clock starts before the import and stops when the first answer is sent; the time between listening and
 * the request arriving (this script's own client) is not counted, since on the platform the request is
 * already waiting.
 *
 * By default it measures `dist/vercel/vercel.mjs`, which every function file imports and calls (`api/` holds
 * nothing else). `--vercel-output <dir>` measures the Get Server function of a `vercel build` output
 * instead (`.vercel/output`, each function as the platform packs it: its file compiled on its own, plus the
 * files it imports as traced), copied with the snapshot into a temporary folder as the platform lays it out.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { FUNCTION_COLD_START_MS, judged } from './targets.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const KEY = 'function-bench-key';
const GET_SERVER = '/v1/servers/io.github.github/github-mcp-server';

/**
 * The child: imports the module (a function file's default export, or `vercelHandler('get')` of the
 * compiled module), serves it, and prints the import time and the first answer's time.
 */
const CHILD = `
import http from 'node:http';
const started = performance.now();
const module = await import(process.env.BENCH_MODULE);
const handler = module.vercelHandler ? module.vercelHandler('get') : module.default;
const importMs = performance.now() - started;
const server = http.createServer((request, response) => {
  const arrived = performance.now();
  response.on('finish', () => {
    console.log('BENCH ' + JSON.stringify({ status: response.statusCode, importMs, answerMs: performance.now() - arrived }));
    server.close();
  });
  void handler(request, response);
});
server.listen(0, '127.0.0.1', () => console.log('BENCH ' + JSON.stringify({ port: server.address().port })));
`;

interface Sample {
  status: number;
  importMs: number;
  answerMs: number;
  /** From spawning the process to the first answer received by the client: Node's own start included. */
  spawnToAnswerMs: number;
}

/** One fresh process: its import and first answer. */
async function sample(modulePath: string, cwd: string, snapshotDir: string): Promise<Sample> {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD], {
    cwd,
    env: {
      ...process.env,
      BENCH_MODULE: pathToFileURL(modulePath).href,
      API_KEYS: KEY,
      SNAPSHOT_DIR: snapshotDir,
      STORE: 'memory',
      KEYS_FILE: path.join(tmpdir(), `mts-function-bench-keys-${process.pid}.json`),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  let buffered = '';
  let waiting: (() => void) | undefined;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    // The function's own log lines go to stdout too; the child's figures are marked.
    lines.push(...parts.filter((line) => line.startsWith('BENCH ')).map((line) => line.slice('BENCH '.length)));
    waiting?.();
  });
  const next = async (): Promise<string> => {
    while (lines.length === 0) {
      if (child.exitCode !== null) throw new Error(`the function's process exited (${child.exitCode})`);
      await new Promise<void>((resolve) => {
        waiting = resolve;
        setTimeout(resolve, 50);
      });
    }
    return lines.shift()!;
  };
  try {
    const { port } = JSON.parse(await next()) as { port: number };
    const segments = 'namespace=io.github.github&id=github-mcp-server'; // as the platform's rewrite appends them
    const response = await fetch(`http://127.0.0.1:${port}${GET_SERVER}?${segments}`, {
      headers: { 'X-API-Key': KEY },
    });
    await response.text();
    const spawnToAnswerMs = performance.now() - spawnedAt;
    return { ...(JSON.parse(await next()) as Omit<Sample, 'spawnToAnswerMs'>), spawnToAnswerMs };
  } finally {
    child.kill();
  }
}

/** The Get Server function of a `vercel build` output, laid out as the platform runs it: its folder. */
async function unpackVercelFunction(output: string): Promise<{ work: string; handler: string }> {
  // Get Server's function: `api/get`, or `api/v1/servers/[namespace]/[id]/index` in outputs made before the
  // functions were named by route (to compare with one).
  const named = path.join(output, 'functions', 'api', 'get.func');
  const func = existsSync(named)
    ? named
    : path.join(output, 'functions', 'api', 'v1', 'servers', '[namespace]', '[id]', 'index.func');
  const config = JSON.parse(await readFile(path.join(func, '.vc-config.json'), 'utf8')) as {
    handler: string;
    filePathMap?: Record<string, string>;
  };
  const work = await mkdtemp(path.join(tmpdir(), 'mts-function-'));
  await cp(func, work, { recursive: true, dereference: true });
  // Files the platform adds from `includeFiles` (the snapshot), from the project into the function's folder.
  for (const [to, from] of Object.entries(config.filePathMap ?? {})) {
    await cp(path.join(ROOT, from), path.join(work, to));
  }
  return { work, handler: path.join(work, config.handler) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

export async function benchFunctionColdStart(rounds = 5, vercelOutput?: string): Promise<string> {
  const unpacked = vercelOutput === undefined ? undefined : await unpackVercelFunction(path.resolve(vercelOutput));
  try {
    const modulePath = unpacked?.handler ?? path.join(ROOT, 'dist', 'vercel', 'vercel.mjs');
    const cwd = unpacked?.work ?? ROOT;
    const snapshotDir = path.join(cwd, 'snapshot');
    await sample(modulePath, cwd, snapshotDir); // warm-up: the file cache, as on a warm host
    const samples: Sample[] = [];
    for (let round = 0; round < rounds; round++) samples.push(await sample(modulePath, cwd, snapshotDir));
    const failed = samples.find((one) => one.status !== 200);
    if (failed !== undefined) throw new Error(`the function answered ${failed.status}, not 200`);
    const imported = median(samples.map((one) => one.importMs));
    const answered = median(samples.map((one) => one.answerMs));
    const total = median(samples.map((one) => one.importMs + one.answerMs));
    const spawned = median(samples.map((one) => one.spawnToAnswerMs));
    const what =
      unpacked === undefined ? '`dist/vercel/vercel.mjs`, as every `api/` file loads it' : 'the `vercel build` output';
    const ms = (value: number) => `${Math.round(value)} ms`;
    return [
      `| Vercel function, committed dataset (median of ${rounds}): ${what} | value | target |`,
      '|---|---|---|',
      `| import | ${ms(imported)} | |`,
      `| first Get Server answer | ${ms(answered)} | |`,
      `| import plus first answer | ${ms(total)} | ${judged(total, FUNCTION_COLD_START_MS, ' ms')} |`,
      `| spawn to first answer (Node's start included) | ${ms(spawned)} | |`,
    ].join('\n');
  } finally {
    if (unpacked !== undefined) await rm(unpacked.work, { recursive: true, force: true });
  }
}
