/**
 * `npm run bench -- --only rescore [--rescore-servers 12000,100000]`, or `npx tsx scripts/bench/rescore.ts
 * [--servers 12000,100000]`: the nightly rescoring at registry scale against the stand-ins (the registry's and
 * GitHub's, in this process), each night in a fresh child process that runs the pipeline and reports its own
 * peak RSS. For each size: a first night (empty cache) and an unchanged night after it, with the time, the
 * GitHub requests and those of them the rate limit counts (every request but a 304), and the peak RSS. The
 * targets (issue 39): at most 3 GitHub requests per repository on a first night, at most 1 counted request per
 * 100 repositories on an unchanged one, and a peak RSS of at most 300 MB at 12,000 servers.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { rescore, type RescoreStep, type RescoreSummary } from '../../src/pipeline/rescore.js';
import { startGitHubStandIn } from '../../test/support/github-standin.js';
import { startRegistryStandIn } from '../../test/support/registry-standin.js';
import { syntheticServers } from '../../test/support/synthetic-servers.js';
import { runMain } from '../lib/main.js';
import { OperatorError } from '../../src/errors/operator-error.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const AS_OF = '2026-06-01T00:00:00Z';
const TOKEN = 'bench-rescore-token';
/** A night that takes longer than this is stopped: the benchmark is bounded in time as well as in size. */
const NIGHT_TIMEOUT_MS = 60 * 60_000;

interface ChildReport {
  seconds: number;
  peakMB: number;
  /** RSS as each step of the night ended, in MB: where the memory goes. */
  steps: Partial<Record<RescoreStep, number>>;
  summary: Pick<
    RescoreSummary,
    'collected' | 'scored' | 'repositories' | 'enriched' | 'githubRequests' | 'notModified' | 'registryRequests'
  >;
}

/** Child: one night against the given stand-ins, reported as one JSON line. */
async function childNight(args: { registryUrl: string; githubUrl: string; dir: string }): Promise<ChildReport> {
  const start = performance.now();
  const steps: ChildReport['steps'] = {};
  const summary = await rescore({
    onStep: (step) => (steps[step] = Math.round(process.memoryUsage.rss() / 2 ** 20)),
    registryUrl: args.registryUrl,
    githubApiUrl: args.githubUrl,
    asOf: AS_OF,
    out: path.join(args.dir, 'out'),
    cache: path.join(args.dir, 'cache'),
    token: TOKEN,
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

/** Runs one night in a child without blocking this process, where the stand-ins answer. */
function night(registryUrl: string, githubUrl: string, dir: string): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        ...(process.env.BENCH_RESCORE_CHILD_FLAGS ?? '').split(' ').filter((flag) => flag !== ''),
        '--import',
        'tsx',
        path.join(ROOT, 'scripts', 'bench', 'rescore.ts'),
        '--child',
        '--registry-url',
        registryUrl,
        '--github-url',
        githubUrl,
        '--dir',
        dir,
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], timeout: NIGHT_TIMEOUT_MS },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-4000)));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`bench-rescore child failed (${code}):\n${stderr}`));
      resolve(JSON.parse(stdout.trim().split('\n').at(-1)!) as ChildReport);
    });
  });
}

export interface RescoreBench {
  servers: number;
  first: ChildReport;
  unchanged: ChildReport;
}

export async function benchRescore(sizes: readonly number[]): Promise<RescoreBench[]> {
  const results: RescoreBench[] = [];
  for (const servers of sizes) {
    const fixtures = syntheticServers(servers, AS_OF);
    const registry = await startRegistryStandIn(fixtures.entries, { fixed: true });
    // One token's hour is 5,000 requests; here the hour is as large as the night, to measure the night whole.
    const github = await startGitHubStandIn(fixtures.repositories, { token: TOKEN, rateLimit: 4 * servers + 1000 });
    const dir = await mkdtemp(path.join(tmpdir(), 'bench-rescore-'));
    try {
      const first = await night(registry.url, github.url, dir);
      const unchanged = await night(registry.url, github.url, dir);
      if (github.invalid.length > 0 || registry.invalid.length > 0) {
        throw new Error(
          `a stand-in sent an answer off its description: ${[...github.invalid, ...registry.invalid][0]}`,
        );
      }
      results.push({ servers, first, unchanged });
    } finally {
      await Promise.all([registry.close(), github.close()]);
      await rm(dir, { recursive: true, force: true });
    }
  }
  return results;
}

const judged = (pass: boolean) => (pass ? 'PASS' : 'FAIL');

export function formatRescoreBench(results: readonly RescoreBench[]): string {
  const lines = [
    '| servers | night | time | GitHub requests (per repository) | counted by the rate limit (per 100 repositories) | registry requests | peak RSS | targets |',
    '| ------- | ----- | ---- | -------------------------------- | ------------------------------------------------ | ----------------- | -------- | ------- |',
  ];
  for (const { servers, first, unchanged } of results) {
    for (const [label, report] of [
      ['first', first],
      ['unchanged', unchanged],
    ] as const) {
      const s = report.summary;
      const repos = Math.max(s.repositories, 1);
      const countedRequests = s.githubRequests - s.notModified;
      const perRepo = s.githubRequests / repos;
      const per100 = (100 * countedRequests) / repos;
      const targets = [
        label === 'first' ? `≤ 3 per repository: ${judged(perRepo <= 3)}` : `≤ 1 per 100: ${judged(per100 <= 1)}`,
        ...(servers <= 12_000 ? [`≤ 300 MB: ${judged(report.peakMB <= 300)}`] : []),
        `all enriched: ${judged(s.enriched === s.repositories)}`,
      ];
      lines.push(
        `| ${servers.toLocaleString('en')} | ${label} | ${report.seconds.toFixed(1)} s | ${s.githubRequests} (${perRepo.toFixed(2)}) |` +
          ` ${countedRequests} (${per100.toFixed(2)}) | ${s.registryRequests} | ${report.peakMB.toFixed(0)} MB | ${targets.join(', ')} |`,
      );
    }
  }
  return lines.join('\n');
}

const isMain =
  process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.join(ROOT, 'scripts', 'bench', 'rescore.ts');
if (isMain)
  runMain(async () => {
    const { values } = parseArgs({
      options: {
        child: { type: 'boolean', default: false },
        'registry-url': { type: 'string' },
        'github-url': { type: 'string' },
        dir: { type: 'string' },
        servers: { type: 'string', default: '12000,100000' },
      },
      strict: true,
    });
    if (values.child) {
      const report = await childNight({
        registryUrl: values['registry-url']!,
        githubUrl: values['github-url']!,
        dir: values.dir!,
      });
      console.log(JSON.stringify(report));
    } else {
      const sizes = values.servers.split(',').map(Number);
      if (sizes.some((size) => !Number.isInteger(size) || size < 1 || size > 200_000)) {
        throw new OperatorError('bench-rescore: --servers takes sizes from 1 to 200000, separated by commas', {
          exitCode: 2,
        });
      }
      console.log(formatRescoreBench(await benchRescore(sizes)));
    }
  });
