/**
 * Every store call the gateway makes, bounded: it settles with the call's result or fails once the bound
 * has passed, whatever the store does (decisions, section 5: a store outage is a 502 within about a second).
 * Remote stores bound their own calls too; this holds for any `Store`, including one that never answers.
 */
import { ApiError } from '../api/errors.js';
import type { KeyRecord } from '../keys/record.js';
import { bounded } from '../stores/deadline.js';
import type { Reservation, Store } from '../stores/types.js';

/** How often a store failure is written to stderr: once every 10 s is enough to say why 502s happen. */
const REPORT_EVERY_MS = 10_000;

/**
 * How long what the store last showed (an answer, or a failure) stands for health: a flood of health checks
 * costs the store one PING a second at most, and none while other requests show it answering. On a billed
 * store (Upstash) every command is paid for, and anyone may ask for health.
 */
export const HEALTH_PROBE_MS = 1000;

export interface StoreCalls {
  readonly kind: Store['kind'];
  findKey(hash: string): Promise<KeyRecord | undefined>;
  increment(key: string, expireAtMs: number): Promise<number>;
  reserve(key: string, amount: number, limit: number, expireAtMs: number): Promise<Reservation>;
  /** Whether the store answers within the bound. */
  answers(): Promise<boolean>;
  /** The 502 for a failed call, after telling the operator why (the client never sees the backend's error). */
  unavailable(cause: unknown): ApiError;
}

export function createStoreCalls(store: Store, timeoutMs: number): StoreCalls {
  let reportedAt = Number.NEGATIVE_INFINITY;
  /** What the last settled call showed of the store, and when (`performance.now()`). */
  let lastSeen = { answered: false, at: Number.NEGATIVE_INFINITY };
  let probing: Promise<boolean> | undefined;
  const seen = (answered: boolean) => {
    lastSeen = { answered, at: performance.now() };
  };
  /** `operation` under the bound, noting whether the store answered. */
  const watched = <T>(operation: () => Promise<T>): Promise<T> =>
    bounded(operation, timeoutMs).then(
      (value) => {
        seen(true);
        return value;
      },
      (error: unknown) => {
        seen(false);
        throw error;
      },
    );
  return {
    kind: store.kind,
    findKey: (hash) => watched(() => store.findKey(hash)),
    increment: (key, expireAtMs) => watched(() => store.increment(key, expireAtMs)),
    reserve: (key, amount, limit, expireAtMs) => watched(() => store.reserve(key, amount, limit, expireAtMs)),
    answers() {
      if (performance.now() - lastSeen.at < HEALTH_PROBE_MS) return Promise.resolve(lastSeen.answered);
      probing ??= watched(() => store.ping()).then(
        () => true,
        () => false,
      );
      const probe = probing;
      void probe.then(() => {
        if (probing === probe) probing = undefined;
      });
      return probe;
    },
    unavailable(cause) {
      const at = performance.now();
      if (at - reportedAt >= REPORT_EVERY_MS) {
        reportedAt = at;
        const why = cause instanceof Error ? cause.message : String(cause);
        console.error(`gateway: answering 502, the ${store.kind} store failed: ${why}`);
      }
      return new ApiError(
        'store_unavailable',
        'The upstream data store (keys and daily counters) cannot be reached; nothing was served. Try again shortly',
      );
    },
  };
}
