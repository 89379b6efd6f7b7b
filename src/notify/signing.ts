/**
 * The Standard Webhooks headers of one delivery, made by the `standardwebhooks` library (the one receivers
 * verify with): `webhook-id` (the event's id, the same on every retry), `webhook-timestamp` (seconds, this
 * attempt's) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of id.timestamp.body>`).
 */
import { Webhook } from 'standardwebhooks';

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export function signedHeaders(secret: string, messageId: string, at: Date, body: string): SignedHeaders {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(messageId, at, body),
  };
}
