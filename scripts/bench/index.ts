/**
 * `npm run bench -- [--records N] [--seed S] [--only snapshot,stalls,http,store,cold,minisearch,checker,webhooks,probes] [--seconds S] [--rounds R]
 * [--cold-rounds R] [--vercel-output DIR]`:
 * every benchmark, each figure with a target judged PASS or FAIL (`targets.ts`). `stalls` (issues 11
 * and 16): `npm start`'s first answers while the snapshot loads (scripts/bench/stalls.ts).
 * `snapshot` (issue 2): generates N synthetic records (default 100,000), then measures, each in a fresh
 * process so nothing is warm that should not be:
 * the build's time and peak memory, the artifacts' sizes, the time to load each artifact cold, the memory
 * of a process holding the snapshot, and in-process latency (median and p99 over many calls) of get,
 * list and search. `http` (issue 3): the gateway over HTTP against a bare node:http server, and cold starts
 * (scripts/bench/http.ts). `store` (issue 4): Get Server with STORE=redis against STORE=memory
 * (scripts/bench/store.ts). `cold` (issue 42): spawn → first Get Server answer of `npm start` on the committed
 * dataset and on a snapshot of N records, against `node -e 0` in the same rounds (`--cold-rounds`, default 7;
 * scripts/bench/cold.ts); it also measures a Vercel function's import plus first answer
 * (scripts/bench/function.ts; with `--vercel-output`, in a `vercel build` output's Get Server function too).
 * `checker` (issue 31): the packed and installed `mcp-trust-score check`, offline, start to exit against
 * `node -e 0` (scripts/bench/checker.ts).
 * `--rounds` (default 3) is how many times the build, the stalls runs and the HTTP cases are measured: the
 * build's median, the stalls' medians, each HTTP case's median round. `minisearch`: the name search against
 * MiniSearch 7 at the committed dataset's size and at N names, and MiniSearch's `loadJSON` of N names
 * (scripts/bench/minisearch.ts). `webhooks` (issue 30): the dispatcher delivering 10,000 events to a local receiver
 * (scripts/bench/webhooks.ts). `probes` (issue 40): the night's probe step over 10,000 stand-in MCP remotes, 50
 * of them hanging (scripts/bench/probes.ts). `name-index` (issue 43, not in the default list): the name index at
 * 100,000 and 1,000,000 names against the index before issue 43, taken from git (scripts/bench/name-index.ts).
 * `name-queries` (issue 43, not in the default list): how often search by name answers the curated lists' name
 * queries first and in the first three, against the search before issue 43 (scripts/bench/name-queries.ts).
 * Prints tables; docs/performance.md carries the figures.
 */
import { benchChecker } from './checker.js';
import { benchColdStart } from './cold.js';
import { benchFunctionColdStart } from './function.js';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { generateRecords } from '../../src/bench/synthetic.js';
import { buildSnapshot } from '../../src/snapshot-build/build.js';
import { loadSnapshot } from '../../src/query/open.js';
import { readManifest, type LoadTimings } from '../../src/query/load.js';
import type { ListParams } from '../../src/model/schema.js';
import { benchHttp, formatHttpBench } from './http.js';
import { benchMiniSearch, formatMiniSearchBench } from './minisearch.js';
import { benchStores, formatStoreBench } from './store.js';
import { benchStalls, formatStalls } from './stalls.js';
import { judged, targetsFor } from './targets.js';
import { latency } from './lib/latency.js';
import { benchWebhooks, formatWebhookBench } from './webhooks.js';
import { benchProbes, formatProbeBench } from './probes.js';
import { benchRescore, formatRescoreBench } from './rescore.js';
import { benchNameIndex, formatNameIndexBench } from './name-index.js';
import { benchNameQueries, formatNameQueriesBench } from './name-queries.js';
import { runMain } from '../lib/main.js';

/** The command line, read inside `main` so that a bad option is `runMain`'s one line (exit 2), not a stack. */
function parseOptions(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      records: { type: 'string', default: '100000' },
      seed: { type: 'string', default: '42' },
      child: { type: 'string' },
      dir: { type: 'string' },
      input: { type: 'string' },
      keep: { type: 'boolean', default: false },
      only: { type: 'string', default: 'snapshot,stalls,http,store,cold,minisearch,checker,webhooks,probes' },
      rounds: { type: 'string', default: '3' },
      'cold-rounds': { type: 'string', default: '7' },
      seconds: { type: 'string', default: '5' },
      'vercel-output': { type: 'string' },
      'rescore-servers': { type: 'string', default: '12000,100000' },
    },
    strict: true,
  }).values;
}

