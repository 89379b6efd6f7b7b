/**
 * The dispatcher: one run fans out the served snapshot's events (once per snapshot) and makes every attempt
 * that is due, retries included. Whatever triggers it (`npm start`'s timer, `npm run notify`, the platform's
 * cron), exactly one instance works at a time: a run first takes the `dispatch` lease in the store and
 * renews it between batches; another instance's run finds it held and does nothing. All state is in the
 * store (deliveries, the queue, the subscriptions), so a restart or another instance carries on where a run
 * stopped. A delivery is marked delivered as soon as its receiver answers 2xx, before anything else is sent;
 * the only way an event reaches a receiver twice is a crash between that answer and that write.
 *
 * Fair scheduling: `concurrency` slots are shared among the subscriptions that have due attempts, each
 * holding at most its share at once (the slots divided by the subscriptions waiting, at least one), taken in
 * turn. An attempt still unanswered after `slowAfterMs` gives its slot back and finishes outside the slots
 * (at most `concurrency * 4` such attempts at once), so receivers that hang hold no slot for long; and once a
 * subscription's attempt has failed in a run, its other due events wait for that attempt's retry time rather
 * than being tried, each, against the same failing receiver.
 *
 * `stop(graceMs)` starts no attempt more and interrupts those under way after `graceMs`: an interrupted
 * attempt is not counted and its event stays due, for the next run (a receiver may then get it twice: dedupe
 * on `webhook-id`).
 *
 * The clock (`now`) and the jitter (`random`) are injected, so tests run a day of retries without waiting.
 */
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { QueryEngine } from '../query/types.js';
import type { NotifyStore } from '../stores/types.js';
import {
  decodeDelivery,
  deliveriesOf,
  type DeliveryRecord,
  DUE_QUEUE,
  nextAttemptAt,
  RETRY_WINDOW_MS,
} from './delivery.js';
import { type AttemptOutcome, deliverDueFairly } from './fair-schedule.js';
import { fanOut, type FanOutReport } from './fan-out.js';
import type { AttemptResult } from './post.js';
import { type Sender, sendEvent } from './send.js';
import {
  decodeSubscription,
  OWNERS,
  type SubscriptionRecord,
  subscriptionsOf,
  WEBHOOK_LIMITS,
} from './subscription-schema.js';

export const DISPATCH_LEASE = 'dispatch';
const LEASE_MS = 60_000;
const DEFAULT_CONCURRENCY = 16;
/** How long an attempt holds a slot before it finishes outside the slots. */
const DEFAULT_SLOW_AFTER_MS = 1000;
/** Due attempts read from the queue at once, per attempt in flight. */
const PAGE_PER_WORKER = 16;

export interface DispatcherDeps {
  store: NotifyStore;
  /**
   * Whether the key whose hash is given is still valid (issued and not revoked). Asked once per owner per run,
   * before the first delivery of its subscriptions: a revoked key's subscriptions are disabled, never sent.
   */
  ownerValid: (keyHash: string) => Promise<boolean>;
  sender: Sender;
  /** The service's address as receivers see it (record links). */
  baseUrl: string;
  now?: () => number;
  random?: () => number;
  /** This instance's name on the lease; default a random id. */
  owner?: string;
  /** Delivery slots: attempts made at once, shared fairly among subscriptions. */
  concurrency?: number;
  /** How long an attempt holds its slot before it gives it back and finishes outside the slots. */
  slowAfterMs?: number;
  /** One line per notable thing (never a URL or a secret). Default: none. */
  log?: (line: string) => void;
}

