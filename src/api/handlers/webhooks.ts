/**
 * Webhooks (`/v1/webhooks`, keyed): a key's subscriptions to score-change notifications, made, listed, shown,
 * deleted and tested through `src/notify/key-subscriptions.ts`. Every answer is live (never cached) and belongs to
 * the key that asked; another key's subscription is a 404. Without `WEBHOOK_SECRETS_KEY` every one of these
 * routes is a 503 that says what to set, and nothing else in the service changes.
 */
import { WebhookError } from '../../notify/errors.js';
import type { SubscriptionRequest } from '../../notify/subscription-schema.js';
import type { Subscriptions } from '../../notify/key-subscriptions.js';
import { ApiError, type ErrorCode } from '../errors.js';
import { assertNoParams } from '../params.js';
import type { Answer, HandlerContext } from '../route.js';

const REFUSAL_CODES: Record<WebhookError['refusal'], ErrorCode> = {
  invalid: 'invalid_body',
  address: 'address_not_allowed',
  limit: 'too_many_webhooks',
  not_found: 'webhook_not_found',
  not_configured: 'webhooks_not_configured',
};

function configured(context: HandlerContext): { webhooks: Subscriptions; keyHash: string } {
  assertNoParams(context.query);
  if (context.webhooks === undefined || context.keyHash === undefined) {
    throw new ApiError(
      'webhooks_not_configured',
      'Webhooks are not turned on here: the operator must set WEBHOOK_SECRETS_KEY (32 bytes, for example from `openssl rand -base64 32`), which encrypts the signing secrets',
    );
  }
  return { webhooks: context.webhooks, keyHash: context.keyHash };
}

/** Runs `work`, turning a refusal of `src/notify/` into the API's error. */
async function answering(work: () => Promise<Answer>): Promise<Answer> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof WebhookError) throw new ApiError(REFUSAL_CODES[error.refusal], error.message);
    throw error;
  }
}

const live = (value: unknown, status?: number): Answer => ({ kind: 'live', value, ...(status === undefined ? {} : { status }) });
const idOf = (context: HandlerContext) => decodeURIComponent(context.pathParams.id ?? '');

export function createWebhook(context: HandlerContext): Promise<Answer> {
  const { webhooks, keyHash } = configured(context);
  return answering(async () => live(await webhooks.create(keyHash, context.body as SubscriptionRequest, context.engine), 201));
}

export function listWebhooks(context: HandlerContext): Promise<Answer> {
  const { webhooks, keyHash } = configured(context);
  return answering(async () => live(await webhooks.list(keyHash)));
}

export function getWebhook(context: HandlerContext): Promise<Answer> {
  const { webhooks, keyHash } = configured(context);
  return answering(async () => live(await webhooks.get(keyHash, idOf(context))));
}

export function deleteWebhook(context: HandlerContext): Promise<Answer> {
  const { webhooks, keyHash } = configured(context);
  return answering(async () => {
    await webhooks.remove(keyHash, idOf(context));
    return { kind: 'empty' };
  });
}

export function testWebhook(context: HandlerContext): Promise<Answer> {
  const { webhooks, keyHash } = configured(context);
  return answering(async () => live(await webhooks.ping(keyHash, idOf(context))));
}
