/**
 * How counters and keys are laid out in Redis, shared by the two Redis-backed stores (TCP through `redis`,
 * REST through `@upstash/redis`): the key names, the two Lua scripts, the record encoding and the failure
 * policy. Each backend file only supplies a `RedisCommands` (how to send five commands) and its lifecycle.
 *
 * Layout under the prefix (default `mts:`):
 * - `mts:counter:<gateway key>`: an integer, created by the increment script with an absolute expiry;
 * - `mts:keys`: one hash for all issued keys, field = SHA-256 hex of the key, value = the KeyRecord as JSON.
 * - `mts:marker`: written when a process first reaches the store (the time, as text), and looked for by
 *   health afterwards: gone means the store lost its data since (`Store.dataKept`).
 *   One hash (rather than one Redis key per record) makes list one command and revoke-by-prefix one atomic
 *   script, with no SCAN over a shared keyspace.
 * - `mts:unknown:<day>`: the identifiers asked about that the snapshot did not know (`redis-unknown.ts`).
 */
import { UsageError } from '../errors/operator-error.js';
import { createHash } from 'node:crypto';
import * as z from 'zod';
import { HashPrefixSchema, KeyRecordSchema } from '../keys/keys.js';
import { withinDeadline } from './deadline.js';
import { createRedisNotify, type LuaScript } from './redis-notify.js';
import { createStoreClock } from './store-clock.js';
import { createRedisUnknown } from './redis-unknown.js';
import type { KeyRecord } from '../keys/record.js';
import { type Store, StoreUnavailableError } from './types.js';

/** Every Redis key this service writes starts with this, so one Redis can be shared with other apps. */
export const DEFAULT_REDIS_PREFIX = 'mts:';

/**
 * The few commands the layout needs; each backend maps them onto its client. Errors may be anything.
 * `signal` is aborted when the call's deadline has passed: a backend must not send a command after that.
 */
export interface RedisCommands {
  evalSha(sha1: string, keys: string[], args: string[], signal: AbortSignal): Promise<unknown>;
  eval(script: string, keys: string[], args: string[], signal: AbortSignal): Promise<unknown>;
  hGet(key: string, field: string, signal: AbortSignal): Promise<string | null | undefined>;
  hSet(key: string, field: string, value: string, signal: AbortSignal): Promise<unknown>;
  hVals(key: string, signal: AbortSignal): Promise<string[]>;
  ping(signal: AbortSignal): Promise<unknown>;
}

function luaScript(source: string): LuaScript {
  return { source, sha1: createHash('sha1').update(source).digest('hex') };
}

/**
 * Redis's clock in milliseconds, read at the start of a script (`TIME`: seconds and microseconds). Every
 * counting script begins with it and refuses to count past `latest`, the last moment (on this clock) the
 * caller still waits for its answer: a Redis that hung and wakes after the caller answered 502 must not count
 * the request then (`store-clock.ts` says how `latest` is found). A Redis before 5 replicates a script whole
 * and refuses a write after `TIME` unless the script asks for its writes to be replicated instead (from 3.2);
 * from 5 on that is how every script is replicated, and the call changes nothing.
 */
const REDIS_NOW_MS = `if redis.replicate_commands then redis.replicate_commands() end
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)`;

/** Only Redis's time, for a process that has not had a reply yet (one call per process). */
const TIME_SCRIPT = luaScript(`${REDIS_NOW_MS}
return now`);

/**
 * INCR and its expiry in one atomic step, unless Redis's time is past ARGV[2]. The expiry is set when this
 * call created the counter (count 1), which is the interface's contract: the window is fixed by the first
 * request of the day and later calls cost no second write. It is also set when the counter somehow has no
 * expiry at all (PTTL -1: written by hand or by an older version), because a counter that never expires would
 * lock a key out for good. Returns {count afterwards, or 0 when too late; Redis's time}.
 */
const INCREMENT_SCRIPT = luaScript(`${REDIS_NOW_MS}
if now > tonumber(ARGV[2]) then return {0, now} end
local count = redis.call('INCR', KEYS[1])
if count == 1 or redis.call('PTTL', KEYS[1]) == -1 then
  redis.call('PEXPIREAT', KEYS[1], ARGV[1])
end
return {count, now}`);

/**
 * INCRBY only if the result stays within the limit, with the same expiry and lateness rules as
 * INCREMENT_SCRIPT, in one atomic step. Returns {1 granted, 0 refused or -1 too late; count afterwards;
 * Redis's time}.
 */
const RESERVE_SCRIPT = luaScript(`${REDIS_NOW_MS}
if now > tonumber(ARGV[4]) then return {-1, 0, now} end
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local amount = tonumber(ARGV[1])
if current + amount > tonumber(ARGV[2]) then
  return {0, current, now}
end
local count = redis.call('INCRBY', KEYS[1], amount)
if count == amount or redis.call('PTTL', KEYS[1]) == -1 then
  redis.call('PEXPIREAT', KEYS[1], ARGV[3])
end
return {1, count, now}`);

