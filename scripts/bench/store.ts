/**
 * `npx tsx scripts/bench/store.ts [--seconds 5] [--connections 50]`: what the Redis store costs over HTTP.
 * Starts the real server (`scripts/serve.ts`) with STORE=memory, then with STORE=redis (`REDIS_URL`, default
 * redis://127.0.0.1:6379), loads Get Server with autocannon on each in the same run, and prints requests
 * per second and the ratio redis/memory (target: at least 70%).
 *
 * Every request is keyed, so each one costs a real counter increment in the store; FREE_DAILY_LIMIT is
 * raised so no request is refused. Get Server answers come from the warm instance's response cache, so
 * the difference between the two runs is the store. `benchStores` is exported for `npm run bench`.
 */
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { startServerProcess } from '../lib/server-process.js';
import { autocannon, type AutocannonRequest } from './lib/autocannon.js';
import { runMain } from '../lib/main.js';

export interface StoreBenchRun {
  store: 'memory' | 'redis';
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers that were not 2xx, plus connection errors and timeouts: should be 0. */
  failures: number;
}

export interface StoreBenchResult {
  runs: [StoreBenchRun, StoreBenchRun];
  /** redis requests per second / memory requests per second. */
  ratio: number;
}

export interface StoreBenchOptions {
  seconds?: number;
  connections?: number;
  redisUrl?: string;
  /** A built snapshot to serve; default: the default snapshot (`npm start` builds it when missing). */
  snapshotDir?: string;
}

async function loadGetServer(
  store: 'memory' | 'redis',
  options: Required<Omit<StoreBenchOptions, 'snapshotDir'>> & Pick<StoreBenchOptions, 'snapshotDir'>,
): Promise<StoreBenchRun> {
  const key = `mts_bench_${randomBytes(16).toString('hex')}`;
  const env: Record<string, string> = { STORE: store, API_KEYS: key, FREE_DAILY_LIMIT: '1000000000' };
  if (store === 'redis') env.REDIS_URL = options.redisUrl;
  if (options.snapshotDir) env.SNAPSHOT_DIR = options.snapshotDir;
  const server = await startServerProcess(env);
  try {
    const headers = { 'x-api-key': key };
    // Real names from the snapshot, requested in turn, so the run is not one hot entry.
    const listing = await fetch(`${server.url}/v1/servers?limit=100`, { headers });
    if (!listing.ok) throw new Error(`GET /v1/servers answered ${listing.status}: ${await listing.text()}`);
    const names = ((await listing.json()) as { data: { name: string }[] }).data.map((record) => record.name);
    if (names.length === 0) throw new Error('the snapshot has no servers to request');
    let next = 0;
    const requests = [
      {
        setupRequest: (request: AutocannonRequest) => {
          request.path = `/v1/servers/${names[next++ % names.length]}`;
          return request;
        },
      },
    ];
    const base = { url: server.url, connections: options.connections, headers, requests };
    await autocannon({ ...base, duration: 1 }); // warm-up: JIT, caches, the store connection
    const result = await autocannon({ ...base, duration: options.seconds });
    return {
      store,
      requestsPerSecond: result.requests.average,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      failures: result.non2xx + result.errors + result.timeouts,
    };
  } finally {
    await server.stop();
  }
}

/** Run Get Server under load on STORE=memory, then STORE=redis, and compare. */
export async function benchStores(options: StoreBenchOptions = {}): Promise<StoreBenchResult> {
  const settings = {
    seconds: options.seconds ?? 5,
    connections: options.connections ?? 50,
    redisUrl: options.redisUrl ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    snapshotDir: options.snapshotDir,
  };
  const memory = await loadGetServer('memory', settings);
  const redis = await loadGetServer('redis', settings);
  return { runs: [memory, redis], ratio: redis.requestsPerSecond / memory.requestsPerSecond };
}

/** The result as a small table and a verdict line. */
export function formatStoreBench(result: StoreBenchResult): string {
  const lines = ['store    req/s     p50 ms  p99 ms  failures'];
  for (const run of result.runs) {
    lines.push(
      `${run.store.padEnd(8)} ${run.requestsPerSecond.toFixed(0).padStart(7)}  ${String(run.p50Ms).padStart(6)}  ` +
        `${String(run.p99Ms).padStart(6)}  ${run.failures}`,
    );
  }
  const percent = (result.ratio * 100).toFixed(0);
  lines.push(`redis/memory: ${percent}% (target >= 70%: ${result.ratio >= 0.7 ? 'met' : 'NOT met'})`);
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  runMain(async () => {
    const { values } = parseArgs({
      options: { seconds: { type: 'string', default: '5' }, connections: { type: 'string', default: '50' } },
      strict: true,
    });
    const result = await benchStores({ seconds: Number(values.seconds), connections: Number(values.connections) });
    console.log(formatStoreBench(result));
    if (result.runs.some((run) => run.failures > 0)) {
      console.error('Some requests failed: the figures above are not a fair comparison.');
      return 1;
    }
  });
