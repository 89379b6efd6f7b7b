/**
 * `npx tsx scripts/bench/compare.ts [--records 100000] [--case <part of a name>] [--rounds 16] [--burst 1]
 * <dist> <dist> ...`: how much server CPU a request costs in each of several builds of the server, measured
 * so that a busy host does not decide the answer.
 *
 * Each `<dist>` is a folder made by `npm run compile` (copy `dist/` aside before a change, for example to
 * `/tmp/dist-before`, and compile again after it). Every build's server runs at once on one synthetic
 * snapshot (core 0, the load tool on core 1), each with the HTTP benchmark's requests (`lib/paths.ts`);
 * the load goes to each in turn in bursts of `--burst` seconds, the order turning every round, so the host's
 * mood of the moment falls alike on all of them. Each build's server answers every case in turn, as in the
 * HTTP bench, and its RSS is read after each case. A burst's figure is the server's CPU time (from /proc) over
 * the requests it answered; a round's ratio is a build's figure over the first build's, and the median of
 * those ratios is the comparison. HTTP runs minutes apart moved by a fifth and more with this host; two
 * identical builds compared this way differed by up to about 3% (docs/performance.md, "Comparing builds").
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateRecords } from '../../src/bench/synthetic.js';
import { UsageError } from '../../src/errors/operator-error.js';
import { splitName } from '../../src/model/schema.js';
import { writeSnapshot } from '../../src/snapshot-build/build.js';
import { autocannon } from './lib/autocannon.js';
import { benchCases, type Paths } from './lib/paths.js';
import { cpuMs, pinLoadTool, rssMiB, startServer, unpinLoadTool } from './lib/pinned-servers.js';
import { runMain } from '../lib/main.js';

const KEY = 'mts_bench_compare_0123456789abcdef01234567';

/** The server CPU time a request of one burst, and whether every answer was a 200. */
async function burst(
  server: { url: string; pid: number | undefined },
  paths: Paths,
  seconds: number,
): Promise<{ micros: number; failures: number }> {
  const before = await cpuMs(server.pid);
  const result = await autocannon({
    url: server.url,
    connections: 50,
    duration: seconds,
    headers: { 'x-api-key': KEY },
    requests: [{ setupRequest: (request) => ({ ...request, path: paths() }) }],
  });
  const used = (await cpuMs(server.pid)) - before;
  return {
    micros: (used * 1000) / result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
};

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: {
      records: { type: 'string', default: '100000' },
      case: { type: 'string', default: '' },
      rounds: { type: 'string', default: '16' },
      burst: { type: 'string', default: '1' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length < 2) throw new UsageError('Give two or more folders made by `npm run compile` to compare.');
  for (const dist of positionals) {
    if (!existsSync(path.join(dist, 'serve.mjs')))
      throw new UsageError(`${dist} holds no serve.mjs (made by \`npm run compile\`).`);
  }
  const rounds = Number(values.rounds);
  const seconds = Number(values.burst);
  if (!(Number.isInteger(rounds) && rounds >= 1 && seconds > 0))
    throw new UsageError('--rounds is a whole number from 1 and --burst a number of seconds above 0.');
  const dir = await mkdtemp(path.join(tmpdir(), 'mts-bench-compare-'));
  pinLoadTool();
  try {
    const snapshotDir = path.join(dir, 'snapshot');
    // Only the names stay in this process: the records would make the load tool's heap, and its pauses, big.
    const { names, ids } = await (async () => {
      const data = generateRecords(Number(values.records), 42);
      await writeSnapshot(data, snapshotDir);
      return { names: data.map((record) => record.name), ids: data.map((record) => splitName(record.name).id) };
    })();
    const cases = benchCases(names, ids).filter((benchCase) => benchCase.name.includes(values.case));
    if (cases.length === 0) throw new UsageError(`No benchmark case's name contains ${JSON.stringify(values.case)}.`);
    console.log(
      `Server CPU µs a request, ${rounds} rounds of ${seconds} s bursts a build; ratio: the median of each ` +
        "round's figure over the first build's, with its quartiles",
    );
    console.log('');
    console.log('| case | build | µs a request (median burst) | ratio to the first | server RSS after, MiB |');
    console.log('|---|---|---:|---:|---:|');
    // One server a build for every case, as in the HTTP bench: the later cases find what the earlier left.
    const servers: Awaited<ReturnType<typeof startServer>>[] = [];
    try {
      for (const [i, dist] of positionals.entries()) {
        const env = { SNAPSHOT_DIR: snapshotDir, API_KEYS: KEY, FREE_DAILY_LIMIT: '1000000000', STORE: 'memory' };
        servers.push(await startServer(env, path.join(dir, `server-${i}.log`), path.resolve(dist)));
      }
      for (const benchCase of cases) {
        const streams = servers.map(() => benchCase.paths());
        // Warm-up: every server loads its parts and compiles its hot paths before anything counts.
        for (const [i, server] of servers.entries()) await burst(server, streams[i]!, 2);
        const figures: number[][] = servers.map(() => []);
        let failures = 0;
        for (let round = 0; round < rounds; round++) {
          for (let turn = 0; turn < servers.length; turn++) {
            const i = (round + turn) % servers.length;
            const result = await burst(servers[i]!, streams[i]!, seconds);
            figures[i]!.push(result.micros);
            failures += result.failures;
          }
        }
        for (const [i, dist] of positionals.entries()) {
          const ratios = figures[i]!.map((value, round) => value / figures[0]![round]!).sort((a, b) => a - b);
          const quartiles = `${ratios[Math.floor(ratios.length / 4)]!.toFixed(3)}–${ratios[Math.floor((ratios.length * 3) / 4)]!.toFixed(3)}`;
          const ratio = i === 0 ? '1' : `${median(ratios).toFixed(3)} (${quartiles})`;
          const rss = (await rssMiB(servers[i]!.pid)).toFixed(0);
          console.log(`| ${benchCase.name} | ${dist} | ${median(figures[i]!).toFixed(1)} | ${ratio} | ${rss} |`);
        }
        if (failures > 0) console.log(`| ${benchCase.name}: ${failures} requests failed | | | | |`);
      }
    } finally {
      for (const server of servers) await server.stop();
    }
  } finally {
    unpinLoadTool();
    await rm(dir, { recursive: true, force: true });
  }
}

runMain(main);
