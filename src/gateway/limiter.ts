/**
 * The daily limit of a key: count the request (a bounded store call), then decide. Nothing is let through
 * uncounted: no count, no answer. The algorithm (a fixed UTC day, `rate-limit.ts`) is a value the pipeline
 * holds, as upstash/ratelimit holds its algorithm, so the gateway itself does not know how a day is cut.
 */
import { ApiError } from '../api/errors.js';
import type { PlanTable } from '../keys/plans.js';
import type { KeyRecord } from '../keys/record.js';
import {
  counterExpiry,
  dailyCounterKey,
  decide,
  type RateLimitDecision,
  rateLimitedError,
  retryAfterSeconds,
  uncounted,
} from './rate-limit.js';
import type { StoreCalls } from './store-calls.js';

/** The decision whose headers the answer carries, and the error when the request may not proceed. */
export interface LimitOutcome {
  decision: RateLimitDecision;
  refusal?: ApiError;
}

/** Count a request of `record`'s key as `cost` requests (a bulk request counts each item, all or nothing). */
export type CountRequest = (record: KeyRecord, nowMs: number, cost?: number) => Promise<LimitOutcome>;

export function createLimiter(plans: PlanTable, calls: StoreCalls): CountRequest {
  return async (record, nowMs, cost = 1) => {
    const limit = plans[record.plan].dailyLimit;
    if (cost !== 1) return reserve(record, nowMs, cost, limit);
    let count: number;
    try {
      count = await calls.increment(dailyCounterKey(record.hash, nowMs), counterExpiry(nowMs));
    } catch (error) {
      // The remaining count is unknown, so the headers report the plan's limit, as for any response not
      // tied to a counted request.
      return { decision: uncounted(limit, nowMs), refusal: calls.unavailable(error) };
    }
    const decision = decide(count, limit, nowMs);
    return decision.success ? { decision } : { decision, refusal: rateLimitedError(decision, nowMs) };
  };

  async function reserve(record: KeyRecord, nowMs: number, cost: number, limit: number): Promise<LimitOutcome> {
    let reservation;
    try {
      reservation = await calls.reserve(dailyCounterKey(record.hash, nowMs), cost, limit, counterExpiry(nowMs));
    } catch (error) {
      return { decision: uncounted(limit, nowMs), refusal: calls.unavailable(error) };
    }
    if (reservation.granted) return { decision: decide(reservation.count, limit, nowMs) };
    const left = Math.max(0, limit - reservation.count);
    const decision = { ...decide(reservation.count, limit, nowMs), success: false };
    const refusal = new ApiError(
      'rate_limited',
      `This request counts as ${cost} requests (one per item) and the key has ${left} left today; nothing was ` +
        `counted. The daily limit of ${limit} resets at ${new Date(decision.reset).toISOString()} ` +
        `(in ${retryAfterSeconds(decision, nowMs)} s, see Retry-After)`,
    );
    return { decision, refusal };
  }
}
