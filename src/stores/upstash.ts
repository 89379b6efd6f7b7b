/**
 * The Upstash store (`STORE=upstash`, `UPSTASH_REDIS_REST_URL`, `UPSTASH_REDIS_REST_TOKEN`): the same layout
 * and scripts as the Redis store (`redis-layout.ts`), sent over Upstash's REST protocol with
 * `@upstash/redis`. HTTP needs no connection to keep, which is why serverless functions prefer it.
 *
 * Failure policy (the same as the Redis store): every call settles within `timeoutMs` (default 1000) or
 * rejects with `StoreUnavailableError` (the gateway answers 502, nothing is let through uncounted). Each HTTP
 * request carries its own `AbortSignal.timeout`, so a slow request is really aborted rather than left
 * running; the client's retry is limited to one immediate retry inside that same signal, so a call never
 * outlives its deadline. There is nothing to reconnect: the next call is a new request.
 */
import { Redis } from '@upstash/redis';
import { DEFAULT_STORE_TIMEOUT_MS } from './deadline.js';
import { createRedisBackedStore, DEFAULT_REDIS_PREFIX } from './redis-layout.js';
import type { Store } from './types.js';

export interface UpstashStoreOptions {
  /** The database's REST URL (`https://<name>.upstash.io`). */
  url: string;
  /** The database's REST token (sent as a bearer token; never logged). */
  token: string;
  /** Prefix of every Redis key written; default `mts:`. */
  prefix?: string;
  /** Bound on every call, in milliseconds; default 1000. */
  timeoutMs?: number;
}

/** Throws when the URL or token cannot work, before any request is made (a configuration error at start). */
export function assertUpstashConfig(url: string, token: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('UPSTASH_REDIS_REST_URL is not a valid URL (expected https://<name>.upstash.io)');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new Error(`UPSTASH_REDIS_REST_URL must start with https://, not ${parsed.protocol}//`);
  }
  if (token.trim() === '') throw new Error('UPSTASH_REDIS_REST_TOKEN is empty');
}

/** Creates the Upstash store; the client is built on first use and reused by the warm instance. */
export function createUpstashStore(options: UpstashStoreOptions): Store {
  assertUpstashConfig(options.url, options.token);
  const timeoutMs = options.timeoutMs ?? DEFAULT_STORE_TIMEOUT_MS;

  let client: Redis | undefined;
  const redis = (): Redis =>
    (client ??= new Redis({
      url: options.url,
      token: options.token,
      // A function, not a signal: the client then calls it per request (a fresh timer each time) and, on
      // abort, throws instead of turning the abort into a fake successful reply.
      signal: () => AbortSignal.timeout(timeoutMs),
      // One immediate retry (e.g. a pooled socket the server had closed), still under the same signal.
      retry: { retries: 1, backoff: () => 0 },
      // Values are our own JSON and integers; we parse them ourselves, with a schema.
      automaticDeserialization: false,
      enableTelemetry: false,
    }));

  return createRedisBackedStore({
    kind: 'upstash',
    prefix: options.prefix ?? DEFAULT_REDIS_PREFIX,
    timeoutMs,
    commands: {
      // Requests go out at once (no connection to wait for), so `signal` only matters for the EVAL fallback,
      // which the layout guards; each request is bounded by its own AbortSignal.timeout above.
      evalSha: (sha1, keys, args) => redis().evalsha(sha1, keys, args),
      eval: (script, keys, args) => redis().eval(script, keys, args),
      hGet: (key, field) => redis().hget<string>(key, field),
      hSet: (key, field, value) => redis().hset(key, { [field]: value }),
      hVals: (key) => redis().hvals(key),
      ping: () => redis().ping(),
    },
    async close() {
      // Nothing to close: requests are independent and fetch's idle sockets do not hold the process open.
      client = undefined;
    },
  });
}
