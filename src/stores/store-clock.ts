/**
 * The Redis server's clock as this process can know it, so that a counting script can refuse to count once
 * the caller has given up on it.
 *
 * Why: a call that misses its deadline is answered 502, but the command was sent; a Redis that hung (rather
 * than refused) runs it when it wakes, and the request would be counted though it was never served. The
 * counting scripts are therefore sent with the latest time, on Redis's own clock (`TIME`), at which they may
 * still count. Every script reply carries Redis's time, and each one bounds the offset between the clocks
 * from below: Redis read its clock before this process received the reply, so `offset >= redisMs -
 * receivedMs`. The deadline sent is the caller's deadline shifted by the highest such bound, less
 * `SAFETY_MS` for the reply's way back (a command counted just before the deadline whose reply arrives after
 * it is the one case left). A bound that is too low only makes Redis refuse a count it could have taken
 * (the caller answers 502 and counts nothing, as it would at its deadline); the bound is never too high
 * while the clocks keep time, so Redis never counts what the caller has answered 502.
 *
 * Clocks that step: a forward step of either clock shows in the next reply and raises the bound at once; a
 * bound raised by a clock that then steps back is forgotten within two windows (`WINDOW_MS`), and until
 * then a hang's counts can land late, as they did before this existed.
 */

/** How long a reply may take to come back after Redis counted it, at most, for the count to be honest. */
export const SAFETY_MS = 100;

/** Bounds are kept per window and the highest of the last two windows used, so a stale one ages out. */
const WINDOW_MS = 60_000;

export interface StoreClock {
  /** Whether a reply has been seen yet: without one, a deadline cannot be sent. */
  readonly known: boolean;
  /** Note a reply that carried Redis's time `redisMs`, received at `receivedMs` (epoch ms, this clock). */
  observe(redisMs: number, receivedMs: number): void;
  /** The latest Redis time at which a command may take effect, for a caller whose deadline is `deadlineMs`. */
  redisDeadline(deadlineMs: number): number;
}

export function createStoreClock(): StoreClock {
  let windowStart = Number.NEGATIVE_INFINITY;
  let current = Number.NEGATIVE_INFINITY;
  let previous = Number.NEGATIVE_INFINITY;
  return {
    get known() {
      return Number.isFinite(Math.max(current, previous));
    },
    observe(redisMs, receivedMs) {
      if (!Number.isFinite(redisMs) || !Number.isFinite(receivedMs)) return;
      const elapsed = receivedMs - windowStart;
      if (elapsed >= WINDOW_MS || elapsed < 0) {
        // A new window: the last one's bound is kept for one more window, an older one (or one from before
        // this clock stepped back) is dropped.
        previous = elapsed >= 0 && elapsed < 2 * WINDOW_MS ? current : Number.NEGATIVE_INFINITY;
        current = Number.NEGATIVE_INFINITY;
        windowStart = receivedMs;
      }
      current = Math.max(current, redisMs - receivedMs);
    },
    redisDeadline(deadlineMs) {
      return Math.floor(deadlineMs + Math.max(current, previous) - SAFETY_MS);
    },
  };
}
