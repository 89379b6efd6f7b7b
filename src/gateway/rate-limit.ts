/**
 * Daily limits (specification section 8, decisions sections 5 and 6). A decision is a value
 * `{ success, limit, remaining, reset }`; the `X-RateLimit-*` headers, `Retry-After` and the 429 are all made
 * from it here, in one place.
 *
 * A day is a UTC calendar day: a key's counter is named after the day and expires at the next UTC midnight,
 * so every key's window resets at the same instant, the one `X-RateLimit-Reset` announces.
 */
import { ApiError } from '../api/errors.js';

const DAY_MS = 86_400_000;

export interface RateLimitDecision {
  /** Whether the request may proceed. */
  success: boolean;
  /** The key's daily limit (its plan's). */
  limit: number;
  /** Requests left today after this one (never below 0). */
  remaining: number;
  /** The next UTC midnight, epoch milliseconds: when the counter resets. */
  reset: number;
}

/** Epoch milliseconds of the first UTC midnight strictly after `nowMs`. */
export function nextUtcMidnight(nowMs: number): number {
  return (Math.floor(nowMs / DAY_MS) + 1) * DAY_MS;
}

/**
 * Counters outlive their day by an hour. Their names carry the day, so a late expiry costs nothing, while
 * an expiry exactly at midnight would, on a store whose clock runs a few seconds ahead of ours, delete a
 * counter the moment it is created and let those seconds' requests through uncounted.
 */
const COUNTER_EXPIRY_MARGIN_MS = 3_600_000;

/** When the store should drop the counter of the day holding `nowMs` (epoch ms). */
export function counterExpiry(nowMs: number): number {
  return nextUtcMidnight(nowMs) + COUNTER_EXPIRY_MARGIN_MS;
}

let memoDay = Number.NaN;
let memoDate = '';

/** The counter of key hash `hash` for the UTC day holding `nowMs`: `<hash>:<YYYY-MM-DD>`. */
export function dailyCounterKey(hash: string, nowMs: number): string {
  const day = Math.floor(nowMs / DAY_MS);
  if (day !== memoDay) {
    memoDay = day;
    memoDate = new Date(day * DAY_MS).toISOString().slice(0, 10);
  }
  return `${hash}:${memoDate}`;
}

/** The decision for the `count`-th counted request of the day (`count` as returned by the increment). */
export function decide(count: number, limit: number, nowMs: number): RateLimitDecision {
  return { success: count <= limit, limit, remaining: Math.max(0, limit - count), reset: nextUtcMidnight(nowMs) };
}

/**
 * What a response not tied to a counted request reports (health, 401, an unknown route, a preflight): the
 * plan's limit and that same number as remaining (decisions, section 5).
 */
export function uncounted(limit: number, nowMs: number): RateLimitDecision {
  return { success: true, limit, remaining: limit, reset: nextUtcMidnight(nowMs) };
}

/** Whole seconds until the reset, at least 1 (a client told 0 would retry at once, into the same 429). */
export function retryAfterSeconds(decision: RateLimitDecision, nowMs: number): number {
  return Math.max(1, Math.ceil((decision.reset - nowMs) / 1000));
}

/** Adds the `X-RateLimit-*` headers to `headers`, and `Retry-After` when the decision refuses. */
export function setRateLimitHeaders(headers: Record<string, string>, decision: RateLimitDecision, nowMs: number): void {
  headers['x-ratelimit-limit'] = String(decision.limit);
  headers['x-ratelimit-remaining'] = String(decision.remaining);
  headers['x-ratelimit-reset'] = String(decision.reset / 1000);
  if (!decision.success) headers['retry-after'] = String(retryAfterSeconds(decision, nowMs));
}

/** The 429 of a refused decision. */
export function rateLimitedError(decision: RateLimitDecision, nowMs: number): ApiError {
  const seconds = retryAfterSeconds(decision, nowMs);
  return new ApiError(
    'rate_limited',
    `Daily rate limit of ${decision.limit} requests exceeded; it resets at ${new Date(decision.reset).toISOString()} ` +
      `(in ${seconds} s, see Retry-After)`,
  );
}