export interface RunReport {
  /** False when another instance held the lease: this run did nothing. */
  ran: boolean;
  fanOut?: FanOutReport;
  attempts: number;
  delivered: number;
  retrying: number;
  failed: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function createDispatcher(deps: DispatcherDeps) {
  const { store, sender } = deps;
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const owner = deps.owner ?? randomUUID();
  const concurrency = deps.concurrency ?? DEFAULT_CONCURRENCY;
  const slowAfterMs = deps.slowAfterMs ?? DEFAULT_SLOW_AFTER_MS;
  /** Set by `stop`: no attempt starts, and those under way are interrupted after the grace. */
  const stopping = new AbortController();
  // Every attempt under way listens for the stop.
  setMaxListeners(0, stopping.signal);
  let stopRequested = false;
  const log = deps.log ?? (() => undefined);

  /** Subscriptions read during one run, by id (undefined: gone). */
  type Cache = Map<string, SubscriptionRecord | undefined>;
  /** Whether each owner's key was valid, asked once per run. */
  const owners = new Map<string, Promise<boolean>>();
  const ownerValid = (keyHash: string) => {
    let valid = owners.get(keyHash);
    if (valid === undefined) owners.set(keyHash, (valid = deps.ownerValid(keyHash)));
    return valid;
  };

  async function subscriptionOf(cache: Cache, id: string): Promise<SubscriptionRecord | undefined> {
    if (cache.has(id)) return cache.get(id);
    const keyHash = await store.recordGet(OWNERS, id);
    const json = keyHash === undefined ? undefined : await store.recordGet(subscriptionsOf(keyHash), id);
    const record = json === undefined ? undefined : decodeSubscription(json);
    cache.set(id, record);
    return record;
  }

  /** Writes a changed subscription back, unless it was deleted meanwhile. */
  async function saveSubscription(cache: Cache, record: SubscriptionRecord): Promise<void> {
    cache.set(record.id, record);
    await store.recordPut(subscriptionsOf(record.key_hash), record.id, JSON.stringify(record), 'present');
  }

  async function disable(cache: Cache, record: SubscriptionRecord, nowMs: number, reason: string): Promise<void> {
    await saveSubscription(cache, { ...record, status: 'disabled', disabled_at: iso(nowMs), disabled_reason: reason });
    log(`notify: subscription ${record.id} disabled: ${reason}`);
  }

  /** Writes the finished delivery and takes it out of the queue, in one store command. */
  async function finish(member: string, delivery: DeliveryRecord): Promise<void> {
    const collection = deliveriesOf(delivery.subscription_id);
    const json = JSON.stringify(delivery);
    if (!(await store.recordPutQueued(collection, delivery.id, json, 'present', DUE_QUEUE, member, null)))
      await store.queueRemove(DUE_QUEUE, member);
  }

  /** One due member of the queue: attempt it and record what happened. */
  async function attempt(cache: Cache, member: string, report: RunReport): Promise<AttemptOutcome> {
    const [subscriptionId = '', eventId = ''] = member.split(' ');
    const subscription = await subscriptionOf(cache, subscriptionId);
    const json = subscription === undefined ? undefined : await store.recordGet(deliveriesOf(subscriptionId), eventId);
    if (subscription === undefined || json === undefined) {
      await store.queueRemove(DUE_QUEUE, member);
      return {};
    }
    const delivery = decodeDelivery(json);
    if (delivery.status !== 'pending') {
      await store.queueRemove(DUE_QUEUE, member);
      return {};
    }
    if (subscription.status === 'disabled') {
      await finish(member, {
        ...delivery,
        status: 'cancelled',
        next_attempt_at: null,
        last_error: 'subscription disabled',
      });
      return {};
    }
    if (!(await ownerValid(subscription.key_hash))) {
      await finish(member, { ...delivery, status: 'cancelled', next_attempt_at: null, last_error: 'key revoked' });
      await disable(cache, subscription, now(), `its API key was revoked (found at ${iso(now())})`);
      return {};
    }
    const nowMs = now();
    let result: AttemptResult;
    try {
      result = await sendEvent(sender, subscription, delivery.id, delivery.body, nowMs, stopping.signal);
    } catch (error) {
      result = { ok: false, body: '', error: error instanceof Error ? error.message : String(error) };
    }
    // Interrupted by `stop`: not an attempt; the event stays due for the next run.
    if (result.interrupted === true) return {};
    report.attempts++;
    const firstMs = delivery.first_attempt_at === null ? nowMs : Date.parse(delivery.first_attempt_at);
    const tried: DeliveryRecord = {
      ...delivery,
      attempts: delivery.attempts + 1,
      first_attempt_at: iso(firstMs),
      last_status: result.status ?? null,
      last_error: result.error ?? null,
    };
    if (result.ok) {
      report.delivered++;
      await finish(member, { ...tried, status: 'delivered', next_attempt_at: null });
      if (subscription.failing_since !== null) await saveSubscription(cache, { ...subscription, failing_since: null });
      return {};
    }
    if (result.status === 410) {
      report.failed++;
      await finish(member, { ...tried, status: 'failed', next_attempt_at: null });
      await disable(cache, subscription, nowMs, `the receiver answered 410 Gone at ${iso(nowMs)}`);
      return {};
    }
    const failingSince = subscription.failing_since ?? iso(nowMs);
    if (nowMs - Date.parse(failingSince) >= RETRY_WINDOW_MS) {
      report.failed++;
      await finish(member, { ...tried, status: 'failed', next_attempt_at: null });
      await disable(
        cache,
        subscription,
        nowMs,
        `every delivery failed for 24 hours, since ${failingSince}; the last ${result.error ?? 'failed'}`,
      );
      return {};
    }
    if (subscription.failing_since === null)
      await saveSubscription(cache, { ...subscription, failing_since: failingSince });
    const next = nextAttemptAt(tried.attempts, firstMs, nowMs, result.retryAfterMs, random);
    if (next === undefined) {
      report.failed++;
      await finish(member, { ...tried, status: 'failed', next_attempt_at: null });
      return {};
    }
    report.retrying++;
    const retry = JSON.stringify({ ...tried, next_attempt_at: iso(next) });
    await store.recordPutQueued(deliveriesOf(subscriptionId), delivery.id, retry, 'present', DUE_QUEUE, member, next);
    return { retryAt: next };
  }

  /** Keeps the last deliveries a subscription shows and every unfinished one; older finished ones go. */
  async function prune(subscriptionId: string): Promise<void> {
    const collection = deliveriesOf(subscriptionId);
    const finished = (await store.recordList(collection))
      .map(decodeDelivery)
      .filter((delivery) => delivery.status !== 'pending')
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
    for (const old of finished.slice(WEBHOOK_LIMITS.deliveriesShown)) await store.recordDelete(collection, old.id);
  }

  return {
    owner,
    /**
     * Starts no attempt more; attempts under way get `graceMs`, then are interrupted (their events stay due).
     * The run in progress then ends as soon as its store writes are done.
     */
    stop(graceMs: number): void {
      stopRequested = true;
      setTimeout(() => stopping.abort(), graceMs).unref();
    },
    /** One run: fan out `engine`'s snapshot when given and not done yet, then every due attempt. */
    async run(engine?: QueryEngine): Promise<RunReport> {
      const report: RunReport = { ran: false, attempts: 0, delivered: 0, retrying: 0, failed: 0 };
      if (!(await store.leaseAcquire(DISPATCH_LEASE, owner, LEASE_MS))) return report;
      report.ran = true;
      const cache: Cache = new Map();
      owners.clear();
      try {
        if (engine !== undefined) {
          report.fanOut = await fanOut(store, engine, deps.baseUrl, now());
          if (report.fanOut.queued > 0) {
            log(
              `notify: snapshot ${report.fanOut.snapshotId.slice(0, 12)}: ${report.fanOut.events} events, ${report.fanOut.queued} deliveries queued`,
            );
          }
        }
        // Pages of due attempts, `concurrency` of them in flight at any time; the lease is renewed on a timer
        // meanwhile, and a lease lost (another instance took over after a stall) stops this run.
        let lost = false;
        const renewal = setInterval(() => {
          store.leaseAcquire(DISPATCH_LEASE, owner, LEASE_MS).then(
            (held) => (lost ||= !held),
            () => (lost = true),
          );
        }, LEASE_MS / 3);
        try {
          await deliverDueFairly({
            store,
            now,
            concurrency,
            slowAfterMs,
            pageSize: concurrency * PAGE_PER_WORKER,
            attempt: (member) => attempt(cache, member, report),
            stopped: () => lost || stopRequested,
          });
        } finally {
          clearInterval(renewal);
        }
        for (const id of cache.keys()) await prune(id);
      } finally {
        await store.leaseRelease(DISPATCH_LEASE, owner);
      }
      if (report.attempts > 0) {
        log(
          `notify: ${report.attempts} attempts: ${report.delivered} delivered, ${report.retrying} to retry, ${report.failed} failed`,
        );
      }
      return report;
    },
  };
}
export type Dispatcher = ReturnType<typeof createDispatcher>;
