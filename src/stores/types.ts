/**
 * The pluggable store behind the gateway: daily counters and issued keys. One interface, one file per
 * backend (memory, redis, upstash), chosen by configuration in `src/service/store.ts`.
 *
 * Failure policy: every call either settles within the store's timeout (about one second) or rejects with
 * `StoreUnavailableError`; the gateway answers 502 and never lets a request through uncounted.
 */

import { OperatorError } from '../errors/operator-error.js';
import type { KeyRecord } from '../keys/record.js';

/** Thrown (as a rejection) when the backend cannot be reached in time. */
export class StoreUnavailableError extends OperatorError {
  override name = 'StoreUnavailableError';
}

export interface CounterStore {
  /**
   * Atomically add 1 to counter `key` and return the new value. When this call creates the counter, it
   * also sets the counter to expire at `expireAtMs` (epoch milliseconds), in the same atomic step.
   */
  increment(key: string, expireAtMs: number): Promise<number>;
  /**
   * Atomically add `amount` to counter `key` only if the result stays at or under `limit`: all of it or
   * nothing. Returns whether it was added and the counter's value afterwards (unchanged when refused). The
   * expiry is set as `increment` sets it. A bulk request counts each of its items this way, so a request
   * larger than what is left of the day counts nothing.
   */
  reserve(key: string, amount: number, limit: number, expireAtMs: number): Promise<Reservation>;
}

export interface Reservation {
  granted: boolean;
  /** The counter's value after the call. */
  count: number;
}

export interface KeyStore {
  /** The record whose hash is `hash`, or undefined (missing or revoked). */
  findKey(hash: string): Promise<KeyRecord | undefined>;
  addKey(record: KeyRecord): Promise<void>;
  listKeys(): Promise<KeyRecord[]>;
  /** Remove the key whose hash starts with `hashPrefix` (at least 8 hex characters, unique); false when none. */
  revokeKey(hashPrefix: string): Promise<boolean>;
}

export interface Store extends CounterStore, KeyStore {
  readonly kind: 'memory' | 'redis' | 'upstash';
  /** Resolves when the backend answers; rejects with StoreUnavailableError otherwise. Used by health. */
  ping(): Promise<void>;
  /**
   * Whether what the store held when this process first reached it is still there: false when the store
   * answers but has lost its data (a Redis restarted without persistence, or one that evicts keys), which
   * resets every daily counter and deletes every issued key. The first call leaves a marker and answers
   * true; later calls look for it. Used by health.
   */
  dataKept(): Promise<boolean>;
  close(): Promise<void>;
}
