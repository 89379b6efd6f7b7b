/**
 * The rescore benchmark's child (`scripts/bench/rescore.ts` starts it, compiled): one night of the pipeline
 * against the stand-ins the parent serves, reported as one JSON line with the peak RSS and, as each step ends,
 * the RSS and the V8 heap in use. A process of its own, so the figures are the night's and nothing else's.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { rescore, type RescoreStep, type RescoreSummary } from '../../src/pipeline/rescore.js';
import { runMain } from '../lib/main.js';

export type { RescoreStep };

export const BENCH_AS_OF = '2026-06-01T00:00:00Z';
export const BENCH_TOKEN = 'bench-rescore-token';

export interface NightReport {
  seconds: number;
  peakMB: number;
  /** RSS and V8 heap used as each step of the night ended, in MB: where the memory goes. */
  steps: Partial<Record<RescoreStep, { rss: number; heap: number }>>;
  summary: Pick<
    RescoreSummary,
    'collected' | 'scored' | 'repositories' | 'enriched' | 'githubRequests' | 'notModified' | 'registryRequests'
  >;
}

const toMB = (bytes: number) => Math.round(bytes / 2 ** 20);

async function night(args: { registryUrl: string; githubUrl: string; dir: string }): Promise<NightReport> {
  const start = performance.now();
  const steps: NightReport['steps'] = {};
  const summary = await rescore({
    onStep: (step) => {
      const { rss, heapUsed } = process.memoryUsage();
      steps[step] = { rss: toMB(rss), heap: toMB(heapUsed) };
    },
    registryUrl: args.registryUrl,
    githubApiUrl: args.githubUrl,
    asOf: BENCH_AS_OF,
    out: path.join(args.dir, 'out'),
    cache: path.join(args.dir, 'cache'),
    token: BENCH_TOKEN,
    maxUnenriched: 0.1,
    registryPolicy: { timeoutMs: 60_000, retries: 2, backoffMs: 10, maxRetryAfterMs: 1000 },
    github: {
      maxWaitMs: 1000,
      timeoutMs: 60_000,
      concurrency: 8,
      participationAttempts: 2,
      participationDelayMs: 10,
      retries: 2,
      retryBaseMs: 10,
      reserve: 100,
    },
    collect: { minTotalBound: 200_000 },
  });
  const { collected, scored, repositories, enriched, githubRequests, notModified, registryRequests } = summary;
  return {
    seconds: (performance.now() - start) / 1000,
    peakMB: process.resourceUsage().maxRSS / 1024,
    steps,
    summary: { collected, scored, repositories, enriched, githubRequests, notModified, registryRequests },
  };
}

if (process.argv.includes('--night')) {
  runMain(async () => {
    const { values } = parseArgs({
      options: {
        night: { type: 'boolean' },
        'registry-url': { type: 'string' },
        'github-url': { type: 'string' },
        dir: { type: 'string' },
      },
      strict: true,
    });
    const report = await night({
      registryUrl: values['registry-url']!,
      githubUrl: values['github-url']!,
      dir: values.dir!,
    });
    console.log(JSON.stringify(report));
  });
}
