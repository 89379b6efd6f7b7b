/**
 * The unknown-identifier tallies (`UnknownIdentifierStore`) in Redis, shared by the Redis and Upstash stores:
 * each call is one Lua script, so the bound on a day's distinct identifiers is checked in the same atomic
 * step as the count.
 *
 * Layout under the prefix (default `mts:`): `mts:unknown:<YYYY-MM-DD>`, a sorted set, member = the
 * identifier, score = how many times it was asked about that day, expiring at the time the caller gives.
 */
import * as z from 'zod';
import type { LuaScript, ScriptRunner } from './redis-notify.js';
import type { UnknownIdentifierStore, UnknownTally } from './types.js';
import { byCountThenIdentifier, checkUnknownArguments } from './unknown-tally.js';

/**
 * ZINCRBY for each identifier already in the day's set, or new while the set holds fewer than ARGV[1]
 * members; the expiry (ARGV[2]) set when the set has none. Returns how many were counted.
 */
const COUNT_SOURCE = `local max = tonumber(ARGV[1])
local counted = 0
for i = 3, #ARGV do
  if redis.call('ZSCORE', KEYS[1], ARGV[i]) or redis.call('ZCARD', KEYS[1]) < max then
    redis.call('ZINCRBY', KEYS[1], 1, ARGV[i])
    counted = counted + 1
  end
end
if counted > 0 and redis.call('PTTL', KEYS[1]) == -1 then redis.call('PEXPIREAT', KEYS[1], ARGV[2]) end
return counted`;

/**
 * Every day's set summed (each is bounded, so this is too), the ARGV[1] largest returned as a flat list
 * {identifier, count, ...}, most first and ties by identifier. Read-only: no set is written to sum them.
 */
const TOP_SOURCE = `local totals = {}
local names = {}
for _, key in ipairs(KEYS) do
  local flat = redis.call('ZRANGE', key, 0, -1, 'WITHSCORES')
  for i = 1, #flat, 2 do
    local member = flat[i]
    if totals[member] == nil then
      names[#names + 1] = member
      totals[member] = 0
    end
    totals[member] = totals[member] + tonumber(flat[i + 1])
  end
end
table.sort(names, function(a, b)
  if totals[a] ~= totals[b] then return totals[a] > totals[b] end
  return a < b
end)
local out = {}
for i = 1, math.min(#names, tonumber(ARGV[1])) do
  out[#out + 1] = names[i]
  out[#out + 1] = totals[names[i]]
end
return out`;

const CountReplySchema = z.number().int().nonnegative();
const TopReplySchema = z.array(z.union([z.string(), z.number().int().nonnegative()]));

/** The tallies over `run`; `script` makes a LuaScript (the layout's, so hashes are computed once). */
export function createRedisUnknown(
  kind: string,
  prefix: string,
  run: ScriptRunner,
  script: (source: string) => LuaScript,
): UnknownIdentifierStore {
  const count = script(COUNT_SOURCE);
  const top = script(TOP_SOURCE);
  const dayKey = (day: string) => `${prefix}unknown:${day}`;
  const unexpected = (what: string, reply: unknown) =>
    new Error(`${kind} ${what}: unexpected reply ${JSON.stringify(reply)?.slice(0, 200)}`);

  return {
    async countUnknown(day, identifiers, maxMembers, expireAtMs) {
      checkUnknownArguments('countUnknown', [day], { maxMembers, expireAtMs });
      if (identifiers.length === 0) return 0;
      const reply = await run(
        'countUnknown',
        count,
        [dayKey(day)],
        [String(maxMembers), String(expireAtMs), ...identifiers],
      );
      const counted = CountReplySchema.safeParse(reply);
      if (!counted.success) throw unexpected('countUnknown', reply);
      return counted.data;
    },

    async topUnknown(days, limit) {
      checkUnknownArguments('topUnknown', days, { limit });
      const keys = [...new Set(days)].map(dayKey);
      if (keys.length === 0 || limit === 0) return [];
      const reply = await run('topUnknown', top, keys, [String(limit)]);
      const flat = TopReplySchema.safeParse(reply);
      if (!flat.success || flat.data.length % 2 !== 0) throw unexpected('topUnknown', reply);
      const tallies: UnknownTally[] = [];
      for (let i = 0; i < flat.data.length; i += 2) {
        const [identifier, counted] = [flat.data[i], flat.data[i + 1]];
        // Upstash may give a member that looks like a number as a number; a count is always a number.
        if (typeof counted !== 'number') throw unexpected('topUnknown', reply);
        tallies.push({ identifier: String(identifier), count: counted });
      }
      // Lua compares strings by bytes, which is this order for the printable ASCII the gateway counts; sorted
      // again so that a member written some other way cannot break the order the contract promises.
      return tallies.sort(byCountThenIdentifier);
    },
  };
}
