/**
 * Keys: the presented `X-API-Key` → its record. Keys are compared by their SHA-256 hash in constant time;
 * `API_KEYS` keys are checked in memory first, then the store is asked (bounded). A key that matches nothing
 * is a 401; a store that cannot say is a 502.
 */
import { ApiError } from '../api/errors.js';
import { hashBytes, hashBytesEqual, hashesEqual, hashKey, MAX_PRESENTED_KEY_LENGTH } from '../keys/keys.js';
import type { KeyRecord } from '../keys/record.js';
import type { StoreCalls } from './store-calls.js';

export type Authenticate = (presented: string | null | undefined) => Promise<KeyRecord>;

/** `staticHashes`: the hashes of the `API_KEYS` keys, free-plan keys labelled as such. */
export function createAuthenticator(
  staticHashes: readonly string[],
  calls: StoreCalls,
  startedAt: string,
): Authenticate {
  // Each with its hash's bytes, made once: a keyed request compares against every one of them.
  const staticKeys = staticHashes.map((hash) => ({
    bytes: hashBytes(hash),
    record: { hash, plan: 'free', label: 'API_KEYS', created_at: startedAt } satisfies KeyRecord,
  }));
  // Made only when thrown, not on every request.
  const invalid = () => new ApiError('invalid_api_key', 'Invalid API key: X-API-Key does not match an active key');

  return async (presented) => {
    if (!presented) throw new ApiError('missing_api_key', 'Missing API key: send your key in the X-API-Key header');
    if (presented.length > MAX_PRESENTED_KEY_LENGTH) throw invalid();
    const hash = hashKey(presented);
    if (staticKeys.length > 0) {
      const bytes = hashBytes(hash);
      for (const key of staticKeys) if (hashBytesEqual(key.bytes, bytes)) return key.record;
    }
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
