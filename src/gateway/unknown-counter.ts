/**
 * Counting the identifiers that lookups and checks ask about and the snapshot does not know, so the night
 * can look for them (docs/pipeline.md). What is counted is the identifier alone (`unknownIdentifierOf`):
 * never the key, the address or anything else of the request.
 *
 * The answer never waits for it and never fails because of it: a count is sent and forgotten, under a short
 * bound of its own; past `maxInFlight` counts not yet settled (a store that hangs) a new one is dropped
 * rather than queued, and a failure is reported to stderr at most once every 10 s. A count lost so is a
 * count the night does not see, nothing more.
 */
import { bounded } from '../stores/deadline.js';
import type { UnknownIdentifierStore } from '../stores/types.js';
import { UNKNOWN_DAYS_KEPT, unknownDay } from '../stores/unknown-tally.js';

/** A day's bound on distinct identifiers: past it a new one is refused, the ones there still count. */
export const MAX_UNKNOWN_PER_DAY = 10_000;

/** How often a failed count is reported. */
const REPORT_EVERY_MS = 10_000;

const DAY_MS = 86_400_000;

export interface UnknownCounterOptions {
  /** Bound on one count, in milliseconds. */
  timeoutMs: number;
  /** Counts sent and not yet settled, at most; past it a count is dropped. */
  maxInFlight?: number;
  /** A day's bound on distinct identifiers (default `MAX_UNKNOWN_PER_DAY`). */
  maxPerDay?: number;
  /** Where a failure is reported; default stderr. */
  warn?: (message: string) => void;
}

/** Counts `identifiers` (already in their counted form) for the UTC day of `nowMs`; returns at once. */
export type CountUnknown = (identifiers: readonly string[], nowMs: number) => void;

export function createUnknownCounter(store: UnknownIdentifierStore, options: UnknownCounterOptions): CountUnknown {
  const maxInFlight = options.maxInFlight ?? 64;
  const maxPerDay = options.maxPerDay ?? MAX_UNKNOWN_PER_DAY;
  const warn = options.warn ?? ((message: string) => console.error(message));
  let inFlight = 0;
  let reportedAt = Number.NEGATIVE_INFINITY;

  function report(why: string): void {
    const at = performance.now();
    if (at - reportedAt < REPORT_EVERY_MS) return;
    reportedAt = at;
    warn(`gateway: an unknown identifier was not counted (${why}); answers are not affected`);
  }

  return (identifiers, nowMs) => {
    const distinct = [...new Set(identifiers)];
    if (distinct.length === 0) return;
    if (inFlight >= maxInFlight) {
      report(`${inFlight} counts are still waiting for the store`);
      return;
    }
    const day = unknownDay(nowMs);
    // Kept whole days past its own, so the night's read of the last days finds it.
    const expireAtMs = Date.parse(`${day}T00:00:00Z`) + (UNKNOWN_DAYS_KEPT + 1) * DAY_MS;
    inFlight++;
    let sent: Promise<number>;
    try {
      sent = bounded(() => store.countUnknown(day, distinct, maxPerDay, expireAtMs), options.timeoutMs);
    } catch (error) {
      sent = Promise.reject(error);
    }
    sent.then(
      () => inFlight--,
      (error: unknown) => {
        inFlight--;
        report(error instanceof Error ? error.message : String(error));
      },
    );
  };
}
