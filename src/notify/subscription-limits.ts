/**
 * What a webhook subscription may hold: its event types, the longest receiver URL, and the per-key limits.
 * Apart from the schemas (`subscription-schema.ts`, which re-exports them) so the route table can document
 * them without building those schemas, and the Policy Check item schema they use, at every start.
 */
export const EVENT_TYPES = [
  'score.changed',
  'label.changed',
  'flags.raised',
  'flags.cleared',
  'server.removed',
  'tools.changed',
  'advisory.added',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The longest receiver URL a subscription takes. Here, with the schemas' limits, rather than with the address
 * rules (`address-filter.ts`): the wire schemas, and so the offline checker, read it, and must not load the
 * address rules' HTTP agents with it.
 */
export const MAX_RECEIVER_URL_LENGTH = 2000;

export const WEBHOOK_LIMITS = { perKey: 10, maxServers: 500, deliveriesShown: 20 } as const;