const FILE_RECORDS = 100_000;
const CALLS = 2_000;

/** Child: build the snapshot and report time and peak memory. */
async function childBuild(input: string, dir: string) {
  const start = performance.now();
  await buildSnapshot({ input, out: dir });
  return { seconds: (performance.now() - start) / 1000, peakMB: process.resourceUsage().maxRSS / 1024 };
}

/** Child: load cold, then time the queries in process. */
async function childQuery(dir: string, records: number) {
  const timings: LoadTimings = {};
  // In one go (no slices): what loading costs, not how it is spread.
  const engine = await loadSnapshot(dir, timings, { sliceMs: Infinity });
  const loadMs = timings.total ?? 0;
  global.gc?.();
  const memory = process.memoryUsage();
  const manifest = await readManifest(dir);
  void manifest;

  // The first change list since the oldest kept snapshot: made once per `since`, a slice at a time, and
  // kept; how long it takes and how long it held the event loop at most.
  const oldest = engine.history()?.snapshots.at(-1)?.snapshot_id ?? manifest.snapshot_id;
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const changesStarted = performance.now();
  await engine.prepareChanges(oldest);
  const firstChangesMs = performance.now() - changesStarted;
  delay.disable();
  const firstChangesHeldMs = delay.max / 1e6;

  // Real names from the snapshot, looked up in a shuffled, changing order and in other letter cases.
  const page = engine.listJson({ limit: 200, offset: Math.floor(records / 3), sort: 'name', order: 'asc' });
  const names = (JSON.parse(page.json) as { name: string }[]).map((record) => record.name);
  let n = 0;
  const base: ListParams = { limit: 50, offset: 0, sort: 'trust_score', order: 'desc' };
  const cases: [string, () => unknown][] = [
    ['get (random real name, other case)', () => engine.getJson(names[n++ % names.length]!.toUpperCase())],
    ['list: default page', () => engine.listJson(base)],
    [
      'list: flags + target, sort=name',
      () => engine.listJson({ ...base, sort: 'name', order: 'asc', flags: 'NO_SOURCE', target: 'github' }),
    ],
    [
      'list: namespace + min_score, sort=popularity',
      () => engine.listJson({ ...base, sort: 'popularity', namespace: 'io.github.kaka', min_score: 30 }),
    ],
    ['list: offset N/2', () => engine.listJson({ ...base, offset: Math.floor(records / 2) })],
    [
      'list: min_score=60, offset N/10, sort=scored_at',
      () => engine.listJson({ ...base, sort: 'scored_at', min_score: 60, offset: Math.floor(records / 10) }),
    ],
    ['search: common word "mcp"', () => engine.searchJson('mcp', 20)],
    ['search: "github" (in most namespaces)', () => engine.searchJson('github', 20)],
    ['search: rare word "kubernetes"', () => engine.searchJson('kubernetes', 20)],
    ['search: typo "postgrse"', () => engine.searchJson('postgrse', 20)],
    ['search: two words "slack tools"', () => engine.searchJson('slack tools', 20)],
    [
      'search: names + descriptions "manage files"',
      () => engine.searchJson('manage files', 20, { in: ['name', 'description'] }),
    ],
    ['search: "mcp", offset N/100', () => engine.searchJson('mcp', 20, { offset: Math.floor(records / 100) })],
  ];
  const results = cases.map(([name, fn]) => {
    const calls = name.startsWith('search') ? 500 : CALLS;
    return { name, ...latency(fn, calls, Math.min(200, calls)) };
  });
  return {
    loadMs,
    timings,
    getReadyMs: timings.getReady ?? 0,
    startMs: timings.total ?? 0,
    rssMB: memory.rss / 1e6,
    heapMB: memory.heapUsed / 1e6,
    externalMB: (memory.external + memory.arrayBuffers) / 1e6,
    firstChangesMs,
    firstChangesHeldMs,
    results,
  };
}

function runChild(args: string[]): unknown {
  const result = spawnSync(
    process.execPath,
    ['--expose-gc', '--max-old-space-size=4096', '--import', 'tsx', 'scripts/bench/index.ts', ...args],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    },
  );
  if (result.status !== 0) throw new Error(`bench child ${args.join(' ')} failed:\n${result.stderr}`);
  const lines = result.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]!);
}

const fmt = (ms: number) => (ms < 1 ? ms.toFixed(3) : ms.toFixed(1));

