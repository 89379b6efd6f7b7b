/**
 * `npm run soak -- [--duration 300] [--connections 50] [--records 100000] [--window 30]`: the service under
 * mixed, realistic traffic for a set time, as `npm start` runs it, watching for what a short benchmark
 * cannot see: memory that grows, latency that drifts, a 5xx, a dropped connection. Not part of `npm test`.
 *
 * - Builds a snapshot of `--records` synthetic records (`generateRecords`, seeded) in a temp folder and starts
 *   `scripts/serve.ts` on it as a child process (STORE=memory, its request log going to a file, as under a
 *   process manager), with twenty free-plan keys (`API_KEYS`, `FREE_DAILY_LIMIT` one billion) and one
 *   pro-plan key (10,000 a day) in the key file. The pro key is used up in a warm-up before the measured
 *   run, so its share of the traffic answers 429 throughout instead of changing the mix half-way.
 * - Drives `--connections` keep-alive connections (autocannon, in this process) with a seeded mix:
 *   Get Server of real names from the snapshot (some in other case), List Servers with random filters,
 *   sorts, orders, pages and offsets, Search from a word list with typos, statistics, health, requests that
 *   must fail (400: bad parameters; 404: unknown servers and routes) and the used-up key (429).
 * - Reports requests served and status counts, p50 and p99 per `--window` seconds, the server's resident
 *   memory over time (VmRSS from /proc/<pid>/status every 5 s), 5xx answers and dropped connections
 *   (connection errors and timeouts), then the targets of issue 7 as PASS/FAIL lines: memory at the end
 *   within 10% of memory after the first minute, p99 of the last minute within 1.5x the first minute's,
 *   zero 5xx, zero dropped connections. Exits 1 when a target fails.
 *   Memory is compared as the median of a window's samples (the window after the first minute, and the
 *   last window), not as two single samples: the heap rises and falls by a hundred MB between garbage
 *   collections, so one sample says more about when it was taken than about a trend.
 *
 * Traffic goes to 127.0.0.1 only.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateRecords, seededRandom } from '../../src/bench/synthetic.js';
import { hashKey } from '../../src/keys/keys.js';
import { SORT_FIELDS } from '../../src/model/schema.js';
import { writeSnapshot } from '../../src/snapshot-build/build.js';
import { createMemoryStore } from '../../src/stores/memory.js';
import { autocannon, type AutocannonResult } from './lib/autocannon.js';
import { runMain } from '../lib/main.js';
import { OperatorError } from '../../src/errors/operator-error.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// ---------------------------------------------------------------------------------------------------------
// Options.

/** The soak's command line, read by `main` (so a bad option is one line, not a stack trace: `runMain`). */
interface SoakOptions {
  durationS: number;
  connections: number;
  records: number;
  windowS: number;
  seed: number;
}

function positiveInteger(name: string, text: string | undefined): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) {
    throw new OperatorError(`--${name} must be a positive whole number, not ${JSON.stringify(text)}`, { exitCode: 2 });
  }
  return value;
}

function parseOptions(argv: string[]): SoakOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string', default: '300' },
      connections: { type: 'string', default: '50' },
      records: { type: 'string', default: '100000' },
      window: { type: 'string', default: '30' },
      seed: { type: 'string', default: '7' },
    },
    strict: true,
  });
  return {
    durationS: positiveInteger('duration', values.duration),
    connections: positiveInteger('connections', values.connections),
    records: positiveInteger('records', values.records),
    windowS: positiveInteger('window', values.window),
    seed: positiveInteger('seed', values.seed),
  };
}

const RSS_EVERY_MS = 5000;
const PRO_DAILY_LIMIT = 10_000;
/** Autocannon's per-request timeout, seconds: a request unanswered this long counts as dropped. */
const REQUEST_TIMEOUT_S = 10;

// ---------------------------------------------------------------------------------------------------------
// The server.

interface Server {
  url: string;
  pid: number;
  stderr(): Promise<string>;
  stop(): Promise<void>;
}

/** `scripts/serve.ts` as `npm start` runs it, stdout (the request log) and stderr to files. */
async function startServer(env: Record<string, string>, dir: string): Promise<Server> {
  const outFile = path.join(dir, 'server.log');
  const errFile = path.join(dir, 'server.err');
  const [out, err] = await Promise.all([open(outFile, 'w'), open(errFile, 'w')]);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('scripts', 'serve.ts')], {
    cwd: REPO_ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', out.fd, err.fd],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const started = Date.now();
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`the server exited with ${child.exitCode}: ${await readFile(errFile, 'utf8')}`);
      const match = /Listening on (http:\/\/\S+)/.exec(await readFile(outFile, 'utf8'));
      if (match?.[1] && child.pid !== undefined) {
        return {
          url: match[1],
          pid: child.pid,
          stderr: () => readFile(errFile, 'utf8'),
          stop: async () => {
            if (child.exitCode === null) child.kill('SIGTERM');
            await exited;
          },
        };
      }
      if (Date.now() - started > 120_000) throw new Error('the server did not start within 120 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await Promise.all([out.close(), err.close()]);
  }
}

