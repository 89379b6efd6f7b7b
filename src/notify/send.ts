/**
 * Send one event body to one subscription: open its secret, sign with `standardwebhooks`, POST through the
 * address filter. Shared by the dispatcher (every delivery and retry) and the test route (a `ping`).
 */
import type { LookupFunction } from 'node:net';
import type { ReceiverAgents } from './address-filter.js';
import { type AttemptResult, postEvent } from './post.js';
import { openSecret } from './secrets.js';
import { signedHeaders } from './signing.js';
import type { SubscriptionRecord } from './subscription.js';

export interface Sender {
  secretsKey: Buffer;
  agents: ReceiverAgents;
  timeoutMs?: number;
  lookup?: LookupFunction;
}

export function sendEvent(
  sender: Sender,
  subscription: SubscriptionRecord,
  eventId: string,
  body: string,
  nowMs: number,
): Promise<AttemptResult> {
  const secret = openSecret(sender.secretsKey, subscription.secret, subscription.id);
  const headers = signedHeaders(secret, eventId, new Date(nowMs), body);
  return postEvent(
    new URL(subscription.url),
    body,
    { ...headers },
    {
      agents: sender.agents,
      nowMs,
      ...(sender.timeoutMs === undefined ? {} : { timeoutMs: sender.timeoutMs }),
      ...(sender.lookup === undefined ? {} : { lookup: sender.lookup }),
    },
  );
}