async function main() {
  const values = parseOptions(process.argv.slice(2));
  if (values.child === 'build') {
    console.log(JSON.stringify(await childBuild(values.input!, values.dir!)));
    return;
  }
  if (values.child === 'query') {
    console.log(JSON.stringify(await childQuery(values.dir!, Number(values.records))));
    return;
  }
  const count = Number(values.records);
  const parts = new Set(values.only.split(','));
  if (parts.has('snapshot') || parts.has('stalls')) {
    // The build is timed over the rounds when its figure is printed (a single run moves with the host).
    const { work, dir, build } = await prepareSnapshot(
      count,
      parts.has('snapshot') ? Number(values.rounds) : 1,
      Number(values.seed),
    );
    try {
      if (parts.has('snapshot')) await benchSnapshot(count, dir, build);
      if (parts.has('stalls')) {
        console.log('\n## No stalls: first answers while the snapshot loads (issues 11 and 16)\n');
        const runs = [];
        for (let round = 0; round < Number(values.rounds); round++) runs.push(await benchStalls(dir));
        console.log(formatStalls(runs));
      }
    } finally {
      if (!values.keep) await rm(work, { recursive: true, force: true });
      else console.log(`\nkept ${work}`);
    }
  }
  if (parts.has('http')) {
    console.log('\n## HTTP throughput against a bare node:http server (issue 11 targets)\n');
    console.log(
      formatHttpBench(
        await benchHttp({ records: count, seconds: Number(values.seconds), rounds: Number(values.rounds) }),
      ),
    );
  }
  if (parts.has('cold')) {
    console.log('\n## Cold start (issue 42 target: ≤ 2.3× node -e 0, committed data and --records)\n');
    // A snapshot of its own at --records (the first record's name is the one asked for), removed after.
    const { work, dir } = await prepareSnapshot(count, 1, Number(values.seed));
    try {
      const first = (await readFile(path.join(work, 'part-000.ndjson'), 'utf8')).slice(0, 100_000).split('\n')[0]!;
      const { name } = JSON.parse(first) as { name: string };
      console.log(await benchColdStart(Number(values['cold-rounds']), { dir, records: count, name }));
    } finally {
      await rm(work, { recursive: true, force: true });
    }
    console.log();
    console.log(await benchFunctionColdStart());
    if (values['vercel-output'] !== undefined) {
      console.log();
      console.log(await benchFunctionColdStart(5, values['vercel-output']));
    }
  }
  if (parts.has('minisearch')) {
    console.log("\n## Name search: this project's index against MiniSearch 7 (docs/decisions.md)\n");
    console.log(
      formatMiniSearchBench(await benchMiniSearch({ records: count, seed: Number(values.seed), calls: 200 })),
    );
  }
  if (parts.has('checker')) {
    console.log('\n## The installed checker, offline, against node -e 0 (issue 31 target)\n');
    console.log(await benchChecker());
  }
  if (parts.has('webhooks')) {
    console.log('\n## Webhooks: 10,000 events delivered to a local receiver (issue 30)\n');
    console.log(formatWebhookBench(await benchWebhooks(10_000)));
  }
  if (parts.has('probes')) {
    console.log('\n## Probes: 10,000 stand-in MCP remotes, 50 of them hanging (issue 40)\n');
    console.log(formatProbeBench(await benchProbes()));
  }
  if (parts.has('name-index')) {
    console.log('\n## The name index at 100,000 and 1,000,000 names, against the index before issue 43\n');
    console.log(
      formatNameIndexBench(await benchNameIndex({ seed: Number(values.seed), rounds: Number(values.rounds) })),
    );
  }
  if (parts.has('name-queries')) {
    console.log('\n## Name queries from curated lists, against the search before issue 43\n');
    console.log(formatNameQueriesBench(await benchNameQueries()));
  }
  if (parts.has('rescore')) {
    console.log('\n## The nightly rescoring at registry scale, against the stand-ins (issue 39)\n');
    console.log(formatRescoreBench(await benchRescore(values['rescore-servers'].split(',').map(Number))));
  }
  if (parts.has('store')) {
    console.log('\n## Store benchmark: Get Server with STORE=redis against STORE=memory (issue 4 target)\n');
    console.log(formatStoreBench(await benchStores({ seconds: Number(values.seconds) })));
  }
}

/**
 * A generated dataset of `count` records built into a snapshot, `builds` times, each in a fresh child: the
 * median time, the highest peak memory, and how many builds they come from.
 */
