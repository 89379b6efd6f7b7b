/**
 * 32-bit FNV-1a, the one non-cryptographic string hash of the project: the name index's slots
 * (`name-lookup.ts`, which also hashes a name's stored ASCII bytes with the same constants, an ASCII byte
 * being its own UTF-16 code unit) and the ETag's digest of a normalised request (`gateway/etag.ts`).
 */
export const FNV_OFFSET = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;

/** FNV-1a of the UTF-16 code units of `text`, as an unsigned 32-bit integer. */
export function fnv1a(text: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME);
  return hash >>> 0;
}
