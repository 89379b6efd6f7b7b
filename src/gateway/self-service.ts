/**
 * Get Access: a free-plan key issued to whoever asks (`POST /v1/keys`), shown once, stored only as its hash,
 * like the keys CLI issues one. Issuing is limited per client address and day (counted in the same store as
 * the daily limits, under a hash of the address: no address is stored), and a deployment can turn it off.
 * Which address counts is `client-address.ts`'s rule (the connection's, or the n-th from the right of
 * `X-Forwarded-For` behind n trusted proxies).
 */
import { createHash } from 'node:crypto';
import { ApiError } from '../api/errors.js';
import { clientAddress } from './client-address.js';
import { generateKey, hashKey } from '../keys/keys.js';
import type { KeyRecord } from '../keys/record.js';
import { counterExpiry, nextUtcMidnight } from './rate-limit.js';
import type { StoreCalls } from './store-calls.js';
import type { Store } from '../stores/types.js';

export interface SelfServiceConfig {
  enabled: boolean;
  /** Keys one client address may be issued per UTC day. */
  perDay: number;
  /** How many proxies in front of the service append to `X-Forwarded-For` (0: the header is ignored). */
  trustProxyHops: number;
}

export const DEFAULT_SELF_SERVICE: SelfServiceConfig = { enabled: true, perDay: 3, trustProxyHops: 0 };

export interface IssuedKey {
  key: string;
  record: KeyRecord;
}

export type IssueKey = (
  label: string,
  request: { address?: string; forwardedFor?: string | null },
  nowMs: number,
) => Promise<IssuedKey>;

/** How many addresses at their day's limit one instance remembers (a full set starts again). */
const MAX_EXHAUSTED = 10_000;

export function createKeyIssuer(config: SelfServiceConfig, store: Store, calls: StoreCalls): IssueKey {
  // The counters (address and day) this instance has seen reach the limit: a client that keeps asking past
  // it is refused here, not with a store command each time (on Upstash each is billed). The store still
  // decides every key that is issued, so several instances together never issue more than the limit.
  const exhausted = new Set<string>();
  return async (label, request, nowMs) => {
    if (!config.enabled) {
      throw new ApiError(
        'self_service_disabled',
        'This deployment does not issue keys itself; ask its operator for one',
      );
    }
    const address = clientAddress(request, config.trustProxyHops);
    const day = new Date(nowMs).toISOString().slice(0, 10);
    const counter = `issue:${createHash('sha256').update(address).digest('hex').slice(0, 24)}:${day}`;
    let granted = false;
    if (!exhausted.has(counter)) {
      let count: number;
      try {
        ({ granted, count } = await calls.reserve(counter, 1, config.perDay, counterExpiry(nowMs)));
      } catch (error) {
        throw calls.unavailable(error);
      }
      if (count >= config.perDay) {
        if (exhausted.size >= MAX_EXHAUSTED) exhausted.clear();
        exhausted.add(counter);
      }
    }
    if (!granted) {
      const reset = nextUtcMidnight(nowMs);
      throw new ApiError(
        'rate_limited',
        `This address has been issued ${config.perDay} keys today, the most a day; more can be issued after ` +
          `${new Date(reset).toISOString()}`,
        { 'retry-after': String(Math.max(1, Math.ceil((reset - nowMs) / 1000))) },
      );
    }
    const key = generateKey();
    const record: KeyRecord = {
      hash: hashKey(key),
      plan: 'free',
      label: label === '' ? 'self-service' : `self-service: ${label}`,
      created_at: new Date(nowMs).toISOString(),
    };
    try {
      await store.addKey(record);
    } catch (error) {
      throw calls.unavailable(error);
    }
    return { key, record };
  };
}
