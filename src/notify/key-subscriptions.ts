/**
 * The subscriptions of a key: make one (the url's rules and address checked, the secret made, sealed and
 * shown once), list them, show one with its last deliveries, delete one, send it a `ping`. A key reaches only
 * its own: every lookup goes through the key's own collection, so another key's id is simply not found.
 */
import { randomBytes } from 'node:crypto';
import type { QueryEngine } from '../query/types.js';
import type { NotifyStore } from '../stores/types.js';
import { namesIn, RESOLVED_NAMES, resolvedBefore, resolvesItems } from './watched.js';
import { checkReceiverAddress, checkReceiverUrl, type Lookup } from './address-filter.js';
import { decodeDelivery, deliveriesOf, deliveryView } from './delivery.js';
import { WebhookError } from './errors.js';
import { newSigningSecret, sealSecret } from './secrets.js';
import { type Sender, sendEvent } from './send.js';
import {
  decodeSubscription,
  EVENT_TYPES,
  newSubscriptionId,
  OWNERS,
  SUBSCRIPTION_ID_PATTERN,
  type SubscriptionRecord,
  type SubscriptionRequest,
  subscriptionsOf,
  subscriptionView,
  WEBHOOK_LIMITS,
} from './subscription-schema.js';

export interface SubscriptionsDeps {
  store: NotifyStore;
  sender: Sender;
  allowHttp: boolean;
  allowPrivate: boolean;
  /** The DNS lookup of the subscription-time check; default the system's. */
  lookup?: Lookup;
  now?: () => number;
}

export type Subscriptions = ReturnType<typeof createSubscriptions>;

const notFound = (id: string) =>
  new WebhookError('not_found', `No webhook subscription ${JSON.stringify(id.slice(0, 40))} belongs to this key`);

/**
 * Deletes subscription `id` of the key `keyHash` with what belongs to it; false when the key has none of that
 * id. Its queued deliveries are dropped by the dispatcher when it meets them (their subscription is gone).
 */
export async function deleteSubscription(store: NotifyStore, keyHash: string, id: string): Promise<boolean> {
  if (!(await store.recordDelete(subscriptionsOf(keyHash), id))) return false;
  await store.recordDelete(OWNERS, id);
  await store.recordDelete(RESOLVED_NAMES, id);
  for (const json of await store.recordList(deliveriesOf(id)))
    await store.recordDelete(deliveriesOf(id), decodeDelivery(json).id);
  return true;
}

/** Every subscription of the key `keyHash`, oldest first (for the operator's `npm run keys -- webhooks`). */
export async function subscriptionsOfKey(store: NotifyStore, keyHash: string): Promise<SubscriptionRecord[]> {
  return (await store.recordList(subscriptionsOf(keyHash)))
    .map(decodeSubscription)
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
}

/** Deletes every subscription of the key `keyHash` (when the key is revoked); how many there were. */
export async function deleteSubscriptionsOfKey(store: NotifyStore, keyHash: string): Promise<number> {
  let deleted = 0;
  for (const record of await subscriptionsOfKey(store, keyHash))
    if (await deleteSubscription(store, keyHash, record.id)) deleted++;
  return deleted;
}

export function createSubscriptions(deps: SubscriptionsDeps) {
  const now = deps.now ?? Date.now;
  const { store } = deps;

  async function find(keyHash: string, id: string): Promise<SubscriptionRecord> {
    if (!SUBSCRIPTION_ID_PATTERN.test(id)) throw notFound(id);
    const json = await store.recordGet(subscriptionsOf(keyHash), id);
    if (json === undefined) throw notFound(id);
    return decodeSubscription(json);
  }

  return {
    /** `engine`: the snapshot served now, which its packages and URLs are first resolved against. */
    async create(keyHash: string, request: SubscriptionRequest, engine?: QueryEngine) {
      const url = checkReceiverUrl(request.url, deps);
      await checkReceiverAddress(url, deps.allowPrivate, deps.lookup);
      const id = newSubscriptionId();
      const secret = newSigningSecret();
      const record: SubscriptionRecord = {
        id,
        key_hash: keyHash,
        url: url.href,
        events:
          request.events === undefined
            ? [...EVENT_TYPES]
            : EVENT_TYPES.filter((type) => request.events!.includes(type)),
        servers: request.servers ?? null,
        min_change: request.min_change ?? null,
        created_at: new Date(now()).toISOString(),
        secret: sealSecret(deps.sender.secretsKey, secret, id),
        status: 'active',
        disabled_reason: null,
        disabled_at: null,
        failing_since: null,
      };
      // The owner first: a subscription the dispatcher can find is one whose owner is known.
      await store.recordPut(OWNERS, id, keyHash);
      const added = await store.recordPut(
        subscriptionsOf(keyHash),
        id,
        JSON.stringify(record),
        'absent',
        WEBHOOK_LIMITS.perKey,
      );
      if (!added) {
        await store.recordDelete(OWNERS, id);
        throw new WebhookError(
          'limit',
          `This key already has ${WEBHOOK_LIMITS.perKey} webhook subscriptions, the most it may have; delete one first`,
        );
      }
      if (engine !== undefined && record.servers !== null && resolvesItems(record.servers)) {
        await engine.ready('lookup');
        await resolvedBefore(store, id, engine.snapshot.id, namesIn(engine, record.servers));
      }
      return { ...subscriptionView(record), secret };
    },

    async list(keyHash: string) {
      return (await subscriptionsOfKey(store, keyHash)).map(subscriptionView);
    },

    async get(keyHash: string, id: string) {
      const record = await find(keyHash, id);
      const deliveries = (await store.recordList(deliveriesOf(id))).map(decodeDelivery);
      deliveries.sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
      return {
        ...subscriptionView(record),
        deliveries: deliveries.slice(0, WEBHOOK_LIMITS.deliveriesShown).map(deliveryView),
      };
    },

    async remove(keyHash: string, id: string): Promise<void> {
      if (!SUBSCRIPTION_ID_PATTERN.test(id) || !(await deleteSubscription(store, keyHash, id))) throw notFound(id);
    },

    /** Sends a `ping` event now, once, and says what the receiver answered. */
    async ping(keyHash: string, id: string) {
      const record = await find(keyHash, id);
      const nowMs = now();
      const eventId = `msg_ping_${randomBytes(9).toString('base64url')}`;
      const body = JSON.stringify({
        type: 'ping',
        timestamp: new Date(nowMs).toISOString(),
        data: { subscription_id: record.id },
      });
      const result = await sendEvent(deps.sender, record, eventId, body, nowMs);
      return {
        event_id: eventId,
        delivered: result.ok,
        status: result.status ?? null,
        error: result.error ?? null,
        body: result.body,
      };
    },
  };
}