/**
 * Revoke by hash prefix in one atomic step: count the fields that start with the prefix and delete only
 * when exactly one does. Returns the number of matches (0 none, 1 revoked, more: ambiguous, nothing deleted).
 */
const REVOKE_SCRIPT = luaScript(`local prefix = ARGV[1]
local match = nil
local count = 0
for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
  if string.sub(field, 1, #prefix) == prefix then
    count = count + 1
    match = field
  end
end
if count == 1 then redis.call('HDEL', KEYS[1], match) end
return count`);

/**
 * The marker in one step: 1 when it is there; otherwise 0, and in `write` mode it is written (a process
 * reaching the store for the first time cannot tell lost data from a new database, so it starts afresh).
 */
const MARKER_SCRIPT = luaScript(`if redis.call('EXISTS', KEYS[1]) == 1 then return 1 end
if ARGV[1] == 'write' then redis.call('SET', KEYS[1], ARGV[2]) end
return 0`);

const ScriptCountSchema = z.number().int().nonnegative();
/**
 * The replies of the increment and reserve scripts. Made once here: building a zod schema costs far more than
 * checking a reply with it, and every keyed request makes one (docs/performance.md, "Figures behind the code").
 */
const RedisTimeSchema = z.number().int().positive();
const TimeReplySchema = RedisTimeSchema;
const IncrementReplySchema = z.tuple([z.number().int().nonnegative(), RedisTimeSchema]);
const ReserveReplySchema = z.tuple([
  z.union([z.literal(-1), z.literal(0), z.literal(1)]),
  z.number().int().min(0),
  RedisTimeSchema,
]);

