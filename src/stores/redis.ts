/**
 * The Redis store over TCP (`STORE=redis`, `REDIS_URL`), with the `redis` client. Layout and scripts are in
 * `redis-layout.ts`; this file owns the connection.
 *
 * Failure policy ("fail fast, reconnect in the background"):
 * - every call settles within `timeoutMs` (default 1000) or rejects with `StoreUnavailableError`, which the
 *   gateway answers with 502; nothing is let through uncounted;
 * - while the connection is down, commands are rejected at once (`disableOfflineQueue`) instead of queueing
 *   for a Redis that may never come back; a command already sent is dropped by the client's own command
 *   timeout, so a hung server cannot pile up work either;
 * - the client reconnects by itself with a capped backoff (100 ms doubling to 1 s, plus jitter), so the
 *   service recovers within about a second of Redis coming back, with no restart.
 *
 * The connection is created once per warm instance, on first use (a cold start that never touches the store,
 * such as health without Redis configured, opens nothing).
 */
import { createClient } from 'redis';
import { DEFAULT_STORE_TIMEOUT_MS } from './deadline.js';
import { createRedisBackedStore, DEFAULT_REDIS_PREFIX } from './redis-layout.js';
import type { Store } from './types.js';

export interface RedisStoreOptions {
  /** `redis://[[user]:password@]host[:port][/db]` or `rediss://` for TLS. */
  url: string;
  /** Prefix of every Redis key written; default `mts:`. */
  prefix?: string;
  /** Bound on every call, in milliseconds; default 1000. */
  timeoutMs?: number;
  /** Where connection state changes are reported (lost, back); default stderr. Never receives the URL. */
  log?: (message: string) => void;
}

const MAX_RECONNECT_DELAY_MS = 1000;

/** Capped exponential backoff with jitter, so many instances do not reconnect in lockstep. */
function reconnectDelay(retries: number): number {
  const base = Math.min(100 * 2 ** retries, MAX_RECONNECT_DELAY_MS);
  return Math.round(base * (0.8 + Math.random() * 0.2));
}

/** Throws when `url` is not a Redis URL, before any connection is attempted (a configuration error at start). */
export function assertRedisUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('REDIS_URL is not a valid URL (expected redis://host:port or rediss://host:port)');
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new Error(`REDIS_URL must start with redis:// or rediss://, not ${parsed.protocol}//`);
  }
}

function makeClient(url: string, timeoutMs: number) {
  return createClient({
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: timeoutMs },
    socket: { connectTimeout: timeoutMs, reconnectStrategy: reconnectDelay },
  });
}

type RedisClient = ReturnType<typeof makeClient>;

/** Creates the Redis store; validates `url` now, connects on first use. */
export function createRedisStore(options: RedisStoreOptions): Store {
  assertRedisUrl(options.url);
  const timeoutMs = options.timeoutMs ?? DEFAULT_STORE_TIMEOUT_MS;
  const log = options.log ?? ((message: string) => console.error(message));

  let connection: { client: RedisClient; ready: Promise<unknown> } | undefined;

  /**
   * The one client of this instance, created lazily; resolves once it has connected, unless the call's
   * deadline (`signal`) passed meanwhile: a command must not go out for a caller already told it failed.
   */
  async function connected(signal: AbortSignal): Promise<RedisClient> {
    if (!connection) {
      const client = makeClient(options.url, timeoutMs);
      let outageReported = false;
      // Without an 'error' listener the client's EventEmitter would crash the process on the first
      // refused connection. Report state changes once each, not every reconnect attempt.
      client.on('error', (error: unknown) => {
        if (outageReported || connection?.client !== client) return;
        outageReported = true;
        log(
          `redis store: connection failed (${error instanceof Error ? error.message : String(error)}); retrying in the background`,
        );
      });
      client.on('ready', () => {
        if (outageReported) log('redis store: connected again');
        outageReported = false;
      });
      const ready = client.connect();
      const current = { client, ready };
      // connect() only rejects when the client is closed; then forget it so a later call starts afresh.
      ready.catch(() => {
        if (connection === current) connection = undefined;
      });
      connection = current;
    }
    const { client, ready } = connection;
    await ready;
    signal.throwIfAborted();
    return client;
  }

  return createRedisBackedStore({
    kind: 'redis',
    prefix: options.prefix ?? DEFAULT_REDIS_PREFIX,
    timeoutMs,
    commands: {
      evalSha: async (sha1, keys, args, signal) => (await connected(signal)).evalSha(sha1, { keys, arguments: args }),
      eval: async (script, keys, args, signal) => (await connected(signal)).eval(script, { keys, arguments: args }),
      hGet: async (key, field, signal) => (await connected(signal)).hGet(key, field),
      hSet: async (key, field, value, signal) => (await connected(signal)).hSet(key, field, value),
      hVals: async (key, signal) => (await connected(signal)).hVals(key),
      ping: async (signal) => (await connected(signal)).ping(),
    },
    async close() {
      const current = connection;
      connection = undefined;
      if (!current) return;
      // Graceful when connected (pending replies arrive); immediate when it never connected or is retrying.
      if (current.client.isReady) await current.client.close().catch(() => current.client.destroy());
      else current.client.destroy();
    },
  });
}
