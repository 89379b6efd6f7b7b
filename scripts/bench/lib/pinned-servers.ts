/**
 * Server processes for the HTTP benchmarks (`http.ts`, `compare.ts`): started as `npm start`
 * starts one (`node <dist>/serve.mjs`), on core 0 while the load tool in this process runs on core 1, and
 * measured by their CPU time from `/proc`, which holds however busy the host is.
 */
import { type ChildProcess, spawn, spawnSync, type SpawnOptions } from 'node:child_process';
import { open, readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Clock ticks per second, as `getconf CLK_TCK` says (100 on Linux). */
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** User plus system CPU time of process `pid` so far, in ms (Linux `/proc`), or NaN. */
export async function cpuMs(pid: number | undefined): Promise<number> {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th, in clock ticks.
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

/** The resident set of process `pid` (Linux `/proc`), in MiB, or NaN. */
export async function rssMiB(pid: number | undefined): Promise<number> {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] === undefined ? Number.NaN : Number(match[1]) / 1024;
  } catch {
    return Number.NaN;
  }
}

/**
 * With `taskset`, every server runs on core 0 and this process (the load tool) on core 1, so the load tool
 * does not take the server's time, alike for the bare server and the real one.
 */
const hasTaskset = spawnSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' }).status === 0;
let pinned = false;

/** Pin this process to `cores` (`taskset -pc`); children spawned later inherit it, so undo it when done. */
function pinSelf(cores: string): boolean {
  return hasTaskset && spawnSync('taskset', ['-pc', cores, String(process.pid)], { stdio: 'ignore' }).status === 0;
}

/** Put this process (the load tool) on core 1 and servers started from now on core 0; false without taskset. */
export function pinLoadTool(): boolean {
  pinned = pinSelf('1');
  return pinned;
}

/** Give this process every core again. */
export function unpinLoadTool(): void {
  if (pinned) pinSelf(`0-${Math.max(1, availableParallelism() - 1)}`);
  pinned = false;
}

/** Whether servers are pinned to core 0 and the load tool to core 1. */
export const isPinned = (): boolean => pinned;

/** `node` with `args`, on core 0 when the load tool is pinned. */
export function spawnPinned(args: string[], options: SpawnOptions): ChildProcess {
  return pinned
    ? spawn('taskset', ['-c', '0', process.execPath, ...args], options)
    : spawn(process.execPath, args, options);
}

/**
 * The real server (`node <dist>/serve.mjs`, as `npm start` runs it; `dist` is relative to the repository)
 * with its stdout (a JSON line per request) going to a file, as under a process manager. Not a pipe into
 * this process: reading 1 MB/s of log lines here would take CPU from the load tool on a two-core machine
 * and slow both ends.
 */
export async function startServer(
  env: Record<string, string>,
  logFile: string,
  dist = 'dist',
): Promise<{ url: string; pid: number | undefined; stop: () => Promise<void> }> {
  const out = await open(logFile, 'w');
  const child = spawnPinned([path.join(dist, 'serve.mjs')], {
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
      if (match?.[1])
        return { url: match[1], pid: child.pid, stop: async () => void (child.kill('SIGTERM'), await exited) };
      if (Date.now() - started > 60_000) throw new Error('the server did not start within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await out.close();
  }
}
