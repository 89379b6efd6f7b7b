/**
 * What a webhook request can be refused for, as a value the route's handler turns into the API's error
 * (`src/api/handlers/webhooks.ts`): notifications know nothing of HTTP answers.
 */
export type WebhookRefusal =
  /** The body breaks a rule (400). */
  | 'invalid'
  /** The receiver's address is on a network the service must not reach (400, naming the rule). */
  | 'address'
  /** The key already has the most subscriptions it may have (400). */
  | 'limit'
  /** No subscription of this key has that id (404). */
  | 'not_found'
  /** `WEBHOOK_SECRETS_KEY` is not set (503). */
  | 'not_configured';

export class WebhookError extends Error {
  override name = 'WebhookError';
  constructor(
    readonly refusal: WebhookRefusal,
    message: string,
  ) {
    super(message);
  }
}
