/**
 * `npm run bench -- --only stalls`: the no-stalls issue (16) and the cold start at size (11), as a user of
 * `npm start` meets them. The compiled server is spawned on a built snapshot; from the spawn, Get Server
 * requests trickle in one after another (a new name every few milliseconds); the moment the server first
 * answers, one search for a common word and one list are sent. Measured: spawn → first Get Server answer,
 * spawn → the first search's and the first list's answers, the slowest Get Server answer until the snapshot
 * is fully loaded, the event loop's longest delay from start to fully loaded (the server reports it), and
 * the server's RSS once loaded. The server is pinned to core 0 when `taskset` is there, so it never
 * waits for the processor behind this process.
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { judged, targetsFor } from './targets.js';
import { readNames } from '../../src/query/load.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const KEY = 'stalls-bench-key';
/** Milliseconds between two Get Server requests of the trickle. */
const TRICKLE_MS = 5;

export interface StallFigures {
  records: number;
  coldStartMs: number;
  firstSearchMs: number;
  firstListMs: number;
  slowestGetMs: number;
  getsWhileLoading: number;
  eventLoopMaxMs: number;
  fullyLoadedMs: number;
  rssMiB: number;
  /** The first history request's answer time, and the RSS once the history is decoded. */
  firstHistoryMs: number;
  rssWithHistoryMiB: number;
}

const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;

/** The resident set of process `pid` in MiB (from ps), NaN when it cannot be read. */
function rssMiBOf(pid: number): number {
  const kib = spawnSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).stdout.trim();
  return kib === '' ? NaN : Number(kib) / 1024;
}

async function timedFetch(url: string): Promise<{ ok: boolean; ms: number }> {
  const started = performance.now();
  try {
    const response = await fetch(url, { headers: { 'X-API-Key': KEY } });
    await response.arrayBuffer();
    return { ok: response.ok, ms: performance.now() - started };
  } catch {
    return { ok: false, ms: performance.now() - started };
  }
}

