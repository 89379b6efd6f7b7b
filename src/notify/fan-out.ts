/**
 * Fan-out: the events of the snapshot being served, matched against every active subscription, each match
 * written as a pending delivery and queued. Idempotent: an event's id for a subscription is derived from
 * both, and a delivery is written only when absent, so running it again after a crash queues what was
 * missing and never resets (or re-sends) a delivery already made. When it has run through, the snapshot is
 * marked notified and is never fanned out again.
 */
import { createHash } from 'node:crypto';
import type { QueryEngine } from '../query/types.js';
import type { NotifyStore } from '../stores/types.js';
import { deliveriesOf, type DeliveryRecord, DUE_QUEUE, queueMember } from './delivery.js';
import { type ChangeEvent, snapshotEvents } from './events.js';
import { namesIn, resolvedBefore, resolvesItems } from './watched.js';
import { decodeSubscription, OWNERS, type SubscriptionRecord, subscriptionsOf } from './subscription-schema.js';

/** Snapshot id → when its events were fanned out (and how many). */
export const NOTIFIED_SNAPSHOTS = 'notified-snapshots';

export interface FanOutReport {
  snapshotId: string;
  /** Why nothing was fanned out, when nothing was. */
  skipped?: 'already notified' | 'no earlier snapshot in its history';
  events: number;
  queued: number;
}

/** Every subscription of every key, active or not. */
export async function allSubscriptions(store: NotifyStore): Promise<SubscriptionRecord[]> {
  const owners = new Set(await store.recordList(OWNERS));
  const records: SubscriptionRecord[] = [];
  for (const keyHash of owners) {
    for (const json of await store.recordList(subscriptionsOf(keyHash))) records.push(decodeSubscription(json));
  }
  return records;
}

/**
 * The lower-cased names a subscription watches for this snapshot's events; undefined: every server. A name
 * stays watched after its server left (its `server.removed` is the news); a package's or URL's server is
 * watched for `server.removed` too when the last resolution found it (`watched.ts`).
 */
interface Watched {
  now: Set<string>;
  removed: Set<string>;
}

function matches(subscription: SubscriptionRecord, watched: Watched | undefined, event: ChangeEvent): boolean {
  if (!subscription.events.includes(event.type)) return false;
  const names = event.type === 'server.removed' ? watched?.removed : watched?.now;
  if (names !== undefined && !names.has(event.server.toLowerCase())) return false;
  return !(
    event.type === 'score.changed' &&
    subscription.min_change !== null &&
    event.scoreMove < subscription.min_change
  );
}
/** The event's id for one subscription: the same whoever computes it, so a second fan-out finds it. */
export function eventId(subscriptionId: string, snapshotId: string, event: ChangeEvent): string {
  const digest = createHash('sha256')
    .update(`${subscriptionId}\n${snapshotId}\n${event.type}\n${event.server.toLowerCase()}`)
    .digest('base64url');
  return `msg_${digest.slice(0, 27)}`;
}

export async function fanOut(
  store: NotifyStore,
  engine: QueryEngine,
  baseUrl: string,
  nowMs: number,
): Promise<FanOutReport> {
  const snapshotId = engine.snapshot.id;
  if ((await store.recordGet(NOTIFIED_SNAPSHOTS, snapshotId)) !== undefined) {
    return { snapshotId, skipped: 'already notified', events: 0, queued: 0 };
  }
  await engine.ready('history');
  const history = engine.history();
  const found = history === undefined ? undefined : snapshotEvents(history, baseUrl);
  const mark = (report: FanOutReport) =>
    store.recordPut(NOTIFIED_SNAPSHOTS, snapshotId, JSON.stringify({ at: new Date(nowMs).toISOString(), ...report }));
  if (found === undefined || found.after.snapshot_id !== snapshotId) {
    const report: FanOutReport = { snapshotId, skipped: 'no earlier snapshot in its history', events: 0, queued: 0 };
    await mark(report);
    return report;
  }
  const subscriptions = (await allSubscriptions(store)).filter((subscription) => subscription.status === 'active');
  if (subscriptions.some((subscription) => subscription.servers?.some((item) => typeof item !== 'string'))) {
    await engine.ready('lookup');
  }
  let queued = 0;
  const createdAt = new Date(nowMs).toISOString();
  for (const subscription of subscriptions) {
    let watched: Watched | undefined;
    if (subscription.servers !== null) {
      const now = namesIn(engine, subscription.servers);
      watched = { now, removed: now };
      if (resolvesItems(subscription.servers)) {
        watched.removed = new Set([...now, ...(await resolvedBefore(store, subscription.id, snapshotId, now))]);
      }
    }
    for (const event of found.events) {
      if (!matches(subscription, watched, event)) continue;
      const id = eventId(subscription.id, snapshotId, event);
      const delivery: DeliveryRecord = {
        id,
        subscription_id: subscription.id,
        type: event.type,
        created_at: createdAt,
        body: JSON.stringify({ type: event.type, timestamp: found.after.generated_at, data: event.data }),
        status: 'pending',
        attempts: 0,
        first_attempt_at: null,
        next_attempt_at: createdAt,
        last_status: null,
        last_error: null,
      };
      const collection = deliveriesOf(subscription.id);
      const member = queueMember(subscription.id, id);
      // Written and queued in one step when new; an existing one never attempted (a crash of an older version
      // between its write and its queueing) is queued again.
      if (await store.recordPutQueued(collection, id, JSON.stringify(delivery), 'absent', DUE_QUEUE, member, nowMs)) {
        queued++;
        continue;
      }
      const existing = await store.recordGet(collection, id);
      if (existing !== undefined && (JSON.parse(existing) as DeliveryRecord).attempts === 0) {
        await store.queueAdd(DUE_QUEUE, member, nowMs);
        queued++;
      }
    }
  }
  const report = { snapshotId, events: found.events.length, queued };
  await mark(report);
  return report;
}
