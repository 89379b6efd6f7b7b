/**
 * `npx tsx scripts/bench-http.ts [--records 100000] [--seconds 5] [--connections 50]`: the gateway over HTTP.
 *
 * Builds a synthetic snapshot (`generateRecords`, seeded), then in the same run and with the same load tool
 * (autocannon, 50 connections, in this process) measures requests per second of:
 * - a bare `node:http` server answering a constant JSON body (the ceiling of this machine), loaded twice: with
 *   one path and no headers, and with exactly the requests of the Get Server case (the ratios use this one);
 * - the real server (`scripts/serve.ts`, STORE=memory, FREE_DAILY_LIMIT raised so nothing is refused) on
 *   Get Server, a filtered List page and Search, each twice: "cached", a small set of requests in turn, so
 *   after the first round every answer comes from the response cache; and "uncached", a new request every
 *   time (the next record, the next offset, the next name as the query), so every answer is computed;
 * and the cold start: process spawn to the first Get Server answer, median of 5.
 * Each server runs in its own process (the real one with its log lines going to a file); load and server
 * share the machine's two cores alike in every case.
 * Targets (issue 3): Get Server >= 50% of bare, List >= 30%, Search >= 20%; cold start < 300 ms.
 * `benchHttp` is exported for `npm run bench`.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { build as esbuild } from 'esbuild';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { generateRecords } from '../src/bench/synthetic.js';
import { splitName } from '../src/model/schema.js';
import { writeSnapshot } from '../src/snapshot/build.js';
import { autocannon, type AutocannonRequest } from './lib/autocannon.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface HttpBenchOptions {
  records?: number;
  seconds?: number;
  connections?: number;
  coldStarts?: number;
}

export interface HttpBenchRow {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Share of the bare server's requests per second. */
  ratio: number;
  /** The issue's target ratio, when it sets one. */
  target?: number;
  /** Not 2xx, connection errors and timeouts: should be 0. */
  failures: number;
}

export interface HttpBenchResult {
  records: number;
  connections: number;
  seconds: number;
  rows: HttpBenchRow[];
  /** `npm start` as it is: tsx compiles the sources at start. */
  coldStartMs: { median: number; all: number[]; medianLoad: number; medianReady: number };
  /** The same entry compiled ahead into one file, as a deployment runs it. */
  compiledColdStartMs: { median: number; all: number[]; medianLoad: number; medianReady: number };
}

/** A path generator: each call gives the next request's path. */
type Paths = () => string;

const cycle = (paths: readonly string[]): Paths => {
  let next = 0;
  return () => paths[next++ % paths.length] ?? '/';
};

async function load(url: string, paths: Paths, seconds: number, connections: number, headers: Record<string, string>) {
  const requests = [{ setupRequest: (request: AutocannonRequest) => ({ ...request, path: paths() }) }];
  await autocannon({ url, connections, duration: 1, headers, requests }); // warm-up: JIT, sockets, caches
  const result = await autocannon({ url, connections, duration: seconds, headers, requests });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/** A bare node:http server in its own process, answering one constant JSON body. */
async function startBareServer(): Promise<{ url: string; stop: () => void }> {
  const source = `
    const http = require('node:http');
    const body = JSON.stringify({ data: { name: 'io.github.example/server', trust_score: 80 }, meta: { cached: false } });
    const server = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
    server.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port));`;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      const match = /port (\d+)/.exec(chunk.toString());
      if (match?.[1]) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the bare server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

export interface ColdStart {
  /** Spawn to the first Get Server answer. */
  totalMs: number;
  /** Of which: loading the snapshot, as the server reports it. */
  loadMs: number;
  /** Of which: from the process's start to listening, as the server reports it (boot, imports, load). */
  readyMs: number;
}

/**
 * The real server (`scripts/serve.ts`, as `npm start` runs it) with its stdout (a JSON line per request) going
 * to a file, as under a process manager. Not a pipe into this process: reading 1 MB/s of log lines here
 * would take CPU from the load tool on a two-core machine and slow both ends.
 */
async function startServer(
  env: Record<string, string>,
  logFile: string,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const out = await open(logFile, 'w');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('scripts', 'serve.ts')], {
    cwd: REPO_ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', out.fd, 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const started = Date.now();
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`the server exited with ${child.exitCode}: ${await readFile(logFile, 'utf8')}`);
      const match = /Listening on (http:\/\/\S+)/.exec(await readFile(logFile, 'utf8'));
      if (match?.[1]) return { url: match[1], stop: async () => void (child.kill('SIGTERM'), await exited) };
      if (Date.now() - started > 60_000) throw new Error('the server did not start within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await out.close();
  }
}

/** Spawn to first Get Server answer, in milliseconds, for one fresh process, with the server's own figures. */
async function coldStart(snapshotDir: string, key: string, name: string, entry: string[]): Promise<ColdStart> {
  const started = performance.now();
  const child = spawn(process.execPath, entry, {
    cwd: REPO_ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', SNAPSHOT_DIR: snapshotDir, API_KEYS: key },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /Listening on (http:\/\/\S+)/.exec(out);
        if (match?.[1]) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`the server exited with ${code}: ${out}`)));
    });
    const response = await fetch(`${url}/v1/servers/${name}`, { headers: { 'x-api-key': key } });
    await response.text();
    if (!response.ok) throw new Error(`Get Server answered ${response.status}`);
    const totalMs = performance.now() - started;
    const figures = /snapshot loaded in (\d+) ms; ready (\d+) ms after process start/.exec(out);
    return { totalMs, loadMs: Number(figures?.[1] ?? Number.NaN), readyMs: Number(figures?.[2] ?? Number.NaN) };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