/** One run against the snapshot in `dir` (built beforehand, so the build is not what is measured). */
export async function benchStalls(dir: string, port = 3391): Promise<StallFigures> {
  const names = await readNames(dir);
  const command = hasTaskset ? 'taskset' : process.execPath;
  const args = [...(hasTaskset ? ['-c', '0', process.execPath] : []), 'dist/serve.mjs'];
  const spawned = performance.now();
  const child = spawn(command, args, {
    cwd: ROOT,
    // A daily limit no run reaches: at a million records more than a free plan's 100 requests come before
    // the history's (a 429 there read as a failed answer).
    env: {
      ...process.env,
      SNAPSHOT_DIR: dir,
      API_KEYS: KEY,
      FREE_DAILY_LIMIT: '1000000000',
      PORT: String(port),
      HOST: '127.0.0.1',
      STORE: 'memory',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout
    .setEncoding('utf8')
    .on('data', (chunk: string) => (stdout += chunk.length > 4096 ? chunk.slice(-4096) : chunk));
  const base = `http://127.0.0.1:${port}`;
  const loaded = () =>
    /Snapshot fully loaded (\d+) ms after process start \(the event loop was held at most ([\d.]+) ms/.exec(stdout);
  try {
    let coldStartMs = NaN;
    let firstSearch: Promise<number> | undefined;
    let firstList: Promise<number> | undefined;
    let slowestGetMs = 0;
    let getsWhileLoading = 0;
    for (let i = 0; !loaded(); i++) {
      if (performance.now() - spawned > 120_000) throw new Error('the server did not load its snapshot within 120 s');
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      const name = names[(i * 7919) % names.length]!;
      const get = await timedFetch(`${base}/v1/servers/${name.split('/').map(encodeURIComponent).join('/')}`);
      if (get.ok) {
        if (Number.isNaN(coldStartMs)) {
          coldStartMs = performance.now() - spawned;
          const since = (url: string) =>
            timedFetch(url).then((answer) => (answer.ok ? performance.now() - spawned : NaN));
          firstSearch = since(`${base}/v1/search?q=mcp&limit=20`);
          firstList = since(`${base}/v1/servers?sort=name&limit=20&offset=${Math.floor(names.length / 2)}`);
        } else {
          slowestGetMs = Math.max(slowestGetMs, get.ms);
          getsWhileLoading++;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, TRICKLE_MS));
    }
    const [, fullyLoaded, eventLoop] = loaded()!;
    const rssMiB = rssMiBOf(child.pid!);
    // The history is decoded on first use: ask for one server's, then measure again.
    const first = names[0]!.split('/').map(encodeURIComponent).join('/');
    const history = await timedFetch(`${base}/v1/servers/${first}/history`);
    return {
      records: names.length,
      coldStartMs,
      firstSearchMs: (await firstSearch) ?? NaN,
      firstListMs: (await firstList) ?? NaN,
      slowestGetMs,
      getsWhileLoading,
      eventLoopMaxMs: Number(eventLoop),
      fullyLoadedMs: Number(fullyLoaded),
      rssMiB,
      firstHistoryMs: history.ok ? history.ms : NaN,
      rssWithHistoryMiB: rssMiBOf(child.pid!),
    };
  } finally {
    child.kill('SIGKILL');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve)));
  }
}

const ms = (value: number) => `${Math.round(value)} ms`;

/** The table, with a verdict per target; `rounds` runs, the median of each figure. */
export function formatStalls(runs: readonly StallFigures[]): string {
  const median = (pick: (run: StallFigures) => number) => {
    const values = runs.map(pick).sort((a, b) => a - b);
    return values[Math.floor(values.length / 2)]!;
  };
  const records = runs[0]!.records;
  const targets = targetsFor(records);
  const row = (label: string, value: number, unit: 'ms' | 'MiB', target?: number) =>
    `| ${label} | ${unit === 'ms' ? ms(value) : `${Math.round(value)} MiB`} | ${target === undefined ? '' : judged(value, target, ` ${unit}`)} |`;
  return [
    `${records.toLocaleString('en')} records, \`node dist/serve.mjs\`${hasTaskset ? ' pinned to core 0' : ''}, Get Server every ~${TRICKLE_MS} ms from the spawn; median of ${runs.length} run(s)`,
    '',
    '| figure | value | target |',
    '|---|---:|---|',
    row(
      'spawn → first Get Server answer',
      median((r) => r.coldStartMs),
      'ms',
      targets.coldStartMs,
    ),
    row(
      'spawn → first search answer (`q=mcp`, sent at the first answer)',
      median((r) => r.firstSearchMs),
      'ms',
      targets.firstAnswerMs,
    ),
    row(
      'spawn → first list answer (`sort=name`, offset N/2)',
      median((r) => r.firstListMs),
      'ms',
      targets.firstAnswerMs,
    ),
    row(
      `slowest Get Server answer until fully loaded (${median((r) => r.getsWhileLoading)} answers)`,
      median((r) => r.slowestGetMs),
      'ms',
      targets.getDuringLoadMs,
    ),
    row(
      'event loop, longest delay from start to fully loaded',
      median((r) => r.eventLoopMaxMs),
      'ms',
      targets.eventLoopMs,
    ),
    row(
      'spawn → fully loaded (every part checked and decoded)',
      median((r) => r.fullyLoadedMs),
      'ms',
    ),
    row(
      'server RSS once fully loaded',
      median((r) => r.rssMiB),
      'MiB',
      targets.rssMiB,
    ),
    row(
      'then the first history request (decodes the history)',
      median((r) => r.firstHistoryMs),
      'ms',
    ),
    row(
      'server RSS with the history decoded too',
      median((r) => r.rssWithHistoryMiB),
      'MiB',
      targets.rssMiB,
    ),
  ].join('\n');
}
