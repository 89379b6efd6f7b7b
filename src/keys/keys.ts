/**
 * API keys: how one is made, how it is stored (only its SHA-256 hash) and how a presented key is checked.
 * A key is shown once, when it is created; nothing in the service can turn a hash back into a key.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import * as z from 'zod';
import type { KeyRecord } from './record.js';

/** Every key starts with this, so a leaked key is recognisable (secret scanners, logs, support requests). */
export const KEY_PREFIX = 'mts_';

/** Longer than any key this service issues; a longer header is refused before it is hashed. */
export const MAX_PRESENTED_KEY_LENGTH = 256;

/** The length of the hash prefix shown by `keys list` and written in logs: enough to tell keys apart. */
export const HASH_PREFIX_LENGTH = 8;

/** What `generateKey` makes, and so every key a store can hold: anything else is refused without asking it. */
export const ISSUED_KEY_PATTERN = /^mts_[A-Za-z0-9_-]{43}$/;

/** A new key: the prefix and 32 random bytes in base64url (256 bits of entropy). */
export function generateKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * SHA-256 of the key (its UTF-8 bytes), lower-case hex: the only form in which a key is ever stored or
 * compared. The one-shot `hash` makes no Hash object: a quarter of `createHash`'s time, and every keyed
 * request pays it.
 */
export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/**
 * Whether two key hashes are equal, compared in constant time so the time taken says nothing about how
 * many leading characters matched.
 */
export function hashesEqual(a: string, b: string): boolean {
  return hashBytesEqual(hashBytes(a), hashBytes(b));
}

/** A hash as the bytes `hashBytesEqual` compares: made once for a hash compared on every request. */
export const hashBytes = (hash: string): Buffer => Buffer.from(hash, 'utf8');

/** `hashesEqual` on hashes already made bytes (`hashBytes`), in constant time. */
export function hashBytesEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The short, non-secret handle of a key: the first 8 hex characters of its hash. */
export function hashPrefix(hash: string): string {
  return hash.slice(0, HASH_PREFIX_LENGTH);
}

/** A stored key record (validated wherever one is read back from disk or a shared store). */
export const KeyRecordSchema = z.strictObject({
  hash: z.string().regex(/^[0-9a-f]{64}$/, { error: 'hash must be 64 lower-case hex characters' }),
  plan: z.enum(['free', 'pro']),
  label: z.string().max(200),
  created_at: z.iso.datetime(),
}) satisfies z.ZodType<KeyRecord>;

/** A prefix given to `revoke`: 8 to 64 hex characters, any case. */
export const HashPrefixSchema = z
  .string()
  .regex(/^[0-9a-fA-F]{8,64}$/, { error: 'a key hash prefix is 8 to 64 hex characters' })
  .transform((prefix) => prefix.toLowerCase());
