/**
 * A lock on a file shared by several processes (the memory store's key file: `npm start` and every
 * `npm run keys` run), so that each read-change-write of the file sees the one before it. Without it, two
 * writers that read the same version both write their own change over it, and one change is lost: a key
 * issued and answered 201 that never works, or a revoke undone by a sign-up a moment later.
 *
 * The lock is a file next to the locked one, created with `O_EXCL` (`wx`): creating it succeeds for exactly
 * one process. It holds the owner's process id, so a lock left by a process that died is taken over at once,
 * and one older than `staleMs` is taken over whatever it holds (a write takes milliseconds). Waiting is
 * bounded: past `timeoutMs` the caller gets an error rather than a request that never ends.
 */
import { promises as fs } from 'node:fs';

export interface FileLockOptions {
  /** How long to wait for the lock before giving up. */
  timeoutMs: number;
  /** A lock older than this is left by a process that hung or died, and is taken over. */
  staleMs: number;
}

export const DEFAULT_FILE_LOCK_OPTIONS: FileLockOptions = { timeoutMs: 5000, staleMs: 10_000 };

/** The lock could not be had within the time allowed. */
export class FileLockTimeout extends Error {
  override name = 'FileLockTimeout';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** Whether process `pid` is alive on this machine (a signal 0 checks without sending anything). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}

/** Whether the lock at `lockPath` was left behind: its owner is gone, or it is older than `staleMs`. */
async function abandoned(lockPath: string, staleMs: number): Promise<boolean> {
  try {
    const [text, stat] = await Promise.all([fs.readFile(lockPath, 'utf8'), fs.stat(lockPath)]);
    if (Date.now() - stat.mtimeMs > staleMs) return true;
    const pid = Number(text.trim());
    // An empty file is a lock being written this very moment: not abandoned.
    return Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && !processAlive(pid);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false; // released meanwhile: try again
    throw error;
  }
}

async function acquire(lockPath: string, options: FileLockOptions): Promise<void> {
  const giveUpAt = performance.now() + options.timeoutMs;
  let wait = 2;
  for (;;) {
    try {
      const handle = await fs.open(lockPath, 'wx', 0o600);
      try {
        await handle.writeFile(String(process.pid));
      } finally {
        await handle.close();
      }
      return;
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
    if (await abandoned(lockPath, options.staleMs)) {
      await fs.rm(lockPath, { force: true });
      continue;
    }
    if (performance.now() >= giveUpAt) {
      throw new FileLockTimeout(`${lockPath} has been held by another process for over ${options.timeoutMs} ms`);
    }
    // A little random, so waiting processes do not retry in step.
    await sleep(wait + Math.random() * wait);
    wait = Math.min(wait * 2, 50);
  }
}

/** Run `work` holding the lock `lockPath`, and release it afterwards whatever `work` does. */
export async function withFileLock<T>(
  lockPath: string,
  work: () => Promise<T>,
  options: FileLockOptions = DEFAULT_FILE_LOCK_OPTIONS,
): Promise<T> {
  await acquire(lockPath, options);
  try {
    return await work();
  } finally {
    await fs.rm(lockPath, { force: true });
  }
}

/** Runs tasks one at a time in the order they were given: the writers of one process, before the file lock. */
export function createSerialQueue(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (task) => {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };
}
