/**
 * What a subscription is: the body that asks for one, the record kept in the store (its signing secret
 * sealed), and the view its owner is shown (never the secret). One owner of this format: the routes, the
 * dispatcher and the tests read and write subscriptions through these schemas only.
 */
import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { CheckItemSchema } from '../model/check.js';
import { SealedSecretSchema } from './secrets.js';
import { EVENT_TYPES, type EventType, MAX_RECEIVER_URL_LENGTH, WEBHOOK_LIMITS } from './subscription-limits.js';

export { EVENT_TYPES, type EventType, MAX_RECEIVER_URL_LENGTH, WEBHOOK_LIMITS };

export const SubscriptionRequestSchema = z.strictObject({
  url: z
    .string({ error: 'url must be a string: the https:// address that receives the events' })
    .max(MAX_RECEIVER_URL_LENGTH, { error: `url must be at most ${MAX_RECEIVER_URL_LENGTH} characters` }),
  events: z
    .array(z.enum(EVENT_TYPES, { error: `each of events is one of ${EVENT_TYPES.join(', ')}` }))
    .min(1, { error: 'events must hold at least one event type (leave it out for all of them)' })
    .max(EVENT_TYPES.length * 2)
    .optional(),
  servers: z
    .array(CheckItemSchema)
    .min(1, { error: 'servers must hold at least one item (leave it out for every server)' })
    .max(WEBHOOK_LIMITS.maxServers, { error: `servers may hold at most ${WEBHOOK_LIMITS.maxServers} items` })
    .optional(),
  min_change: z
    .number({ error: 'min_change must be a whole number of points from 1 to 100' })
    .int({ error: 'min_change must be a whole number of points from 1 to 100' })
    .min(1, { error: 'min_change must be a whole number of points from 1 to 100' })
    .max(100, { error: 'min_change must be a whole number of points from 1 to 100' })
    .optional(),
});
export type SubscriptionRequest = z.infer<typeof SubscriptionRequestSchema>;

export const SUBSCRIPTION_ID_PATTERN = /^wh_[A-Za-z0-9_-]{16}$/;

export const SubscriptionRecordSchema = z.strictObject({
  id: z.string().regex(SUBSCRIPTION_ID_PATTERN),
  /** The SHA-256 of the key that owns it. */
  key_hash: z.string().regex(/^[0-9a-f]{64}$/),
  url: z.string().max(MAX_RECEIVER_URL_LENGTH),
  events: z.array(z.enum(EVENT_TYPES)),
  servers: z.array(CheckItemSchema).nullable(),
  min_change: z.number().int().nullable(),
  created_at: z.string(),
  secret: SealedSecretSchema,
  status: z.enum(['active', 'disabled']),
  disabled_reason: z.string().nullable(),
  disabled_at: z.string().nullable(),
  /** When the current run of failed attempts began; null after a success. */
  failing_since: z.string().nullable(),
});
export type SubscriptionRecord = z.infer<typeof SubscriptionRecordSchema>;

/** Where subscriptions live in the store: one collection per key (bounded), and who owns each id. */
export const subscriptionsOf = (keyHash: string) => `webhooks:${keyHash}`;
export const OWNERS = 'webhook-owners';

export function newSubscriptionId(): string {
  return `wh_${randomBytes(12).toString('base64url')}`;
}

/** A stored record, checked on the way out (the store is shared state). */
export function decodeSubscription(json: string): SubscriptionRecord {
  return SubscriptionRecordSchema.parse(JSON.parse(json));
}

/** What the owner is shown: everything but the key's hash and the secret. */
export function subscriptionView(record: SubscriptionRecord) {
  return {
    id: record.id,
    url: record.url,
    events: record.events,
    servers: record.servers,
    min_change: record.min_change,
    status: record.status,
    disabled_reason: record.disabled_reason,
    disabled_at: record.disabled_at,
    failing_since: record.failing_since,
    created_at: record.created_at,
  };
}
export type SubscriptionView = ReturnType<typeof subscriptionView>;

/** The view as the API documents it (OpenAPI components are made from these). */
export const SubscriptionViewSchema = z.strictObject({
  id: z.string().regex(SUBSCRIPTION_ID_PATTERN),
  url: z.string(),
  events: z.array(z.enum(EVENT_TYPES)),
  servers: z.array(CheckItemSchema).nullable(),
  min_change: z.number().int().nullable(),
  status: z.enum(['active', 'disabled']),
  disabled_reason: z.string().nullable(),
  disabled_at: z.string().nullable(),
  failing_since: z.string().nullable(),
  created_at: z.string(),
});

export const SubscriptionCreatedSchema = SubscriptionViewSchema.extend({
  secret: z.string().regex(/^whsec_[A-Za-z0-9+/]+=*$/),
});

export const DeliveryViewSchema = z.strictObject({
  event_id: z.string(),
  type: z.enum([...EVENT_TYPES, 'ping']),
  status: z.enum(['pending', 'delivered', 'failed', 'cancelled']),
  attempts: z.number().int().min(0),
  last_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  next_attempt_at: z.string().nullable(),
});

export const SubscriptionDetailSchema = SubscriptionViewSchema.extend({
  deliveries: z.array(DeliveryViewSchema).max(WEBHOOK_LIMITS.deliveriesShown),
});

export const PingResultSchema = z.strictObject({
  event_id: z.string(),
  delivered: z.boolean(),
  status: z.number().int().nullable(),
  error: z.string().nullable(),
  body: z.string(),
});
