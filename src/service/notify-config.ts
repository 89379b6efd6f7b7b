/**
 * The webhook settings of the environment, validated with the rest of it in `config.ts`:
 * - `WEBHOOK_SECRETS_KEY`: 32 bytes (64 hex characters, or base64) that encrypt the signing secrets at rest;
 *   without it the webhook routes answer 503 saying to set it, and nothing else changes;
 * - `WEBHOOK_SECRETS_KEY_PREVIOUS`: while changing keys, the old key(s), comma-separated: secrets sealed under
 *   them still open, and are sealed again under the new key at start;
 * - `WEBHOOKS_ALLOW_HTTP=true`: receivers may be `http://` (local testing);
 * - `WEBHOOKS_ALLOW_PRIVATE=true`: receivers may be on this network (loopback, private...; local testing only);
 * - `WEBHOOKS_PUBLIC_URL`: the service's address as receivers see it, for the record links in events;
 * - `WEBHOOKS_INTERVAL_SECONDS`: how often `npm start` looks for a new snapshot and due retries (default 30);
 * - `CRON_SECRET`: the bearer token the platform's cron sends to `/api/cron/notify` (Vercel sets it).
 */
import * as z from 'zod';

const text = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const flag = (name: string) =>
  text.pipe(z.enum(['true', 'false'], { error: `${name} must be true or false` }).optional());

const SECRETS_KEY_RULE =
  'WEBHOOK_SECRETS_KEY must be 32 bytes written as 64 hex characters or as base64 (make one with: openssl rand -base64 32)';

/** The key's text → its 32 bytes: hex first (64 characters), base64 otherwise. */
const SecretsKeySchema = text.pipe(
  z
    .string()
    .transform((value, context) => {
      const bytes = /^[0-9a-fA-F]{64}$/.test(value)
        ? Buffer.from(value, 'hex')
        : /^[A-Za-z0-9+/]{43}=?$/.test(value)
          ? Buffer.from(value, 'base64')
          : undefined;
      if (bytes?.length !== 32) {
        context.addIssue({ code: 'custom', message: SECRETS_KEY_RULE });
        return z.NEVER;
      }
      return bytes;
    })
    .optional(),
);

/** A comma-separated list of keys, each as `WEBHOOK_SECRETS_KEY` takes it. */
const PreviousKeysSchema = text.transform((value, context) => {
  if (value === undefined) return [];
  const keys: Buffer[] = [];
  for (const part of value.split(',')) {
    const parsed = SecretsKeySchema.safeParse(part);
    if (!parsed.success || parsed.data === undefined) {
      context.addIssue({
        code: 'custom',
        message: `WEBHOOK_SECRETS_KEY_PREVIOUS: each key, ${SECRETS_KEY_RULE.replace('WEBHOOK_SECRETS_KEY must be', 'must be')}`,
      });
      return z.NEVER;
    }
    keys.push(parsed.data);
  }
  return keys.slice(0, 8);
});

/** The members of the environment schema these settings add. */
export const NotifyEnvShape = {
  CRON_SECRET: text,
  WEBHOOK_SECRETS_KEY: SecretsKeySchema,
  WEBHOOK_SECRETS_KEY_PREVIOUS: PreviousKeysSchema,
  WEBHOOKS_ALLOW_HTTP: flag('WEBHOOKS_ALLOW_HTTP'),
  WEBHOOKS_ALLOW_PRIVATE: flag('WEBHOOKS_ALLOW_PRIVATE'),
  WEBHOOKS_PUBLIC_URL: text.pipe(
    z.url({ protocol: /^https?$/, error: 'WEBHOOKS_PUBLIC_URL must be an http(s) URL' }).optional(),
  ),
  WEBHOOKS_INTERVAL_SECONDS: text.pipe(
    z
      .string()
      .regex(/^\d{1,6}$/, { error: 'WEBHOOKS_INTERVAL_SECONDS must be a whole number from 1 to 86400' })
      .transform(Number)
      .pipe(
        z.number().min(1).max(86_400, { error: 'WEBHOOKS_INTERVAL_SECONDS must be a whole number from 1 to 86400' }),
      )
      .optional(),
  ),
};

export interface NotifyConfig {
  /** The AES-256-GCM key of the signing secrets; undefined turns webhooks off (their routes answer 503). */
  secretsKey: Buffer | undefined;
  /** Keys the signing secrets may still be sealed under, during a change of key. */
  previousSecretsKeys: Buffer[];
  allowHttp: boolean;
  allowPrivate: boolean;
  /** The base of record links in events, without a trailing slash; undefined: the request's own host. */
  publicUrl: string | undefined;
  intervalMs: number;
  /** What the cron route must be called with (`Authorization: Bearer ...`); undefined: the route answers 503. */
  cronSecret: string | undefined;
}

type NotifyVars = { [K in keyof typeof NotifyEnvShape]?: z.output<(typeof NotifyEnvShape)[K]> };

export function notifyConfigOf(vars: NotifyVars): NotifyConfig {
  return {
    secretsKey: vars.WEBHOOK_SECRETS_KEY,
    previousSecretsKeys: vars.WEBHOOK_SECRETS_KEY_PREVIOUS ?? [],
    allowHttp: vars.WEBHOOKS_ALLOW_HTTP === 'true',
    allowPrivate: vars.WEBHOOKS_ALLOW_PRIVATE === 'true',
    publicUrl: vars.WEBHOOKS_PUBLIC_URL?.replace(/\/+$/, ''),
    intervalMs: (vars.WEBHOOKS_INTERVAL_SECONDS ?? 30) * 1000,
    cronSecret: vars.CRON_SECRET,
  };
}