/** The resident memory of process `pid`, in MB, from /proc (Linux). */
async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

// ---------------------------------------------------------------------------------------------------------
// The traffic.

interface Mix {
  /** The next request: its path and key. */
  next(): { path: string; key: string };
}

const SEARCH_WORDS = [
  'github',
  'postgres',
  'slack',
  'notion',
  'stripe',
  'docker',
  'kubernetes',
  'memory',
  'browser',
  'weather',
  'search',
  'files',
  'calendar',
  'email',
  'analytics',
  'vector',
  'agent',
  'workflow',
  'security',
  'scanner',
  'knowledge',
  'graph',
  'notes',
  'images',
  'code',
  'review',
  'deploy',
  'monitor',
  'finance',
  'translate',
  'mcp',
  'server',
];
const FLAGS = [
  'TEMPLATE_DESCRIPTION',
  'NO_SOURCE',
  'DEAD_ENTRY',
  'SENSITIVE_CRED_REQUEST',
  'NO_SOURCE,TEMPLATE_DESCRIPTION',
];
const TARGETS = ['GitHub', 'PostgreSQL', 'Slack', 'Notion', 'Stripe', 'Docker', 'aws', 'redis'];

/** A word with a typo: a letter dropped, doubled or swapped with the next. */
function typo(word: string, random: () => number): string {
  const at = Math.floor(random() * (word.length - 1));
  const kind = random();
  if (kind < 1 / 3) return word.slice(0, at) + word.slice(at + 1);
  if (kind < 2 / 3) return word.slice(0, at + 1) + word.slice(at);
  return word.slice(0, at) + (word[at + 1] ?? '') + (word[at] ?? '') + word.slice(at + 2);
}

