/**
 * `npm run bench -- --only rescore [--rescore-servers 12000,100000]`, or `npx tsx scripts/bench/rescore.ts
 * [--servers 12000,100000]`: the nightly rescoring at registry scale against the stand-ins (the registry's and
 * GitHub's, in this process), each night in a fresh child process (`rescore-night.ts`, compiled to JavaScript
 * first and run with the Node flags of `npm run rescore`) that reports its own peak RSS, and its RSS and heap as
 * each step ends. For each size: a first night (empty cache) and an unchanged night after it, with the time, the
 * GitHub requests and those of them the rate limit counts (every request but a 304), and the peak RSS. The
 * targets (issue 39): at most 3 GitHub requests per repository on a first night, at most 1 counted request per
 * 100 repositories on an unchanged one, and a peak RSS of at most 300 MB at 12,000 servers.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { startGitHubStandIn } from '../../test/support/github-standin.js';
import { startRegistryStandIn } from '../../test/support/registry-standin.js';
import { syntheticServers } from '../../test/support/synthetic-servers.js';
import { runMain } from '../lib/main.js';
import { OperatorError } from '../../src/errors/operator-error.js';
import { BENCH_AS_OF, BENCH_TOKEN, type NightReport, type RescoreStep } from './rescore-night.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** A night that takes longer than this is stopped: the benchmark is bounded in time as well as in size. */
const NIGHT_TIMEOUT_MS = 60 * 60_000;

/**
 * The child compiled to one JavaScript file, as `npm run compile` compiles the entry points (esbuild, node20,
 * its dependencies bundled): what is measured is the night's memory, not that of a TypeScript compiler.
 */
async function compileNight(dir: string): Promise<string> {
  const outfile = path.join(dir, 'rescore-night.mjs');
  await build({
    absWorkingDir: ROOT,
    entryPoints: [path.join(ROOT, 'scripts', 'bench', 'rescore-night.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    mainFields: ['module', 'main'],
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  return outfile;
}

/**
 * The Node flags `npm run rescore` runs the night with (`package.json`'s `… && node <flags> dist/rescore/rescore.mjs`):
 * the benchmark's child runs with the same ones, so what it measures is the night as it runs.
 */
function nightFlags(): string[] {
  const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const words = (scripts.rescore ?? '').split('&&').at(-1)!.trim().split(/\s+/);
  if (words[0] !== 'node') return [];
  const flags: string[] = [];
  for (const word of words.slice(1)) {
    if (!word.startsWith('-') || word === '--import') break;
    flags.push(word);
  }
  return flags;
}

/** Runs one night in a child without blocking this process, where the stand-ins answer. */
function night(script: string, registryUrl: string, githubUrl: string, dir: string): Promise<NightReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        ...nightFlags(),
        ...(process.env.BENCH_RESCORE_CHILD_FLAGS ?? '').split(' ').filter((flag) => flag !== ''),
        ...(script.endsWith('.ts') ? ['--import', 'tsx'] : []),
        script,
        '--night',
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
      resolve(JSON.parse(stdout.trim().split('\n').at(-1)!) as NightReport);
    });
  });
}

export interface RescoreBench {
  servers: number;
  first: NightReport;
  unchanged: NightReport;
}

export async function benchRescore(sizes: readonly number[]): Promise<RescoreBench[]> {
  const results: RescoreBench[] = [];
  for (const servers of sizes) {
    const fixtures = syntheticServers(servers, BENCH_AS_OF);
    const registry = await startRegistryStandIn(fixtures.entries, { fixed: true });
    // One token's hour is 5,000 requests; here the hour is as large as the night, to measure the night whole.
    const github = await startGitHubStandIn(fixtures.repositories, {
      token: BENCH_TOKEN,
      rateLimit: 4 * servers + 1000,
    });
    const dir = await mkdtemp(path.join(tmpdir(), 'bench-rescore-'));
    try {
      // BENCH_RESCORE_VIA_TSX=1: the child through tsx, loader and all (as `npm run rescore` ran before it ran dist/).
      const script =
        process.env.BENCH_RESCORE_VIA_TSX === '1'
          ? path.join(ROOT, 'scripts', 'bench', 'rescore-night.ts')
          : await compileNight(dir);
      const first = await night(script, registry.url, github.url, dir);
      console.error(`bench-rescore: ${servers} servers, first night: ${JSON.stringify(first)}`);
      const unchanged = await night(script, registry.url, github.url, dir);
      console.error(`bench-rescore: ${servers} servers, unchanged night: ${JSON.stringify(unchanged)}`);
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
  // Where the memory goes: RSS and the V8 heap in use as each step ended, in the order the night ran them.
  const steps = [...new Set(results.flatMap(({ first }) => Object.keys(first.steps)))] as RescoreStep[];
  lines.push(
    '',
    `| servers | night | ${steps.map((step) => `${step} (RSS / heap MB)`).join(' | ')} |`,
    `| ------- | ----- | ${steps.map(() => '---').join(' | ')} |`,
  );
  for (const { servers, first, unchanged } of results) {
    for (const [label, report] of [
      ['first', first],
      ['unchanged', unchanged],
    ] as const) {
      const cells = steps.map((step) => {
        const at = report.steps[step];
        return at ? `${at.rss} / ${at.heap}` : '–';
      });
      lines.push(`| ${servers.toLocaleString('en')} | ${label} | ${cells.join(' | ')} |`);
    }
  }
  return lines.join('\n');
}

const isMain =
  process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.join(ROOT, 'scripts', 'bench', 'rescore.ts');
if (isMain)
  runMain(async () => {
    const { values } = parseArgs({
      options: { servers: { type: 'string', default: '12000,100000' } },
      strict: true,
    });
    const sizes = values.servers.split(',').map(Number);
    if (sizes.some((size) => !Number.isInteger(size) || size < 1 || size > 200_000)) {
      throw new OperatorError('bench-rescore: --servers takes sizes from 1 to 200000, separated by commas', {
        exitCode: 2,
      });
    }
    console.log(formatRescoreBench(await benchRescore(sizes)));
  });
