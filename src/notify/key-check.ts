/**
 * The check of `WEBHOOK_SECRETS_KEY` at start (`npm start`, `npm run notify`): every stored subscription's
 * signing secret is opened. One sealed under an old key of `WEBHOOK_SECRETS_KEY_PREVIOUS` is sealed again
 * under the current key, so a change of key completes at the first start with both; one that no key opens
 * is counted. When none opens, the key is wrong (or was changed without the old one): the caller stops with
 * one line, rather than answering 500s and disabling every subscription a day later.
 */
import type { NotifyStore } from '../stores/types.js';
import { allSubscriptions } from './fan-out.js';
import { openSecretWithAny, sealSecret } from './secrets.js';
import { subscriptionsOf } from './subscription-schema.js';

export interface KeyCheck {
  subscriptions: number;
  /** Sealed again under the current key (they opened with an old one). */
  resealed: number;
  /** Opened by no configured key. */
  unopened: number;
}

export async function checkSecretsKey(store: NotifyStore, key: Buffer, previous: readonly Buffer[]): Promise<KeyCheck> {
  const records = await allSubscriptions(store);
  const report: KeyCheck = { subscriptions: records.length, resealed: 0, unopened: 0 };
  for (const record of records) {
    const opened = openSecretWithAny(key, previous, record.secret, record.id);
    if (opened === undefined) report.unopened++;
    else if (opened.previous) {
      const resealed = { ...record, secret: sealSecret(key, opened.secret, record.id) };
      if (await store.recordPut(subscriptionsOf(record.key_hash), record.id, JSON.stringify(resealed), 'present'))
        report.resealed++;
    }
  }
  return report;
}

/** The one line the caller stops with (all unopened), or warns with (some); undefined when all open. */
export function keyCheckLine(check: KeyCheck): { fatal: boolean; line: string } | undefined {
  if (check.unopened === 0) return undefined;
  const all = check.unopened === check.subscriptions;
  return {
    fatal: all,
    line:
      `WEBHOOK_SECRETS_KEY does not open the signing secrets of ${check.unopened} of ${check.subscriptions} webhook subscriptions: ` +
      (all
        ? 'it is not the key they were sealed with. Set that key again, or, to change keys, set the new one and put the old one in WEBHOOK_SECRETS_KEY_PREVIOUS'
        : 'those records were sealed under another key or changed; their deliveries fail until that key is in WEBHOOK_SECRETS_KEY_PREVIOUS'),
  };
}
