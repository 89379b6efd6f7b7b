/**
 * The signed snapshot bundle: what the nightly publish writes beside the deployment's site and what
 * `mcp-trust-score update` reads. A bundle is a folder served as static files: the snapshot's files and its
 * manifest as they are, an index naming every file with its size and SHA-256, and a detached Ed25519
 * signature over the index's bytes. The writer (`src/publish/sign-bundle.ts`) and the reader
 * (`src/update/verify-bundle.ts`) share this module: the file names, the index's schema, its version, and the
 * schema of the trusted keys shipped in the package (`snapshot-keys.json`, docs/snapshot.md says how keys
 * rotate).
 */
import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import * as z from 'zod';

/** Bump when the index's members or their meaning change; a reader refuses a version it does not know. */
export const BUNDLE_VERSION = 1;

/** The index: every file of the bundle with its size and hash, signed. */
export const BUNDLE_INDEX_FILE = 'bundle-index.json';

/** The index's detached Ed25519 signature, as base64 text (64 bytes decoded). */
export const BUNDLE_SIGNATURE_FILE = 'bundle-index.json.sig';

/** The bundle's folder under the deployed site (`public/`): the stable URL is `<site>/snapshot-bundle/`. */
export const BUNDLE_SITE_DIR = 'snapshot-bundle';

/** Bounds a reader holds every bundle to, before reading anything else. */
export const BUNDLE_LIMITS = {
  indexBytes: 64 * 1024,
  signatureBytes: 256,
  files: 64,
  /** All files together: room for the snapshot to grow many times over, and no more. */
  totalBytes: 200 * 1024 * 1024,
} as const;

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

/** A key id: the first 16 hex digits of the SHA-256 of the public key's SPKI DER bytes (`keyIdOf`). */
const KeyId = z.string().regex(/^[0-9a-f]{16}$/);

/** A file name inside a bundle: one path segment, never `..` or a hidden file. */
export const BundleFileName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$/)
  .max(100);

export const BundleIndexSchema = z.strictObject({
  bundle_version: z.literal(BUNDLE_VERSION),
  snapshot_id: z.string().regex(/^[0-9a-f]{16,64}$/),
  artifact_version: z.number().int(),
  /** When the snapshot was built. */
  generated_at: z.iso.datetime(),
  /** The newest `scored_at` of its records (the build time when it has none): how old the data is. */
  scored_at: z.iso.datetime(),
  record_count: z.number().int().min(0),
  /** The key that signed it (`keyIdOf`); the reader trusts it only when `snapshot-keys.json` lists it. */
  key_id: KeyId,
  signed_at: z.iso.datetime(),
  files: z
    .array(z.strictObject({ name: BundleFileName, bytes: z.number().int().min(0), sha256: Sha256 }))
    .min(1)
    .max(BUNDLE_LIMITS.files),
});
export type BundleIndex = z.infer<typeof BundleIndexSchema>;

export const TrustedKeySchema = z.strictObject({
  key_id: KeyId,
  /** The Ed25519 public key, SPKI DER in base64. */
  public_key: z
    .string()
    .regex(/^[A-Za-z0-9+/]+={0,2}$/)
    .max(200),
  /** No bundle signed before this instant is accepted with this key. */
  not_before: z.iso.datetime(),
  /** Set when the key is retired: after this instant no bundle it signed is accepted. */
  not_after: z.iso.datetime().optional(),
});
export type TrustedKey = z.infer<typeof TrustedKeySchema>;

export const TrustedKeysSchema = z.strictObject({
  /** Where the bundle is published (`<site>/snapshot-bundle/`): `update`'s default; null until there is one. */
  bundle_url: z.url().nullable(),
  keys: z.array(TrustedKeySchema).max(16),
});
export type TrustedKeys = z.infer<typeof TrustedKeysSchema>;

/** The public key of a base64 SPKI DER text. */
export const publicKeyOf = (base64: string): KeyObject =>
  createPublicKey({ key: Buffer.from(base64, 'base64'), format: 'der', type: 'spki' });

/** A key's id: the first 16 hex digits of the SHA-256 of its SPKI DER bytes, so an id can never name two keys. */
export function keyIdOf(key: KeyObject): string {
  const der = key.export({ format: 'der', type: 'spki' });
  return createHash('sha256').update(der).digest('hex').slice(0, 16);
}

/** `2026-02-21` and the whole days since, for every line that states the data's age. */
export function dataAge(scoredAt: string, nowMs: number): { date: string; days: number } {
  const days = Math.max(0, Math.floor((nowMs - Date.parse(scoredAt)) / 86_400_000));
  return { date: scoredAt.slice(0, 10), days };
}