/** Run every case; see the header comment. */
export async function benchHttp(options: HttpBenchOptions = {}): Promise<HttpBenchResult> {
  const records = options.records ?? 100_000;
  const seconds = options.seconds ?? 5;
  const connections = options.connections ?? 50;
  const coldStarts = options.coldStarts ?? 5;

  const dir = await mkdtemp(path.join(tmpdir(), 'mts-bench-http-'));
  try {
    const snapshotDir = path.join(dir, 'snapshot');
    // Only the names stay in this process: the records would make the load tool's heap, and its pauses, big.
    const { names, ids } = await (async () => {
      const data = generateRecords(records, 42);
      await writeSnapshot(data, snapshotDir);
      return { names: data.map((record) => record.name), ids: data.map((record) => splitName(record.name).id) };
    })();
    const key = `mts_bench_${randomBytes(16).toString('hex')}`;
    const headers = { 'x-api-key': key };
    // A filtered page: two filters, a sort, an order and a page among the first ten. "Uncached" walks
    // through 48,480 distinct combinations, more than a run can ask for, so no answer comes from the cache.
    const sorts = [
      'name',
      'trust_score',
      'namespace',
      'provenance',
      'maintenance',
      'popularity',
      'permissions',
      'scored_at',
    ];
    const flags = ['TEMPLATE_DESCRIPTION', 'NO_SOURCE', 'DEAD_ENTRY'];
    const listPath = (i: number) => {
      const page = i % 10;
      const sort = sorts[Math.floor(i / 10) % sorts.length];
      const order = Math.floor(i / 80) % 2 === 0 ? 'asc' : 'desc';
      const flag = flags[Math.floor(i / 160) % flags.length];
      const minScore = Math.floor(i / 480) % 101;
      return `/v1/servers?min_score=${minScore}&flags=${flag}&sort=${sort}&order=${order}&limit=20&offset=${page * 20}`;
    };
    let listIndex = 0;
    let nameIndex = 0;
    let queryIndex = 0;
    const getCached = cycle(names.slice(0, 1000).map((name) => `/v1/servers/${name}`));

    const rows: HttpBenchRow[] = [];
    const bare = await startBareServer();
    let bareRps: number;
    try {
      // The load tool's own cost depends on how requests are made: a path chosen per request and an
      // X-API-Key header cost the client time too. The ratios are taken against the second run, which
      // sends the bare server exactly the requests of the Get Server case, so they compare servers only.
      const plain = await load(bare.url, () => '/', seconds, connections, {});
      rows.push({ name: 'bare node:http, one path, no headers', ...plain, ratio: Number.NaN });
      const same = await load(bare.url, getCached, seconds, connections, headers);
      bareRps = same.requestsPerSecond;
      rows.push({ name: 'bare node:http, the Get Server requests', ...same, ratio: 1 });
    } finally {
      bare.stop();
    }

    const server = await startServer(
      { SNAPSHOT_DIR: snapshotDir, API_KEYS: key, FREE_DAILY_LIMIT: '1000000000' },
      path.join(dir, 'server.log'),
    );
    try {
      const cases: { name: string; paths: Paths; target?: number }[] = [
        { name: 'Get Server, cached (1,000 names in turn)', paths: getCached, target: 0.5 },
        {
          name: 'Get Server, uncached (every record once)',
          paths: () => `/v1/servers/${names[nameIndex++ % names.length]}`,
          target: 0.5,
        },
        {
          name: 'List filtered page, cached (10 pages)',
          paths: cycle(Array.from({ length: 10 }, (_, i) => listPath(i))),
          target: 0.3,
        },
        { name: 'List filtered page, uncached', paths: () => listPath(listIndex++), target: 0.3 },
        {
          name: 'Search, cached (20 queries)',
          paths: cycle(ids.slice(0, 20).map((id) => `/v1/search?q=${encodeURIComponent(id)}`)),
          target: 0.2,
        },
        {
          name: 'Search, uncached (next id as query)',
          paths: () => `/v1/search?q=${encodeURIComponent(ids[queryIndex++ % ids.length] ?? 'mcp')}`,
          target: 0.2,
        },
      ];
      for (const benchCase of cases) {
        const run = await load(server.url, benchCase.paths, seconds, connections, headers);
        rows.push({ name: benchCase.name, ...run, ratio: run.requestsPerSecond / bareRps, target: benchCase.target });
      }
    } finally {
      await server.stop();
    }

    // Two ways to start: `npm start` as it is (tsx compiles the TypeScript sources at every start), and
    // the same entry compiled ahead into one file, as a deployment runs it (Vercel compiles functions at
    // build time), which isolates what the service itself costs from what compiling on the fly costs.
    // Packages are bundled too: one file to parse instead of an ESM graph of hundreds of modules.
    const compiledEntry = path.join(dir, 'serve.mjs');
    await esbuild({
      entryPoints: [path.join(REPO_ROOT, 'scripts', 'serve.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile: compiledEntry,
      // CommonJS packages inside an ESM bundle still call require() for Node's built-in modules.
      banner: {
        js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
      },
      logLevel: 'error',
    });
    const colds: ColdStart[] = [];
    const compiledColds: ColdStart[] = [];
    for (let i = 0; i < coldStarts; i++) {
      colds.push(
        await coldStart(snapshotDir, key, names[i] ?? '', ['--import', 'tsx', path.join('scripts', 'serve.ts')]),
      );
      compiledColds.push(await coldStart(snapshotDir, key, names[i + coldStarts] ?? '', [compiledEntry]));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
    return {
      compiledColdStartMs: {
        median: median(compiledColds.map((cold) => cold.totalMs)),
        all: compiledColds.map((cold) => cold.totalMs),
        medianLoad: median(compiledColds.map((cold) => cold.loadMs)),
        medianReady: median(compiledColds.map((cold) => cold.readyMs)),
      },
      records,
      connections,
      seconds,
      rows,
      coldStartMs: {
        median: median(colds.map((cold) => cold.totalMs)),
        all: colds.map((cold) => cold.totalMs),
        medianLoad: median(colds.map((cold) => cold.loadMs)),
        medianReady: median(colds.map((cold) => cold.readyMs)),
      },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The result as a table and the cold start line. */
export function formatHttpBench(result: HttpBenchResult): string {
  const lines = [
    `HTTP, ${result.records.toLocaleString('en-US')} records, autocannon ${result.connections} connections, ${result.seconds} s per case`,
    `${'case'.padEnd(44)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'of bare'.padStart(8)}  target`,
  ];
  for (const row of result.rows) {
    const verdict =
      row.target === undefined ? '' : `>= ${row.target * 100}%: ${row.ratio >= row.target ? 'met' : 'NOT met'}`;
    lines.push(
      `${row.name.padEnd(44)} ${row.requestsPerSecond.toFixed(0).padStart(7)} ${String(row.p50Ms).padStart(7)} ` +
        `${String(row.p99Ms).padStart(7)} ${(Number.isNaN(row.ratio) ? '' : `${(row.ratio * 100).toFixed(0)}%`).padStart(8)}  ${verdict}` +
        (row.failures > 0 ? `  (${row.failures} failed)` : ''),
    );
  }
  const describe = (label: string, cold: HttpBenchResult['coldStartMs'], startup: string) => [
    `cold start, ${label}, spawn to first Get Server answer: median ${cold.median.toFixed(0)} ms ` +
      `(${cold.all.map((ms) => ms.toFixed(0)).join(', ')}); target < 300 ms: ${cold.median < 300 ? 'met' : 'NOT met'}`,
    `  of which (medians, as the server reports them): listening ${cold.medianReady} ms after its process started, ` +
      `${cold.medianLoad} ms of it loading the snapshot, so ${cold.medianReady - cold.medianLoad} ms of ${startup}`,
  ];
  lines.push(
    ...describe(
      'npm start (tsx)',
      result.coldStartMs,
      'runtime start-up (node, the tsx loader compiling TypeScript, imports)',
    ),
    ...describe(
      'compiled ahead into one bundle',
      result.compiledColdStartMs,
      'runtime start-up (node, parsing the bundle)',
    ),
  );
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: {
      records: { type: 'string', default: '100000' },
      seconds: { type: 'string', default: '5' },
      connections: { type: 'string', default: '50' },
    },
    strict: true,
  });
  const result = await benchHttp({
    records: Number(values.records),
    seconds: Number(values.seconds),
    connections: Number(values.connections),
  });
  console.log(formatHttpBench(result));
  if (result.rows.some((row) => row.failures > 0)) {
    console.error('Some requests failed: the figures above are not a fair comparison.');
    process.exitCode = 1;
  }
}
