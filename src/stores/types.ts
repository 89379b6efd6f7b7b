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

/**
 * What notifications keep (`src/notify/`): named collections of JSON text records, leases that one instance
 * holds at a time, and queues of members due at a time. Names are the caller's; a backend files them under
 * its own prefix. Every write that needs a condition checks it in the same atomic step as the write.
 */
export interface NotifyStore {
  /** The record `id` of `collection`, or undefined. */
  recordGet(collection: string, id: string): Promise<string | undefined>;
  /** Every record of `collection`, in no particular order. */
  recordList(collection: string): Promise<string[]>;
  /**
   * Write record `id` when `when` allows it (`always`, only when `absent`, only when `present`) and, for a new
   * record, when the collection holds fewer than `maxSize` records (0: no bound). Returns whether it wrote.
   */
  recordPut(
    collection: string,
    id: string,
    value: string,
    when?: RecordPutCondition,
    maxSize?: number,
  ): Promise<boolean>;
  /**
   * `recordPut` (no size bound) and, in the same atomic step and only when it wrote, `member` of `queue` put
   * due at `dueAtMs`, or taken out when `dueAtMs` is null. One command where a delivery needs two.
   */
  recordPutQueued(
    collection: string,
    id: string,
    value: string,
    when: RecordPutCondition,
    queue: string,
    member: string,
    dueAtMs: number | null,
  ): Promise<boolean>;
  /** Remove record `id`; whether it was there. */
  recordDelete(collection: string, id: string): Promise<boolean>;
  /**
   * Take lease `name` for `owner` for `ttlMs`, or renew it when `owner` already holds it. False while another
   * owner holds it; a lease nobody renews ends by itself after `ttlMs`.
   */
  leaseAcquire(name: string, owner: string, ttlMs: number): Promise<boolean>;
  /** End lease `name` if `owner` holds it (never another owner's). */
  leaseRelease(name: string, owner: string): Promise<void>;
  /** Put `member` in `queue`, due at `dueAtMs` (epoch ms); an existing member moves to the new time. */
  queueAdd(queue: string, member: string, dueAtMs: number): Promise<void>;
  /** Up to `limit` members of `queue` due at or before `nowMs`, soonest first (they stay queued). */
  queueDue(queue: string, nowMs: number, limit: number): Promise<string[]>;
  /** Take `member` out of `queue`. */
  queueRemove(queue: string, member: string): Promise<void>;
}

export type RecordPutCondition = 'always' | 'absent' | 'present';

/**
 * The identifiers (packages, remote URLs) that lookups and checks asked about and the snapshot did not know,
 * tallied per UTC day so the night can look for them (`src/gateway/unknown-counter.ts`). Nothing of the
 * request but the identifier is kept. A day's tally is bounded: past `maxMembers` distinct identifiers a new
 * one is refused (the ones already there still count), so a caller naming endless made-up packages cannot
 * grow it without bound.
 */
export interface UnknownIdentifierStore {
  /**
   * Add 1 to each of `identifiers` in the tally of `day` (`YYYY-MM-DD`), in one atomic step; an identifier
   * not yet in it is refused once it holds `maxMembers`. The tally expires at `expireAtMs` (epoch ms), set
   * when it has no expiry yet. Returns how many of `identifiers` were counted.
   */
  countUnknown(day: string, identifiers: readonly string[], maxMembers: number, expireAtMs: number): Promise<number>;
  /** The `limit` identifiers counted most over `days` (their counts summed), most first, ties by identifier. */
  topUnknown(days: readonly string[], limit: number): Promise<UnknownTally[]>;
}

export interface UnknownTally {
  identifier: string;
  count: number;
}

export interface Store extends CounterStore, KeyStore, NotifyStore, UnknownIdentifierStore {
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
