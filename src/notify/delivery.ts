/**
 * One event on its way to one subscription: the record the store keeps (the body to send, the same on every
 * retry, and where it stands), the retry schedule, and where deliveries live in the store.
 *
 * Schedule: a failed attempt is retried after 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (each with ±10% jitter,
 * so receivers coming back are not hit in lockstep), then once more 24 h after the first attempt; then the
 * delivery has failed. A `Retry-After` longer than the next wait is honoured (still within the 24 h).
 */
import * as z from 'zod';
import { EVENT_TYPES } from './subscription-schema.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
export const RETRY_DELAYS_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR] as const;
export const RETRY_WINDOW_MS = 24 * HOUR;
const JITTER = 0.1;

export const DeliveryRecordSchema = z.strictObject({
  /** The event's id for this subscription (`webhook-id`). */
  id: z.string(),
  subscription_id: z.string(),
  type: z.enum([...EVENT_TYPES, 'ping']),
  created_at: z.string(),
  /** The exact body sent on every attempt. */
  body: z.string(),
  status: z.enum(['pending', 'delivered', 'failed', 'cancelled']),
  attempts: z.number().int().min(0),
  first_attempt_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  last_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
});
export type DeliveryRecord = z.infer<typeof DeliveryRecordSchema>;

export const deliveriesOf = (subscriptionId: string) => `deliveries:${subscriptionId}`;
/** The one queue of due attempts; a member is `<subscription id> <event id>`. */
export const DUE_QUEUE = 'deliveries';
export const queueMember = (subscriptionId: string, eventId: string) => `${subscriptionId} ${eventId}`;

export function decodeDelivery(json: string): DeliveryRecord {
  return DeliveryRecordSchema.parse(JSON.parse(json));
}

/**
 * When to try again after the attempt numbered `attempts` (1 = the first) failed at `nowMs`, or undefined
 * when the delivery has had its last attempt. `random` gives [0, 1) (injected so tests are exact).
 */
export function nextAttemptAt(
  attempts: number,
  firstAttemptMs: number,
  nowMs: number,
  retryAfterMs: number | undefined,
  random: () => number,
): number | undefined {
  const last = firstAttemptMs + RETRY_WINDOW_MS;
  if (nowMs >= last) return undefined;
  const base = RETRY_DELAYS_MS[attempts - 1];
  if (base === undefined) return last;
  const delay = Math.max(Math.round(base * (1 - JITTER + 2 * JITTER * random())), retryAfterMs ?? 0);
  return Math.min(nowMs + delay, last);
}

/** What the owner is shown of a delivery (not its body). */
export function deliveryView(record: DeliveryRecord) {
  return {
    event_id: record.id,
    type: record.type,
    status: record.status,
    attempts: record.attempts,
    last_status: record.last_status,
    last_error: record.last_error,
    created_at: record.created_at,
    next_attempt_at: record.next_attempt_at,
  };
}
