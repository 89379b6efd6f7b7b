/**
 * The notification primitives (`NotifyStore`) in Redis, shared by the Redis and Upstash stores: every call is
 * one Lua script, so each condition is checked in the same atomic step as its write and a backend only has to
 * send EVALSHA/EVAL.
 *
 * Layout under the prefix (default `mts:`):
 * - `mts:notify:<collection>`: a hash, field = record id, value = the record's JSON;
 * - `mts:lease:<name>`: a string holding the owner, with a millisecond expiry (SET PX);
 * - `mts:queue:<name>`: a sorted set, member = the caller's text, score = when it is due (epoch ms).
 */
import * as z from 'zod';
import type { NotifyStore } from './types.js';

export interface LuaScript {
  source: string;
  sha1: string;
}

/** Runs `script` (EVALSHA, EVAL when Redis does not know it) under the store's deadline; `what` names the call. */
export type ScriptRunner = (what: string, script: LuaScript, keys: string[], args: string[]) => Promise<unknown>;

/** HEXISTS, the condition, HLEN for a new record, then HSET: one step. Returns 1 written, 0 not. */
const PUT_SOURCE = `local exists = redis.call('HEXISTS', KEYS[1], ARGV[1])
if ARGV[3] == 'absent' and exists == 1 then return 0 end
if ARGV[3] == 'present' and exists == 0 then return 0 end
local max = tonumber(ARGV[4])
if exists == 0 and max > 0 and redis.call('HLEN', KEYS[1]) >= max then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1`;

/** The put's condition, HSET, then ZADD (a due time) or ZREM (none): one step. Returns 1 written, 0 not. */
const PUT_QUEUED_SOURCE = `local exists = redis.call('HEXISTS', KEYS[1], ARGV[1])
if ARGV[3] == 'absent' and exists == 1 then return 0 end
if ARGV[3] == 'present' and exists == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
if ARGV[5] == '' then redis.call('ZREM', KEYS[2], ARGV[4]) else redis.call('ZADD', KEYS[2], ARGV[5], ARGV[4]) end
return 1`;

const GET_SOURCE = `return redis.call('HGET', KEYS[1], ARGV[1])`;
const LIST_SOURCE = `return redis.call('HVALS', KEYS[1])`;
const DELETE_SOURCE = `return redis.call('HDEL', KEYS[1], ARGV[1])`;

/** Take the lease when free or already ours (renewing it). Returns 1 held, 0 another owner holds it. */
const LEASE_ACQUIRE_SOURCE = `local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`;

/** Delete the lease only when `owner` holds it, so a late release never ends another instance's lease. */
const LEASE_RELEASE_SOURCE = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0`;

const QUEUE_ADD_SOURCE = `redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
return 0`;
const QUEUE_DUE_SOURCE = `return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])`;
const QUEUE_REMOVE_SOURCE = `redis.call('ZREM', KEYS[1], ARGV[1])
return 0`;

const FlagReplySchema = z.union([z.literal(0), z.literal(1)]);
const TextReplySchema = z.string().nullable();
const TextsReplySchema = z.array(z.string());

/** The primitives over `run`; `script` makes a LuaScript (the layout's, so hashes are computed once). */
export function createRedisNotify(
  kind: string,
  prefix: string,
  run: ScriptRunner,
  script: (source: string) => LuaScript,
): NotifyStore {
  const put = script(PUT_SOURCE);
  const putQueued = script(PUT_QUEUED_SOURCE);
  const get = script(GET_SOURCE);
  const list = script(LIST_SOURCE);
  const remove = script(DELETE_SOURCE);
  const acquire = script(LEASE_ACQUIRE_SOURCE);
  const release = script(LEASE_RELEASE_SOURCE);
  const queueAdd = script(QUEUE_ADD_SOURCE);
  const queueDue = script(QUEUE_DUE_SOURCE);
  const queueRemove = script(QUEUE_REMOVE_SOURCE);
  const collectionKey = (name: string) => `${prefix}notify:${name}`;
  const leaseKey = (name: string) => `${prefix}lease:${name}`;
  const queueKey = (name: string) => `${prefix}queue:${name}`;

  function parsed<T>(what: string, schema: z.ZodType<T>, reply: unknown): T {
    // Upstash gives a missing value as undefined where Redis over TCP gives null.
    const result = schema.safeParse(reply === undefined ? null : reply);
    if (!result.success) throw new Error(`${kind} ${what}: unexpected reply ${JSON.stringify(reply)?.slice(0, 200)}`);
    return result.data;
  }

  const wholeNumber = (what: string, value: number) => {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${what} must be a whole number, got ${value}`);
    return String(value);
  };

  return {
    async recordGet(name, id) {
      const reply = await run('recordGet', get, [collectionKey(name)], [id]);
      return parsed('recordGet', TextReplySchema, reply) ?? undefined;
    },
    async recordList(name) {
      return parsed('recordList', TextsReplySchema, await run('recordList', list, [collectionKey(name)], []));
    },
    async recordPut(name, id, value, when = 'always', maxSize = 0) {
      const args = [id, value, when, wholeNumber('recordPut: maxSize', maxSize)];
      return parsed('recordPut', FlagReplySchema, await run('recordPut', put, [collectionKey(name)], args)) === 1;
    },
    async recordPutQueued(name, id, value, when, queue, member, dueAtMs) {
      const due = dueAtMs === null ? '' : wholeNumber('recordPutQueued: dueAtMs', dueAtMs);
      const keys = [collectionKey(name), queueKey(queue)];
      const reply = await run('recordPutQueued', putQueued, keys, [id, value, when, member, due]);
      return parsed('recordPutQueued', FlagReplySchema, reply) === 1;
    },
    async recordDelete(name, id) {
      return (
        parsed('recordDelete', FlagReplySchema, await run('recordDelete', remove, [collectionKey(name)], [id])) === 1
      );
    },
    async leaseAcquire(name, owner, ttlMs) {
      const args = [owner, wholeNumber('leaseAcquire: ttlMs', ttlMs)];
      return parsed('leaseAcquire', FlagReplySchema, await run('leaseAcquire', acquire, [leaseKey(name)], args)) === 1;
    },
    async leaseRelease(name, owner) {
      await run('leaseRelease', release, [leaseKey(name)], [owner]);
    },
    async queueAdd(name, member, dueAtMs) {
      await run('queueAdd', queueAdd, [queueKey(name)], [member, wholeNumber('queueAdd: dueAtMs', dueAtMs)]);
    },
    async queueDue(name, nowMs, limit) {
      const args = [wholeNumber('queueDue: nowMs', nowMs), wholeNumber('queueDue: limit', limit)];
      return parsed('queueDue', TextsReplySchema, await run('queueDue', queueDue, [queueKey(name)], args));
    },
    async queueRemove(name, member) {
      await run('queueRemove', queueRemove, [queueKey(name)], [member]);
    },
  };
}
