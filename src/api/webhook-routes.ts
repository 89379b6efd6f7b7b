/**
 * The rows of the route table (`routes.ts`) for webhook subscriptions (`/v1/webhooks`): keyed, counted like
 * any request, answered live (never cached). One path may answer two methods (GET and POST `/v1/webhooks`,
 * GET and DELETE `/v1/webhooks/{id}`): each method is its own row.
 */
import * as z from 'zod';
import { EVENT_TYPES, WEBHOOK_LIMITS } from '../notify/subscription-limits.js';
import { createWebhook, deleteWebhook, getWebhook, listWebhooks, testWebhook } from './handlers/webhooks.js';
import { ROUTE_PATHS } from './paths.js';
import type { Route } from './route.js';

const WEBHOOK_PATH = {
  schema: z.strictObject({ id: z.string() }),
  descriptions: { id: 'The subscription id (`wh_...`) from Create Webhook.' },
};

const OFF = 'Without `WEBHOOK_SECRETS_KEY` set by the operator, every webhook route answers 503 `webhooks_not_configured`.';

export const WEBHOOK_ROUTES: readonly Route[] = [
  {
    id: 'webhookCreate',
    path: ROUTE_PATHS.webhookCreate,
    method: 'POST',
    keyed: true,
    listedAs: 'POST /v1/webhooks',
    handler: createWebhook,
    // Loaded on the first subscription asked for: its schema takes in Policy Check's item schema.
    body: { schema: async () => (await import('../notify/subscription-schema.js')).SubscriptionRequestSchema, cost: () => 1 },
    doc: {
      operationId: 'createWebhook',
      summary: 'Create Webhook',
      description: `Subscribe a receiver to score-change notifications. \`url\`: \`https://\`, at most 2,000 characters, no user info, on the public internet (an address on a private, loopback, link-local, unique-local, multicast or cloud-metadata network is a 400 \`address_not_allowed\` naming the rule). \`events\`: any of ${EVENT_TYPES.map((type) => `\`${type}\``).join(', ')} (default all). \`servers\` (optional, up to ${WEBHOOK_LIMITS.maxServers}): items as Policy Check takes them (a name, \`{"package": ...}\` or \`{"url": ...}\`), resolved when each snapshot is delivered; none means every server. \`min_change\`: ignore score moves smaller than this many points. At most ${WEBHOOK_LIMITS.perKey} subscriptions per key (the next is a 400 \`too_many_webhooks\`). The answer holds the signing secret (\`whsec_...\`), shown this once and never again; deliveries are signed with it as Standard Webhooks says (\`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\`). ${OFF}`,
      tag: 'Webhooks',
      body: 'WebhookCreatedResponse',
      successStatus: 201,
      live: true,
      extraErrors: ['ServiceUnavailable'],
    },
  },
  {
    id: 'webhookList',
    path: ROUTE_PATHS.webhookList,
    keyed: true,
    listedAs: 'GET /v1/webhooks',
    handler: listWebhooks,
    doc: {
      operationId: 'listWebhooks',
      summary: 'List Webhooks',
      description: `The key's subscriptions, oldest first, without their secrets. ${OFF}`,
      tag: 'Webhooks',
      body: 'WebhookListResponse',
      live: true,
      extraErrors: ['ServiceUnavailable'],
    },
  },
  {
    id: 'webhookGet',
    path: ROUTE_PATHS.webhookGet,
    keyed: true,
    handler: getWebhook,
    doc: {
      operationId: 'getWebhook',
      summary: 'Get Webhook',
      description: `One subscription of the key, with its last ${WEBHOOK_LIMITS.deliveriesShown} deliveries (event id, status, attempts, last error). A subscription that was disabled (its receiver answered 410, or every delivery failed for 24 hours) says why and when. Another key's id is a 404 \`webhook_not_found\`. ${OFF}`,
      tag: 'Webhooks',
      body: 'WebhookResponse',
      path: WEBHOOK_PATH,
      notFound: true,
      live: true,
      extraErrors: ['ServiceUnavailable'],
    },
  },
  {
    id: 'webhookDelete',
    path: ROUTE_PATHS.webhookDelete,
    method: 'DELETE',
    keyed: true,
    listedAs: 'DELETE /v1/webhooks/{id}',
    handler: deleteWebhook,
    doc: {
      operationId: 'deleteWebhook',
      summary: 'Delete Webhook',
      description: `Delete one subscription of the key (204, no body); its pending deliveries are dropped. Another key's id is a 404. ${OFF}`,
      tag: 'Webhooks',
      body: 'WebhookResponse',
      path: WEBHOOK_PATH,
      notFound: true,
      successStatus: 204,
      live: true,
      extraErrors: ['ServiceUnavailable'],
    },
  },
  {
    id: 'webhookTest',
    path: ROUTE_PATHS.webhookTest,
    method: 'POST',
    keyed: true,
    listedAs: 'POST /v1/webhooks/{id}/test',
    handler: testWebhook,
    doc: {
      operationId: 'testWebhook',
      summary: 'Test Webhook',
      description: `Send a signed \`ping\` event to the subscription's receiver now (once, no retries) and answer with what it said: its status and the start of its answer, or why it could not be reached. ${OFF}`,
      tag: 'Webhooks',
      body: 'WebhookTestResponse',
      path: WEBHOOK_PATH,
      notFound: true,
      live: true,
      extraErrors: ['ServiceUnavailable'],
    },
  },
];