function makeMix(
  names: readonly string[],
  namespaces: readonly string[],
  keys: readonly string[],
  limitedKey: string,
  seed: number,
): Mix {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const key = () => pick(keys);
  const caseVariant = (name: string) => (random() < 0.1 ? name.toUpperCase() : name);

  const lookup = () => `/v1/servers/${caseVariant(pick(names)).split('/').map(encodeURIComponent).join('/')}`;
  const list = () => {
    const params = new URLSearchParams();
    if (random() < 0.7) params.set('limit', String(pick([10, 20, 25, 50, 100])));
    if (random() < 0.6)
      params.set('offset', String(random() < 0.8 ? Math.floor(random() * 10) * 20 : Math.floor(random() * 5000)));
    if (random() < 0.6) params.set('sort', pick(SORT_FIELDS));
    if (random() < 0.5) params.set('order', pick(['asc', 'desc']));
    if (random() < 0.4) params.set('min_score', String(Math.floor(random() * 90)));
    if (random() < 0.3) params.set('flags', pick(FLAGS));
    if (random() < 0.2) params.set('target', pick(TARGETS));
    if (random() < 0.15) params.set('namespace', pick(namespaces));
    const query = params.toString();
    return query === '' ? '/v1/servers' : `/v1/servers?${query}`;
  };
  const search = () => {
    let q = pick(SEARCH_WORDS);
    if (random() < 0.3) q = typo(q, random);
    if (random() < 0.2) q = `${q} ${pick(SEARCH_WORDS)}`;
    const limit = random() < 0.3 ? `&limit=${pick([5, 10, 50])}` : '';
    return `/v1/search?q=${encodeURIComponent(q)}${limit}`;
  };
  const bad = () =>
    pick([
      '/v1/servers?limit=0',
      '/v1/servers?sort=popular',
      '/v1/servers?page=2',
      '/v1/search?q=a',
      '/v1/search',
      '/v1/stats?x=1',
      `/v1/servers/io.github.nobody/${Math.floor(random() * 1e6).toString(36)}`,
      '/v1/server',
      '/v1/servers/a/b/c',
    ]);

  return {
    next() {
      const roll = random();
      if (roll < 0.4) return { path: lookup(), key: key() };
      if (roll < 0.6) return { path: list(), key: key() };
      if (roll < 0.75) return { path: search(), key: key() };
      if (roll < 0.8) return { path: '/v1/stats', key: key() };
      if (roll < 0.83) return { path: '/v1/health', key: key() };
      if (roll < 0.93) return { path: bad(), key: key() };
      return { path: random() < 0.5 ? lookup() : '/v1/stats', key: limitedKey };
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Measuring.

interface Window {
  latencies: number[];
  statuses: Map<number, number>;
  dropped: number;
}

const newWindow = (): Window => ({ latencies: [], statuses: new Map(), dropped: 0 });

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

function sortedOf(windows: Window[]): Float64Array {
  const all = new Float64Array(windows.reduce((sum, window) => sum + window.latencies.length, 0));
  let at = 0;
  for (const window of windows) for (const value of window.latencies) all[at++] = value;
  return all.sort();
}

const ms = (value: number) => (value < 10 ? value.toFixed(1) : Math.round(value).toString());
const count = (value: number) => value.toLocaleString('en-US');

function statusGroup(status: number): string {
  if (status >= 500) return '5xx';
  if (status === 200 || status === 304) return '200';
  return String(status);
}

// ---------------------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const { durationS, connections, records: recordCount, windowS } = options;
  const dir = await mkdtemp(path.join(tmpdir(), 'mts-soak-'));
  let server: Server | undefined;
  try {
    console.log(`Building a snapshot of ${count(recordCount)} synthetic records ...`);
    const snapshotDir = path.join(dir, 'snapshot');
    const { names, namespaces } = await (async () => {
      const records = generateRecords(recordCount, 42);
      await writeSnapshot(records, snapshotDir);
      // Only the names stay in this process: a big heap here would pause the load tool.
      const all = records.map((record) => record.name);
      return { names: all, namespaces: [...new Set(all.map((name) => name.slice(0, name.indexOf('/'))))] };
    })();

    const keys = Array.from({ length: 20 }, () => `mts_soak_${randomBytes(16).toString('hex')}`);
    const limitedKey = `mts_soak_pro_${randomBytes(16).toString('hex')}`;
    const keysFile = path.join(dir, 'keys.json');
    const keyStore = createMemoryStore({ keysFile });
    await keyStore.addKey({
      hash: hashKey(limitedKey),
      plan: 'pro',
      label: 'soak: the limited key',
      created_at: new Date().toISOString(),
    });
    await keyStore.close();

    server = await startServer(
      {
        SNAPSHOT_DIR: snapshotDir,
        API_KEYS: keys.join(','),
        FREE_DAILY_LIMIT: '1000000000',
        KEYS_FILE: keysFile,
        STORE: 'memory',
      },
      dir,
    );
    const { url, pid } = server;
    console.log(`Server ${pid} on ${url}; using up the limited key (${count(PRO_DAILY_LIMIT)} requests) ...`);
    await autocannon({
      url,
      connections,
      amount: PRO_DAILY_LIMIT,
      requests: [
        { setupRequest: (request) => ({ ...request, path: '/v1/stats', headers: { 'x-api-key': limitedKey } }) },
      ],
    });

    const mix = makeMix(names, namespaces, keys, limitedKey, options.seed);
    const windowCount = Math.ceil(durationS / windowS);
    const windows: Window[] = Array.from({ length: windowCount }, newWindow);
    const rss: { atS: number; mb: number }[] = [];
    const started = performance.now();
    const windowNow = () =>
      windows[Math.min(windowCount - 1, Math.floor((performance.now() - started) / 1000 / windowS))] as Window;

    console.log(`Soak: ${durationS} s, ${connections} connections, windows of ${windowS} s ...`);
    rss.push({ atS: 0, mb: await rssMb(pid) });
    const sampler = setInterval(() => {
      void rssMb(pid)
        .then((mb) => rss.push({ atS: (performance.now() - started) / 1000, mb }))
        .catch(() => {});
    }, RSS_EVERY_MS);
    const progress = setInterval(() => {
      const elapsed = Math.round((performance.now() - started) / 1000);
      const served = windows.reduce((sum, window) => sum + window.latencies.length, 0);
      console.log(`  ${elapsed} s: ${count(served)} answers, RSS ${rss.at(-1)?.mb.toFixed(0)} MB`);
    }, windowS * 1000);

    const instance = autocannon({
      url,
      connections,
      duration: durationS,
      timeout: REQUEST_TIMEOUT_S,
      requests: [
        {
          setupRequest: (request) => {
            const next = mix.next();
            return { ...request, path: next.path, headers: { 'x-api-key': next.key } };
          },
        },
      ],
    });
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      const window = windowNow();
      window.latencies.push(responseTimeMs);
      window.statuses.set(statusCode, (window.statuses.get(statusCode) ?? 0) + 1);
    });
    instance.on('reqError', () => {
      windowNow().dropped++;
    });
    const result = await instance;
    clearInterval(sampler);
    clearInterval(progress);
    rss.push({ atS: (performance.now() - started) / 1000, mb: await rssMb(pid) });

    return report(options, windows, rss, result, await server.stderr());
  } finally {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

function report(
  options: SoakOptions,
  windows: Window[],
  rss: { atS: number; mb: number }[],
  result: AutocannonResult,
  stderr: string,
): number {
  const { durationS, connections, records: recordCount, windowS } = options;
  const totals = new Map<string, number>();
  for (const window of windows) {
    for (const [status, n] of window.statuses)
      totals.set(statusGroup(status), (totals.get(statusGroup(status)) ?? 0) + n);
  }
  const served = [...totals.values()].reduce((sum, n) => sum + n, 0);
  const fivexx = totals.get('5xx') ?? 0;
  const dropped = windows.reduce((sum, window) => sum + window.dropped, 0);
  /** The samples taken in [from, to) seconds (the last window also keeps the final sample). */
  const rssIn = (from: number, to: number) =>
    rss
      .filter((sample) => sample.atS >= from && (sample.atS < to || to >= durationS))
      .map((sample) => sample.mb)
      .sort((a, b) => a - b);
  const median = (values: number[]) => values[Math.floor((values.length - 1) / 2)] ?? Number.NaN;

  console.log('');
  console.log(
    `${durationS} s, ${connections} connections, ${count(recordCount)} records: ${count(served)} requests served ` +
      `(${count(Math.round(served / durationS))}/s)`,
  );
  console.log(
    `Statuses: ${['200', '400', '404', '429', '5xx'].map((group) => `${group} ${count(totals.get(group) ?? 0)}`).join(', ')}` +
      `${[...totals.keys()]
        .filter((group) => !['200', '400', '404', '429', '5xx'].includes(group))
        .map((group) => `, ${group} ${count(totals.get(group) ?? 0)}`)
        .join('')}`,
  );
  console.log(`Dropped connections: ${dropped} (autocannon: ${result.errors} errors, ${result.timeouts} timeouts)`);
  console.log('');
  console.log(
    '| window | requests | req/s | p50 ms | p99 ms | 200 | 400 | 404 | 429 | 5xx | dropped | RSS MB, median (max) |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  windows.forEach((window, index) => {
    const sorted = Float64Array.from(window.latencies).sort();
    const by = (group: string) =>
      [...window.statuses].filter(([status]) => statusGroup(status) === group).reduce((sum, [, n]) => sum + n, 0);
    const from = index * windowS;
    const to = Math.min(durationS, from + windowS);
    console.log(
      `| ${from}–${to} s | ${count(sorted.length)} | ${count(Math.round(sorted.length / (to - from)))} | ${ms(percentile(sorted, 50))} | ` +
        `${ms(percentile(sorted, 99))} | ${count(by('200'))} | ${count(by('400'))} | ${count(by('404'))} | ${count(by('429'))} | ` +
        `${by('5xx')} | ${window.dropped} | ${median(rssIn(from, to)).toFixed(0)} (${(rssIn(from, to).at(-1) ?? Number.NaN).toFixed(0)}) |`,
    );
  });

  const perMinute = Math.max(1, Math.round(60 / windowS));
  const firstMinute = sortedOf(windows.slice(0, perMinute));
  const lastMinute = sortedOf(windows.slice(-perMinute));
  const p99First = percentile(firstMinute, 99);
  const p99Last = percentile(lastMinute, 99);
  const afterFirstMinute = Math.min(60, durationS - windowS);
  const rssMinute = median(rssIn(afterFirstMinute, afterFirstMinute + windowS));
  const rssEnd = median(rssIn(durationS - windowS, durationS));
  const memoryChange = (rssEnd - rssMinute) / rssMinute;
  const targets: [boolean, string][] = [
    [
      Math.abs(memoryChange) <= 0.1,
      `memory at the end within 10% of after the first minute (median RSS of ${afterFirstMinute}–${afterFirstMinute + windowS} s and of the last ${windowS} s): ${rssMinute.toFixed(0)} MB → ${rssEnd.toFixed(0)} MB (${memoryChange >= 0 ? '+' : ''}${(memoryChange * 100).toFixed(1)}%)`,
    ],
    [
      p99Last <= 1.5 * p99First,
      `p99 in the last minute within 1.5x the first: ${ms(p99First)} ms → ${ms(p99Last)} ms (${(p99Last / p99First).toFixed(2)}x)`,
    ],
    [fivexx === 0, `zero 5xx: ${fivexx}`],
    [dropped === 0, `zero dropped connections: ${dropped}`],
  ];
  console.log('');
  console.log(
    `RSS samples (MB): ${rss.map((sample) => `${Math.round(sample.atS)} s ${sample.mb.toFixed(0)}`).join(', ')}`,
  );
  for (const [pass, line] of targets) console.log(`${pass ? 'PASS' : 'FAIL'} ${line}`);
  const bugs = stderr.split('\n').filter((line) => line.includes('unexpected error'));
  if (bugs.length > 0) console.log(`Server stderr reported ${bugs.length} unexpected errors; the first: ${bugs[0]}`);
  return targets.some(([pass]) => !pass) || bugs.length > 0 ? 1 : 0;
}

runMain(main);