async function prepareSnapshot(
  count: number,
  builds: number,
  seed: number,
): Promise<{ work: string; dir: string; build: { seconds: number; peakMB: number; runs: number } }> {
  const work = await mkdtemp(path.join(tmpdir(), 'mts-bench-'));
  console.log(`generating ${count.toLocaleString('en')} records (seed ${seed})...`);
  const records = generateRecords(count, seed);
  for (let file = 0; file * FILE_RECORDS < count; file++) {
    const slice = records.slice(file * FILE_RECORDS, (file + 1) * FILE_RECORDS);
    await writeFile(
      path.join(work, `part-${String(file).padStart(3, '0')}.ndjson`),
      slice.map((r) => JSON.stringify(r)).join('\n') + '\n',
    );
  }
  records.length = 0;
  const dir = path.join(work, 'snapshot');
  const runs: { seconds: number; peakMB: number }[] = [];
  for (let run = 0; run < Math.max(1, builds); run++) {
    await rm(dir, { recursive: true, force: true });
    runs.push(runChild(['--child', 'build', '--input', `${work}/*.ndjson`, '--dir', dir]) as (typeof runs)[number]);
  }
  const seconds = runs.map((run) => run.seconds).sort((a, b) => a - b);
  const build = {
    seconds: (seconds[Math.floor((seconds.length - 1) / 2)]! + seconds[Math.ceil((seconds.length - 1) / 2)]!) / 2,
    peakMB: Math.max(...runs.map((run) => run.peakMB)),
    runs: runs.length,
  };
  return { work, dir, build };
}

/** The snapshot's own figures: build, artifacts, load, memory, in-process latency. */
async function benchSnapshot(count: number, dir: string, build: { seconds: number; peakMB: number; runs: number }) {
  const targets = targetsFor(count);
  const manifest = await readManifest(dir);
  const query = runChild(['--child', 'query', '--dir', dir, '--records', String(count)]) as Awaited<
    ReturnType<typeof childQuery>
  >;
  const rssMiB = (query.rssMB * 1e6) / 2 ** 20;

  console.log(
    `\n## Snapshot benchmark: ${count.toLocaleString('en')} records (node ${process.version}, ${new Date().toISOString()})\n`,
  );
  console.log('| measure | value | target |\n|---|---|---|');
  console.log(
    `| build (validate, index, write)${build.runs > 1 ? `, median of ${build.runs}` : ''} | ${build.seconds.toFixed(1)} s, peak RSS ${build.peakMB.toFixed(0)} MB | ${judged(build.seconds, targets.buildSeconds, ' s')}${targets.buildPeakMB === undefined ? '' : `; peak ${judged(build.peakMB, targets.buildPeakMB, ' MB')}`} |`,
  );
  console.log(`| load what \`get\` needs (manifest, records, names, stats) | ${fmt(query.getReadyMs)} ms | |`);
  console.log(`| load everything (read, verify hashes, decode), in one go | ${fmt(query.loadMs)} ms | |`);
  console.log(
    `| the first change list (\`/v1/changes\` since the oldest kept snapshot, then kept) | ${fmt(query.firstChangesMs)} ms, the event loop held at most ${fmt(query.firstChangesHeldMs)} ms | |`,
  );
  console.log(
    `| this tsx process holding the loaded snapshot, history decoded (the server's RSS, judged: \`--only stalls\`) | RSS ${rssMiB.toFixed(0)} MiB (heap ${query.heapMB.toFixed(0)} MB, buffers ${query.externalMB.toFixed(0)} MB) | |`,
  );
  console.log('\n| artifact | size |\n|---|---:|');
  for (const [file, { bytes }] of Object.entries(manifest.files))
    console.log(`| ${file} | ${(bytes / 1e6).toFixed(1)} MB |`);
  console.log('\n| part (read, verify, decode) | time |\n|---|---:|');
  for (const part of ['records', 'names', 'lists', 'search', 'descriptions', 'lookup', 'history'] as const)
    console.log(`| ${part} | ${fmt(query.timings[part] ?? 0)} ms |`);
  console.log('\n| in-process query | median | p99 | target (p99) |\n|---|---:|---:|---|');
  for (const r of query.results) {
    const limit = r.name.startsWith('search: common')
      ? targets.searchP99Ms
      : r.name.startsWith('list')
        ? targets.listP99Ms
        : undefined;
    console.log(
      `| ${r.name} | ${fmt(r.medianMs)} ms | ${fmt(r.p99Ms)} ms | ${limit === undefined ? '' : judged(r.p99Ms, limit, ' ms')} |`,
    );
  }
}

runMain(main);
