/**
 * `npm run bench -- --only webhooks` (or `npx tsx scripts/bench/webhooks.ts [--events N]`): the dispatcher
 * delivering N events (default 10,000) to a local receiver. Two snapshots of N servers are built with the
 * project's build (the second with `previous`, every score moved by a point), one subscription on the memory
 * store watches `score.changed`, and one dispatcher run fans out and delivers everything (16 attempts at a
 * time, through the address-filtering agents with keep-alive, signed). Reports the time of that run (fan-out and
 * every delivery), the delivery rate, and the process's memory (RSS and heap) before and at its highest while delivering.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { buildSnapshotWithDiff } from '../../src/snapshot-build/build.js';
import { labelForScore } from '../../src/model/schema.js';
import { createNotifications } from '../../src/notify/service.js';
import { loadSnapshot } from '../../src/query/open.js';
import { createMemoryStore } from '../../src/stores/memory.js';
import { runMain } from '../lib/main.js';

export interface WebhookBench {
  events: number;
  received: number;
  deliverMs: number;
  perSecond: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  heapBeforeMb: number;
  heapPeakMb: number;
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

function record(index: number, score: number) {
  return {
    name: `io.github.bench${index}/server-${index}`,
    trust_score: score,
    trust_label: labelForScore(score),
    scores: { provenance: 50, maintenance: 50, popularity: 50, permissions: 50 },
    flags: [],
    badges: [],
    verified_publisher: false,
    targets: [],
    scored_at: '2026-02-21T22:49:33.106Z',
    install: { repo_url: null, version: null, package_types: [], transport_types: [] },
  };
}

export async function benchWebhooks(events = 10_000): Promise<WebhookBench> {
  const work = await mkdtemp(path.join(tmpdir(), 'mts-bench-webhooks-'));
  let received = 0;
  const receiver = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received++;
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as AddressInfo).port;
  try {
    const write = async (name: string, scoreOf: (i: number) => number) => {
      const file = path.join(work, `${name}.json`);
      await writeFile(file, JSON.stringify(Array.from({ length: events }, (_, i) => record(i, scoreOf(i)))));
      return file;
    };
    const a = path.join(work, 'a');
    const b = path.join(work, 'b');
    await buildSnapshotWithDiff({ input: await write('a', (i) => 20 + (i % 60)), out: a });
    await buildSnapshotWithDiff({ input: await write('b', (i) => 21 + (i % 60)), out: b, previous: a, force: true });
    const engine = await loadSnapshot(b);
    await engine.ready('history');
    const store = createMemoryStore();
    const settings = {
      secretsKey: randomBytes(32),
      allowHttp: true,
      allowPrivate: true,
      baseUrl: 'https://bench.example',
      // The subscription's owner: a valid key, as the dispatcher checks before delivering.
      apiKeyHashes: ['b'.repeat(64)],
    };
    const notifications = createNotifications(store, settings)!;
    await notifications.subscriptions.create('b'.repeat(64), {
      url: `http://127.0.0.1:${port}/hook`,
      events: ['score.changed'],
    });

    global.gc?.();
    const before = process.memoryUsage();
    let rssPeak = before.rss;
    let heapPeak = before.heapUsed;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      rssPeak = Math.max(rssPeak, now.rss);
      heapPeak = Math.max(heapPeak, now.heapUsed);
    }, 100);
    const started = performance.now();
    const report = await notifications.dispatcher.run(engine);
    const deliverMs = performance.now() - started;
    clearInterval(sampler);
    notifications.close();
    engine.close();
    await store.close();
    return {
      events: report.fanOut?.queued ?? 0,
      received,
      deliverMs,
      perSecond: Math.round(received / (deliverMs / 1000)),
      rssBeforeMb: mb(before.rss),
      rssPeakMb: mb(rssPeak),
      heapBeforeMb: mb(before.heapUsed),
      heapPeakMb: mb(heapPeak),
    };
  } finally {
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await rm(work, { recursive: true, force: true });
  }
}

export function formatWebhookBench(result: WebhookBench): string {
  return [
    '| events queued | received | fan-out and delivery (s) | deliveries per second | RSS before / peak (MB) | heap before / peak (MB) |',
    '| ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${result.events} | ${result.received} | ${(result.deliverMs / 1000).toFixed(1)} | ${result.perSecond} | ${result.rssBeforeMb} / ${result.rssPeakMb} | ${result.heapBeforeMb} / ${result.heapPeakMb} |`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`)
  runMain(async () => {
    const { values } = parseArgs({ options: { events: { type: 'string', default: '10000' } }, strict: true });
    console.log(formatWebhookBench(await benchWebhooks(Number(values.events))));
  });
