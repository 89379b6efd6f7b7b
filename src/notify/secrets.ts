/**
 * Signing secrets: made here (`whsec_` + 24 random bytes in base64, the form `standardwebhooks` reads), shown
 * once in the answer that creates a subscription, and kept only sealed with AES-256-GCM under the key of
 * `WEBHOOK_SECRETS_KEY`. The subscription's id is the sealed value's associated data, so a sealed secret
 * copied onto another subscription does not open.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import * as z from 'zod';

export const SECRET_PREFIX = 'whsec_';

export const SealedSecretSchema = z.strictObject({
  /** The 12-byte nonce, base64. */
  iv: z.string().min(1),
  /** The 16-byte authentication tag, base64. */
  tag: z.string().min(1),
  /** The encrypted secret, base64. */
  data: z.string().min(1),
});
export type SealedSecret = z.infer<typeof SealedSecretSchema>;

/** A new signing secret: 192 random bits. */
export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
}

/** `secret` encrypted under `key` (32 bytes), bound to `subscriptionId`. */
export function sealSecret(key: Buffer, secret: string, subscriptionId: string): SealedSecret {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(subscriptionId, 'utf8'));
  const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
}

/**
 * The secret sealed by `sealSecret`. Throws when the key is not the one it was sealed with, or the value or
 * its subscription id was changed (the message never holds the secret).
 */
export function openSecret(key: Buffer, sealed: SealedSecret, subscriptionId: string): string {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
    decipher.setAAD(Buffer.from(subscriptionId, 'utf8'));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    throw new Error(
      `the signing secret of subscription ${subscriptionId} does not open with WEBHOOK_SECRETS_KEY (another key, or a changed record)`,
    );
  }
}

/**
 * The secret sealed by `sealSecret`, opened with `key` or else with one of `previous` (a change of key under
 * way); `previous` is true when it took an old key. Undefined when none opens it.
 */
export function openSecretWithAny(
  key: Buffer,
  previous: readonly Buffer[],
  sealed: SealedSecret,
  subscriptionId: string,
): { secret: string; previous: boolean } | undefined {
  for (const [index, candidate] of [key, ...previous].entries()) {
    try {
      return { secret: openSecret(candidate, sealed, subscriptionId), previous: index > 0 };
    } catch {
      // the next key
    }
  }
  return undefined;
}

/** What an attempt reports when no configured key opens the subscription's secret (never the secret). */
export const UNOPENED_SECRET =
  "its signing secret does not open with this service's WEBHOOK_SECRETS_KEY (the operator changed the key without WEBHOOK_SECRETS_KEY_PREVIOUS)";