function decodeRecord(json: string, where: string): KeyRecord {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new Error(`${where}: stored key record is not JSON`);
  }
  // Validated on the way out too: the hash is shared state that other tools (or people) can write.
  const parsed = KeyRecordSchema.safeParse(value);
  if (!parsed.success) throw new Error(`${where}: stored key record is invalid:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

function encodeRecord(record: KeyRecord): string {
  // Re-validate so a malformed record never reaches the shared hash; fixed field order keeps values stable.
  const { hash, plan, label, created_at } = KeyRecordSchema.parse(record);
  return JSON.stringify({ hash, plan, label, created_at });
}

function isNoScriptError(error: unknown): boolean {
  return error instanceof Error && /noscript/i.test(error.message);
}

export interface RedisBackedStoreOptions {
  kind: 'redis' | 'upstash';
  commands: RedisCommands;
  prefix: string;
  timeoutMs: number;
  close: () => Promise<void>;
}

/**
 * A Store over any Redis reachable through `commands`. Every backend call runs under `withinDeadline`, so it
 * settles within `timeoutMs` or rejects with `StoreUnavailableError`. Input that is wrong (an invalid record,
 * a malformed hash prefix, an ambiguous prefix) rejects with a plain Error before or after the backend call.
 */
export function createRedisBackedStore(options: RedisBackedStoreOptions): Store {
  const { kind, commands, prefix, timeoutMs } = options;
  const keysHash = `${prefix}keys`;
  const counterKey = (key: string) => `${prefix}counter:${key}`;
  const markerKey = `${prefix}marker`;
  /** Whether this process has written or found the marker: from then on, its absence means data lost. */
  let marked = false;
  const call = <T>(what: string, operation: (signal: AbortSignal) => Promise<T>) =>
    withinDeadline(`${kind} ${what}`, timeoutMs, operation);

  /** EVALSHA first (the script text is sent once per Redis restart), EVAL when Redis does not know it yet. */
  async function runScript(script: LuaScript, keys: string[], args: string[], signal: AbortSignal): Promise<unknown> {
    try {
      return await commands.evalSha(script.sha1, keys, args, signal);
    } catch (error) {
      if (!isNoScriptError(error)) throw error;
      signal.throwIfAborted();
      return await commands.eval(script.source, keys, args, signal);
    }
  }

  /** Redis's clock against this process's, learnt from the counting scripts' replies. */
  const clock = createStoreClock();

  /**
   * The latest Redis time at which a counting script sent now may still count, for a caller whose deadline
   * is `deadlineMs` (epoch ms), about to count `counter`. A process that has not heard Redis's time yet asks
   * for it first, once.
   */
  async function latestCountTime(counter: string, deadlineMs: number, signal: AbortSignal): Promise<number> {
    if (!clock.known) {
      // Sent with the counter's key, which it does not touch: a cluster or a proxy routes a script by its
      // keys, and some refuse one without any.
      const reply = await runScript(TIME_SCRIPT, [counter], [], signal);
      const receivedMs = Date.now();
      const redisMs = TimeReplySchema.safeParse(reply);
      if (!redisMs.success) throw new Error(`${kind} time: unexpected reply ${JSON.stringify(reply)}`);
      clock.observe(redisMs.data, receivedMs);
      signal.throwIfAborted();
    }
    return clock.redisDeadline(deadlineMs);
  }

  /** A counting script Redis ran after its caller's deadline: it counted nothing, and the caller answers 502. */
  const tooLate = (what: string) =>
    new StoreUnavailableError(`${kind} ${what}: Redis ran it after the deadline had passed, so nothing was counted`);

  const notify = createRedisNotify(
    kind,
    prefix,
    (what, script, keys, args) => call(what, (signal) => runScript(script, keys, args, signal)),
    luaScript,
  );

  const unknown = createRedisUnknown(
    kind,
    prefix,
    (what, script, keys, args) => call(what, (signal) => runScript(script, keys, args, signal)),
    luaScript,
  );

  return {
    kind,
    ...notify,
    ...unknown,

    async increment(key, expireAtMs) {
      if (!Number.isSafeInteger(expireAtMs))
        throw new Error(`increment: expireAtMs must be an integer, got ${expireAtMs}`);
      const deadlineMs = Date.now() + timeoutMs;
      const reply = await call('increment', async (signal) => {
        const latest = await latestCountTime(counterKey(key), deadlineMs, signal);
        return runScript(INCREMENT_SCRIPT, [counterKey(key)], [String(expireAtMs), String(latest)], signal);
      });
      const receivedMs = Date.now();
      const parsed = IncrementReplySchema.safeParse(reply);
      if (!parsed.success) throw new Error(`${kind} increment: unexpected reply ${JSON.stringify(reply)}`);
      const [count, redisMs] = parsed.data;
      clock.observe(redisMs, receivedMs);
      if (count === 0) throw tooLate('increment');
      return count;
    },

    async reserve(key, amount, limit, expireAtMs) {
      for (const [name, value] of [
        ['amount', amount],
        ['limit', limit],
        ['expireAtMs', expireAtMs],
      ] as const) {
        if (!Number.isSafeInteger(value) || value < 0) throw new Error(`reserve: ${name} must be a whole number`);
      }
      const deadlineMs = Date.now() + timeoutMs;
      const reply = await call('reserve', async (signal) => {
        const latest = await latestCountTime(counterKey(key), deadlineMs, signal);
        const args = [String(amount), String(limit), String(expireAtMs), String(latest)];
        return runScript(RESERVE_SCRIPT, [counterKey(key)], args, signal);
      });
      const receivedMs = Date.now();
      const parsed = ReserveReplySchema.safeParse(reply);
      if (!parsed.success) throw new Error(`${kind} reserve: unexpected reply ${JSON.stringify(reply)}`);
      const [outcome, count, redisMs] = parsed.data;
      clock.observe(redisMs, receivedMs);
      if (outcome === -1) throw tooLate('reserve');
      return { granted: outcome === 1, count };
    },

    async findKey(hash) {
      const json = await call('findKey', (signal) => commands.hGet(keysHash, hash, signal));
      return json === null || json === undefined ? undefined : decodeRecord(json, `${kind} findKey`);
    },

    async addKey(record) {
      const json = encodeRecord(record);
      await call('addKey', (signal) => commands.hSet(keysHash, record.hash, json, signal));
    },

    async listKeys() {
      const values = await call('listKeys', (signal) => commands.hVals(keysHash, signal));
      const records = values.map((json) => decodeRecord(json, `${kind} listKeys`));
      // A hash has no order: list oldest first, then by hash, so output is stable between runs.
      return records.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.hash.localeCompare(b.hash));
    },

    async revokeKey(hashPrefix) {
      const parsedPrefix = HashPrefixSchema.safeParse(hashPrefix);
      if (!parsedPrefix.success) throw new UsageError(`revokeKey: ${z.prettifyError(parsedPrefix.error)}`);
      const reply = await call('revokeKey', (signal) =>
        runScript(REVOKE_SCRIPT, [keysHash], [parsedPrefix.data], signal),
      );
      const matches = ScriptCountSchema.safeParse(reply);
      if (!matches.success) throw new Error(`${kind} revokeKey: unexpected reply ${JSON.stringify(reply)}`);
      if (matches.data > 1) {
        throw new UsageError(
          `revokeKey: prefix ${parsedPrefix.data} matches ${matches.data} keys; give more characters`,
        );
      }
      return matches.data === 1;
    },

    async ping() {
      await call('ping', (signal) => commands.ping(signal));
    },

    async dataKept() {
      const mode = marked ? 'check' : 'write';
      const reply = await call('dataKept', (signal) =>
        runScript(MARKER_SCRIPT, [markerKey], [mode, new Date().toISOString()], signal),
      );
      const found = ScriptCountSchema.safeParse(reply);
      if (!found.success) throw new Error(`${kind} dataKept: unexpected reply ${JSON.stringify(reply)}`);
      if (mode === 'write') {
        marked = true;
        return true;
      }
      return found.data === 1;
    },

    close: options.close,
  };
}
