/**
 * `npx tsx scripts/bench/gateway.ts [--records 100000] [--batches 20] [--batch 500] [--against <checkout>]`:
 * the gateway alone, in this process, on the HTTP benchmark's requests (`lib/paths.ts`): the CPU time
 * of `gateway.handle` per request, with the memory store and the request log written to nothing.
 *
 * With `--against`, the same is measured for another checkout of this repository (its `src/`, through tsx)
 * in the same process, on the same snapshot and requests, batch for batch in turn. That is how a change is
 * judged on a busy machine: HTTP runs minutes apart move by a fifth with the host, while two gateways taking
 * turns every few milliseconds see the same host. Each body is encoded here as writing it to a socket
 * would (text as UTF-8, a binary body as latin1); what Node's HTTP layer costs beyond that is not measured.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { generateRecords } from '../../src/bench/synthetic.js';
import type { Gateway } from '../../src/gateway/gateway.js';
import { bodyBytes } from '../../src/gateway/respond.js';
import { splitName } from '../../src/model/schema.js';
import { writeSnapshot } from '../../src/snapshot-build/build.js';
import { benchCases } from './lib/paths.js';
import { runMain } from '../lib/main.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The gateway of the checkout at `root`, serving `snapshotDir` with one key, fully loaded. */
async function gatewayOf(root: string, snapshotDir: string, key: string): Promise<Gateway> {
  const module = (file: string) => import(pathToFileURL(path.join(root, 'src', file)).href);
  const [{ loadConfig }, { createServiceContext }] = await Promise.all([
    module('service/config.ts'),
    module('service/runtime.ts'),
  ]);
  const config = loadConfig({
    SNAPSHOT_DIR: snapshotDir,
    API_KEYS: key,
    FREE_DAILY_LIMIT: '1000000000',
    STORE: 'memory',
  });
  const context = await createServiceContext(config, { log: () => {} });
  await context.engine.loadAll();
  return context.gateway as Gateway;
}

/** Answer `count` requests from `paths` through `gateway`; every one must be a 200. */
async function run(gateway: Gateway, paths: () => string, count: number, key: string): Promise<number> {
  const headers = { get: (name: string) => (name.toLowerCase() === 'x-api-key' ? key : null) };
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const url = paths();
    const response = await gateway.handle({ method: 'GET', url, headers });
    if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
    // What writing it to a socket does: encode text as UTF-8, a binary string as latin1, or copy the bytes.
    bytes += bodyBytes(response).length;
  }
  return bytes;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      records: { type: 'string', default: '100000' },
      batches: { type: 'string', default: '20' },
      batch: { type: 'string', default: '500' },
      against: { type: 'string' },
    },
    strict: true,
  });
  const records = Number(values.records);
  const batches = Number(values.batches);
  const batch = Number(values.batch);
  const roots = [REPO_ROOT, ...(values.against === undefined ? [] : [path.resolve(values.against)])];

  const dir = await mkdtemp(path.join(tmpdir(), 'mts-bench-gateway-'));
  try {
    const data = generateRecords(records, 42);
    await writeSnapshot(data, path.join(dir, 'snapshot'));
    const names = data.map((record) => record.name);
    const ids = data.map((record) => splitName(record.name).id);
    data.length = 0;
    const key = `mts_bench_${randomBytes(16).toString('hex')}`;
    const gateways = [];
    for (const root of roots) gateways.push(await gatewayOf(root, path.join(dir, 'snapshot'), key));

    console.log(
      `${records.toLocaleString('en-US')} records, ${batches} batches of ${batch} requests a case and checkout, ` +
        'CPU time of gateway.handle per request in µs (mean of the batches; the best batch in brackets)',
    );
    console.log('');
    console.log(`| case | this checkout${values.against === undefined ? '' : ` | ${values.against}`} |`);
    console.log(`|---|${roots.map(() => '---:').join('|')}|`);
    for (const benchCase of benchCases(names, ids)) {
      // Each gateway walks the same requests: the next batch of the case's generator, asked of each in turn.
      const streams = gateways.map(() => benchCase.paths());
      for (let g = 0; g < gateways.length; g++) await run(gateways[g]!, streams[g]!, batch, key); // warm-up
      const total = gateways.map(() => 0);
      const best = gateways.map(() => Number.POSITIVE_INFINITY);
      for (let b = 0; b < batches; b++) {
        for (let turn = 0; turn < gateways.length; turn++) {
          const g = (b + turn) % gateways.length; // who goes first alternates
          const before = process.cpuUsage();
          await run(gateways[g]!, streams[g]!, batch, key);
          const used = process.cpuUsage(before);
          const micros = (used.user + used.system) / batch;
          total[g] = total[g]! + micros;
          best[g] = Math.min(best[g]!, micros);
        }
      }
      const cells = total.map((sum, g) => `${(sum / batches).toFixed(1)} (${best[g]!.toFixed(1)})`);
      console.log(`| ${benchCase.name} | ${cells.join(' | ')} |`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  process.exit(0); // the engines' background timers and open records files need not be waited for
}

runMain(main);
