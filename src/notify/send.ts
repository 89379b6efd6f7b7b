/**
 * Send one event body to one subscription: open its secret, sign with `standardwebhooks`, POST through the
 * address filter. Shared by the dispatcher (every delivery and retry) and the test route (a `ping`).
 */
import type { LookupFunction } from 'node:net';
import type { ReceiverAgents } from './address-filter.js';
import { type AttemptResult, postEvent } from './post.js';
import { openSecretWithAny, UNOPENED_SECRET } from './secrets.js';
import { signedHeaders } from './signing.js';
import type { SubscriptionRecord } from './subscription-schema.js';

export interface Sender {
  secretsKey: Buffer;
  /** Old keys that still open secrets during a change of key. */
  previousSecretsKeys?: readonly Buffer[];
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
  signal?: AbortSignal,
): Promise<AttemptResult> {
  const opened = openSecretWithAny(
    sender.secretsKey,
    sender.previousSecretsKeys ?? [],
    subscription.secret,
    subscription.id,
  );
  if (opened === undefined) return Promise.resolve({ ok: false, error: UNOPENED_SECRET, body: '' });
  const headers = signedHeaders(opened.secret, eventId, new Date(nowMs), body);
  return postEvent(
    new URL(subscription.url),
    body,
    { ...headers },
    {
      agents: sender.agents,
      nowMs,
      ...(signal === undefined ? {} : { signal }),
      ...(sender.timeoutMs === undefined ? {} : { timeoutMs: sender.timeoutMs }),
      ...(sender.lookup === undefined ? {} : { lookup: sender.lookup }),
    },
  );
}
