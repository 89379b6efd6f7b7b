/**
 * The daily limit of a key: count the request (a bounded store call), then decide. Nothing is let through
 * uncounted: no count, no answer. The algorithm (a fixed UTC day, `rate-limit.ts`) is a value the pipeline
 * holds, as upstash/ratelimit holds its algorithm, so the gateway itself does not know how a day is cut.
 */
import type { ApiError } from '../api/errors.js';
import type { PlanTable } from '../keys/plans.js';
import type { KeyRecord } from '../keys/record.js';
import {
  counterExpiry,
  dailyCounterKey,
  decide,
  type RateLimitDecision,
  rateLimitedError,
  uncounted,
} from './rate-limit.js';
import type { StoreCalls } from './store-calls.js';

/** The decision whose headers the answer carries, and the error when the request may not proceed. */
export interface LimitOutcome {
  decision: RateLimitDecision;
  refusal?: ApiError;
}

export type CountRequest = (record: KeyRecord, nowMs: number) => Promise<LimitOutcome>;

export function createLimiter(plans: PlanTable, calls: StoreCalls): CountRequest {
  return async (record, nowMs) => {
    const limit = plans[record.plan].dailyLimit;
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
}
