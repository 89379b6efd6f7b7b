/**
 * The lines `npm start` and `npm run notify` print about the webhook settings. Apart from the notifications
 * themselves (`service.ts`), which a start with webhooks off never loads.
 */
/** The lines `npm start` prints when a setting lifts a protection, or loses what webhooks keep. */
export function notifyWarnings(settings: {
  allowHttp: boolean;
  allowPrivate: boolean;
  secretsKey: Buffer | undefined;
  store?: string;
}): string[] {
  const lines: string[] = [];
  if (settings.secretsKey === undefined)
    lines.push('Webhooks are off (their routes answer 503): set WEBHOOK_SECRETS_KEY to turn them on.');
  else if (settings.store === 'memory') {
    lines.push(
      'WARNING: STORE=memory: webhook subscriptions and their pending deliveries live in this process only and are lost when it stops or restarts. Use STORE=redis or STORE=upstash to keep them.',
    );
  }
  if (settings.allowPrivate) {
    lines.push(
      'WARNING: WEBHOOKS_ALLOW_PRIVATE=true: webhook deliveries may reach loopback, private and cloud-metadata addresses. For local testing only; never set it on a public deployment.',
    );
  }
  if (settings.allowHttp)
    lines.push('WARNING: WEBHOOKS_ALLOW_HTTP=true: webhook receivers may use plain http:// (local testing only).');
  return lines;
}
