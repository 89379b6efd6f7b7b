/**
 * Real Redis for the tests: which server to use, whether it answers, and throwaway servers on free ports
 * (for the outage tests, which stop and restart their own server, never the shared one).
 *
 * Skip policy: outside CI, a test file whose Redis is not reachable is skipped with the reason printed;
 * with `CI` set, it fails with that reason instead, so CI can never pass without the real backends.
 */
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from 'redis';

/** The shared test Redis: `REDIS_URL`, or the one `.ci/run` starts on 127.0.0.1:6379. */
export function testRedisUrl(): string {
  return process.env.REDIS_URL?.trim() || 'redis://127.0.0.1:6379';
}

/** Resolves to undefined when Redis at `url` answers PING within `timeoutMs`, else to the reason it did not. */
export async function probeRedis(url: string, timeoutMs = 1000): Promise<string | undefined> {
  const client = createClient({ url, socket: { connectTimeout: timeoutMs, reconnectStrategy: false } });
  client.on('error', () => {
    // The failure is returned below; without a listener the client would throw it as an event.
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.connect().then(() => client.ping()),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
    client.destroy();
  }
}

/**
 * Decide whether a Redis-backed test file runs: undefined means run; a string is the reason to skip (already
 * printed). Throws under CI instead of skipping.
 */
export async function redisSkipReason(url = testRedisUrl()): Promise<string | undefined> {
  const problem = await probeRedis(url);
  if (problem === undefined) return undefined;
  const reason = `Redis at ${redactUrl(url)} is not reachable (${problem}); start one (redis-server) or set REDIS_URL`;
  if (process.env.CI) throw new Error(`CI is set, so the Redis tests may not be skipped: ${reason}`);
  console.warn(`[skipped] ${reason}`);
  return reason;
}

/** A suite title that carries its skip reason, so the reason shows in the test report too. */
export function withSkipReason(title: string, skipReason: string | undefined): string {
  return skipReason === undefined ? title : `${title} (skipped: ${skipReason})`;
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable REDIS_URL)';
  }
}

/** The absolute path of `redis-server` on PATH, or undefined. */
export function redisServerBinary(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'redis-server');
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Why a test file that starts its own redis-server cannot run here, or undefined when it can: `redis-server`
 * is not on PATH. Printed as a skip; under CI it throws instead, since CI installs Redis and must not skip.
 * `purpose` finishes "so no private server can ..." (e.g. "be frozen").
 */
export function throwawayRedisSkipReason(purpose: string): string | undefined {
  if (redisServerBinary()) return undefined;
  const reason = `redis-server is not on PATH, so no private server can ${purpose}`;
  if (process.env.CI) throw new Error(`CI is set, so these tests may not be skipped: ${reason}`);
  console.warn(`[skipped] ${reason}`);
  return reason;
}

/** Call `call` every 50 ms until it succeeds: its value and how long that took; its last error after `limitMs`. */
export async function retryUntilSuccess<T>(call: () => Promise<T>, limitMs: number): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  for (;;) {
    try {
      return { value: await call(), ms: performance.now() - started };
    } catch (error) {
      if (performance.now() - started > limitMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('could not get a free port');
  return address.port;
}

export interface ThrowawayRedis {
  readonly url: string;
  readonly port: number;
  /** Stop the server (SIGKILL: an abrupt outage, connections reset) and wait until it is gone. */
  stop(): Promise<void>;
  /** Start it again on the same port, empty, and wait until it answers. */
  start(): Promise<void>;
  /** Freeze the process (SIGSTOP): connections stay open but nothing answers, like a hung server. */
  pause(): void;
  resume(): void;
  /** Stop it for good (safe to call twice). */
  dispose(): Promise<void>;
}

/** Start a private `redis-server` on a free port with no persistence; throws when the binary is missing. */
export async function startThrowawayRedis(): Promise<ThrowawayRedis> {
  const binary = redisServerBinary();
  if (!binary) throw new Error('redis-server is not on PATH');
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;

  async function start(): Promise<void> {
    if (child) throw new Error('throwaway redis-server is already running');
    const started = spawn(
      binary as string,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
      { cwd: tmpdir(), stdio: ['ignore', 'ignore', 'pipe'] },
    );
    child = started;
    let stderr = '';
    started.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const deadline = Date.now() + 10_000;
    while ((await probeRedis(url, 250)) !== undefined) {
      if (started.exitCode !== null) throw new Error(`redis-server exited with ${started.exitCode}: ${stderr.trim()}`);
      if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer within 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function stop(): Promise<void> {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGCONT'); // a paused process must be able to die
    running.kill('SIGKILL');
    await exited;
  }

  await start();
  return {
    url,
    port,
    stop,
    start,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    dispose: stop,
  };
}

/** Delete every Redis key starting with `prefix` (a test's own namespace) from the server at `url`. */
export async function deleteKeysWithPrefix(url: string, prefix: string): Promise<void> {
  const client = createClient({ url });
  client.on('error', () => {
    // Cleanup is best effort; the failure surfaces through the awaited commands.
  });
  await client.connect();
  try {
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
      if (keys.length > 0) await client.del(keys);
    }
  } finally {
    client.destroy();
  }
}

/**
 * A Redis key prefix of a test's own, never the service's `mts:`: `mts-test-<run>-<name>-<random>:`, where
 * `<run>` names this run of the suite (test/support/clean-state.ts). Delete it afterwards with
 * `deleteKeysWithPrefix`.
 */
export function testRedisPrefix(name: string): string {
  return `mts-test-${process.env.MTS_TEST_RUN ?? 'solo'}-${name}-${randomBytes(4).toString('hex')}:`;
}
