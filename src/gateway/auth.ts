/**
 * Keys: the presented `X-API-Key` → its record. Keys are compared by their SHA-256 hash in constant time;
 * `API_KEYS` keys are checked in memory first, then the store is asked (bounded). A key that matches nothing
 * is a 401; a store that cannot say is a 502.
 */
import { ApiError } from '../api/errors.js';
import { timingSafeEqual } from 'node:crypto';
import { hashesEqual, keyDigest, MAX_PRESENTED_KEY_LENGTH } from '../keys/keys.js';
import type { KeyRecord } from '../keys/record.js';
import type { StoreCalls } from './store-calls.js';

export type Authenticate = (presented: string | null | undefined) => Promise<KeyRecord>;

/** `staticHashes`: the hashes of the `API_KEYS` keys, free-plan keys labelled as such. */
export function createAuthenticator(
  staticHashes: readonly string[],
  calls: StoreCalls,
  startedAt: string,
): Authenticate {
  // Each with its hash as bytes, compared with the presented key's digest as it comes from SHA-256.
  const staticKeys = staticHashes.map((hash) => {
    const record: KeyRecord = { hash, plan: 'free', label: 'API_KEYS', created_at: startedAt };
    const digest = Buffer.from(hash, 'hex');
    if (digest.length !== 32 || digest.toString('hex') !== hash) throw new Error(`not a key hash: ${hash.slice(0, 8)}`);
    return { record, digest };
  });
  // Made only when thrown, not on every request.
  const invalid = () => new ApiError('invalid_api_key', 'Invalid API key: X-API-Key does not match an active key');

  return async (presented) => {
    if (!presented) throw new ApiError('missing_api_key', 'Missing API key: send your key in the X-API-Key header');
    if (presented.length > MAX_PRESENTED_KEY_LENGTH) throw invalid();
    const digest = keyDigest(presented);
    for (const key of staticKeys) if (timingSafeEqual(key.digest, digest)) return key.record;
    const hash = digest.toString('hex');
    let record: KeyRecord | undefined;
    try {
      record = await calls.findKey(hash);
    } catch (error) {
      throw calls.unavailable(error);
    }
    // The store found the record by its hash; compare again in constant time rather than trust the lookup.
    if (record === undefined || !hashesEqual(record.hash, hash)) throw invalid();
    return record;
  };
}
