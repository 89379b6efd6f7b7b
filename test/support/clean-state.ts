/**
 * Vitest's global setup and teardown: a run of the suite leaves the temp folder and the shared Redis as it
 * found them, and says so when it does not (issue 32, point 11).
 *
 * - Temp folder: every test process gets a private temp folder for this run (`TMPDIR`, which `os.tmpdir()`
 *   reads, set before the workers start and inherited by every child they spawn). At the end it must be
 *   empty: whatever is left was made by a test that did not remove it, and is named in the failure. The
 *   folder itself is removed either way, so even a failing run leaves nothing in the system's temp folder.
 * - Processes: every process a test starts inherits `MTS_TEST_RUN` (set below, before the workers start), so
 *   one still running at the end (a server, a redis-server, a browser a test did not stop) is found by it in
 *   `/proc` (Linux), named in the failure and killed, so the run leaves none behind.
 * - Redis: the keys under the service's prefix (`mts:`) and the tests' prefixes (`mts-test`) are listed at
 *   the start and again at the end. A new key under this run's own prefixes (`mts-test-<run>-`, made by
 *   `testRedisPrefix`) fails the run; any other new one is named in a warning, since on a Redis shared
 *   with another run of the suite it may be that run's.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from 'redis';
import { probeRedis, testRedisUrl } from './redis-server.js';

/**
 * What tools (not tests) keep in the temp folder: tsx's compile cache (`tsx-<uid>`), made by every `tsx`
 * child and reused within the run. It goes with the run's folder.
 */
const TOOL_CACHES = /^tsx-\d+$/;

/** The Redis key patterns a run may touch: the service's default prefix and the tests' own. */
const WATCHED_PATTERNS = ['mts:*', 'mts-test*'];

async function redisKeys(url: string): Promise<Set<string> | undefined> {
  if ((await probeRedis(url)) !== undefined) return undefined;
  const client = createClient({ url });
  client.on('error', () => {
    // Reported through the awaited commands.
  });
  await client.connect();
  try {
    const keys = new Set<string>();
    for (const pattern of WATCHED_PATTERNS) {
      for await (const batch of client.scanIterator({ MATCH: pattern, COUNT: 1000 })) {
        for (const key of batch) keys.add(key);
      }
    }
    return keys;
  } finally {
    client.destroy();
  }
}

function listSome(names: readonly string[]): string {
  const shown = names.slice(0, 10).join(', ');
  return names.length > 10 ? `${shown} and ${names.length - 10} more` : shown;
}

/** A process's NUL-separated `/proc` file as its parts, or undefined once it has gone. */
function procParts(pid: string, file: string): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'latin1').split('\0').filter(Boolean);
  } catch {
    return undefined;
  }
}

/**
 * The processes still running that this run started (they carry `MTS_TEST_RUN=<run>` in their environment),
 * other than this one and its own vitest workers, which are still ending. Empty where there is no `/proc`.
 */
function processesLeft(run: string): Array<{ pid: number; command: string }> {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const marker = `MTS_TEST_RUN=${run}`;
  const left: Array<{ pid: number; command: string }> = [];
  for (const pid of pids) {
    if (Number(pid) === process.pid) continue;
    if (!procParts(pid, 'environ')?.includes(marker)) continue;
    const stat = procParts(pid, 'stat')?.join(' ') ?? '';
    // After the command's name in parentheses: the state, then the parent's pid.
    const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (state === 'Z') continue;
    const command = (procParts(pid, 'cmdline') ?? []).join(' ');
    if (Number(parent) === process.pid && command.includes('vitest')) continue;
    left.push({ pid: Number(pid), command: command.slice(0, 120) });
  }
  return left;
}

export default async function cleanState(): Promise<() => Promise<void>> {
  const systemTemp = tmpdir();
  const runTemp = mkdtempSync(path.join(systemTemp, 'mts-test-run-'));
  process.env.TMPDIR = runTemp;
  process.env.MTS_TEST_RUN = randomBytes(4).toString('hex');
  const redisUrl = testRedisUrl();
  const redisBefore = await redisKeys(redisUrl);

  return async () => {
    process.env.TMPDIR = systemTemp;
    const problems: string[] = [];
    let processes = processesLeft(process.env.MTS_TEST_RUN ?? '');
    if (processes.length > 0) {
      // One stopped by its test's last hook may still be on its way out: only one still here a second later counts.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      processes = processesLeft(process.env.MTS_TEST_RUN ?? '');
    }
    if (processes.length > 0) {
      for (const { pid } of processes) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Gone meanwhile.
        }
      }
      const named = processes.map(({ pid, command }) => `${pid} (${command})`);
      problems.push(`the tests left ${processes.length} processes running (killed now): ${listSome(named)}`);
    }
    const left = readdirSync(runTemp).filter((name) => !TOOL_CACHES.test(name));
    // The run's own temp folder goes whatever it holds, so even a failing run leaves the machine as it was
    // found; what a test left there fails the run, named (a folder from `makeTempDir` names its test file).
    if (left.length > 0) problems.push(`the tests left ${left.length} entries in the temp folder: ${listSome(left)}`);
    rmSync(runTemp, { recursive: true, force: true });
    if (redisBefore !== undefined) {
      const after = (await redisKeys(redisUrl)) ?? new Set<string>();
      const added = [...after].filter((key) => !redisBefore.has(key)).sort();
      const ours = `mts-test-${process.env.MTS_TEST_RUN}-`;
      const leftKeys = added.filter((key) => key.startsWith(ours));
      const others = added.filter((key) => !key.startsWith(ours));
      if (leftKeys.length > 0) problems.push(`the tests left ${leftKeys.length} keys in Redis: ${listSome(leftKeys)}`);
      if (others.length > 0) {
        console.warn(
          `[clean-state] ${others.length} new keys in Redis under mts: or mts-test, from a test without its own ` +
            `prefix or from another run on this Redis: ${listSome(others)}`,
        );
      }
    }
    if (problems.length > 0) {
      // Vitest reports an error thrown here but still exits 0: the exit code is set too, so the run fails.
      process.exitCode = 1;
      throw new Error(`The suite did not clean up after itself: ${problems.join('; ')}`);
    }
  };
}
