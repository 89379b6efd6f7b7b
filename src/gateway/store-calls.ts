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
 * How long health's look at the store stands: a flood of health checks costs the store one command a
 * second at most (on a billed store, Upstash, every command is paid for, and anyone may ask for health).
 * A failure found stands only until another call sees the store answer.
 */
export const HEALTH_PROBE_MS = 1000;

/** What health reports of the store: answering, not answering, or answering without the data it had. */
export type StoreState = 'ok' | 'unavailable' | 'data_lost';

export interface StoreCalls {
  readonly kind: Store['kind'];
  findKey(hash: string): Promise<KeyRecord | undefined>;
  increment(key: string, expireAtMs: number): Promise<number>;
  reserve(key: string, amount: number, limit: number, expireAtMs: number): Promise<Reservation>;
  /** Whether the store answers within the bound, and if so whether it still holds its data. */
  state(): Promise<StoreState>;
  /** The 502 for a failed call, after telling the operator why (the client never sees the backend's error). */
  unavailable(cause: unknown): ApiError;
}

export function createStoreCalls(store: Store, timeoutMs: number): StoreCalls {
  let reportedAt = Number.NEGATIVE_INFINITY;
  /** What the last probe found, and when (`performance.now()`). */
  let probed: { state: Promise<StoreState>; at: number } | undefined;
  /** When a call last succeeded: a probe that failed before that is out of date. */
  let answeredAt = Number.NEGATIVE_INFINITY;
  /** `operation` under the bound, noting when the store answered. */
  const watched = <T>(operation: () => Promise<T>): Promise<T> =>
    bounded(operation, timeoutMs).then((value) => {
      answeredAt = performance.now();
      return value;
    });
  const probe = (): Promise<StoreState> =>
    watched(() => store.dataKept()).then(
      (kept): StoreState => (kept ? 'ok' : 'data_lost'),
      (): StoreState => 'unavailable',
    );
  return {
    kind: store.kind,
    findKey: (hash) => watched(() => store.findKey(hash)),
    increment: (key, expireAtMs) => watched(() => store.increment(key, expireAtMs)),
    reserve: (key, amount, limit, expireAtMs) => watched(() => store.reserve(key, amount, limit, expireAtMs)),
    async state() {
      const now = performance.now();
      if (probed !== undefined && now - probed.at < HEALTH_PROBE_MS) {
        const state = await probed.state;
        // A failure is not repeated once another call has seen the store answer since.
        if (state !== 'unavailable' || answeredAt <= probed.at) return state;
      }
      probed = { state: probe(), at: now };
      return probed.state;
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
