/**
 * Keys: the presented `X-API-Key` → its record. Keys are compared by their SHA-256 hash in constant time;
 * `API_KEYS` keys are checked in memory first, then the store is asked (bounded). A key that matches nothing
 * is a 401; a store that cannot say is a 502.
 *
 * A wrong key must not cost the store a command each time (on Upstash every command is billed, and anyone
 * can send keys): a key that is not of the form every issued key has is refused without asking, and a hash
 * the store did not know is remembered for a few seconds (`UnknownKeys`). A key issued meanwhile cannot be
 * among them: it is random, so nobody presented it before it was made.
 */
import { ApiError } from '../api/errors.js';
import {
  hashBytes,
  hashBytesEqual,
  hashesEqual,
  hashKey,
  ISSUED_KEY_PATTERN,
  MAX_PRESENTED_KEY_LENGTH,
} from '../keys/keys.js';
import type { KeyRecord } from '../keys/record.js';
import type { StoreCalls } from './store-calls.js';

/** How long a hash the store did not know is answered 401 without asking again, and how many are kept. */
export const UNKNOWN_KEY_MS = 5000;
export const MAX_UNKNOWN_KEYS = 10_000;

/** Hashes the store answered "no such key" for, lately: bounded in count and time. */
class UnknownKeys {
  private readonly until = new Map<string, number>();

  has(hash: string, nowMs: number): boolean {
    const until = this.until.get(hash);
    if (until === undefined) return false;
    if (until > nowMs) return true;
    this.until.delete(hash);
    return false;
  }

  add(hash: string, nowMs: number): void {
    // Full: start again rather than walk the map; the worst is one more store command per hash.
    if (this.until.size >= MAX_UNKNOWN_KEYS) this.until.clear();
    this.until.set(hash, nowMs + UNKNOWN_KEY_MS);
  }
}

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
  const unknown = new UnknownKeys();
  /** Lookups under way, by hash: a burst of one key waits for one store command, not one each. */
  const pending = new Map<string, Promise<KeyRecord | undefined>>();
  const lookUp = (hash: string): Promise<KeyRecord | undefined> => {
    let lookup = pending.get(hash);
    if (lookup === undefined) {
      lookup = calls.findKey(hash);
      pending.set(hash, lookup);
      const done = () => pending.delete(hash);
      lookup.then(done, done);
    }
    return lookup;
  };

  return async (presented) => {
    if (!presented) throw new ApiError('missing_api_key', 'Missing API key: send your key in the X-API-Key header');
    if (presented.length > MAX_PRESENTED_KEY_LENGTH) throw invalid();
    const hash = hashKey(presented);
    if (staticKeys.length > 0) {
      const bytes = hashBytes(hash);
      for (const key of staticKeys) if (hashBytesEqual(key.bytes, bytes)) return key.record;
    }
    if (!ISSUED_KEY_PATTERN.test(presented)) throw invalid();
    const nowMs = performance.now();
    if (unknown.has(hash, nowMs)) throw invalid();
    let record: KeyRecord | undefined;
    try {
      record = await lookUp(hash);
    } catch (error) {
      throw calls.unavailable(error);
    }
    if (record === undefined) unknown.add(hash, nowMs);
    // The store found the record by its hash; compare again in constant time rather than trust the lookup.
    if (record === undefined || !hashesEqual(record.hash, hash)) throw invalid();
    return record;
  };
}
