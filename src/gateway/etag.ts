/** ETags of keyed answers, and the `If-None-Match` check (weak comparison, as RFC 9110 asks for this header). */

/**
 * The ETag of an answer: the snapshot it came from and a digest of the normalised request. A client
 * revalidates an answer only with the ETag of the same URL, which always normalises to the same text, and
 * the snapshot id beside it changes with the data; so the digest need not be cryptographic, only stable.
 */
export function etagFor(snapshotId: string, normalised: string): string {
  return `W/"${snapshotId.slice(0, 12)}-${fnv1a(normalised)}"`;
}

/** Whether an `If-None-Match` value names `etag`. */
export function matchesIfNoneMatch(header: string | null | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const candidate of header.split(',')) {
    const tag = candidate.trim();
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === opaque) return true;
  }
  return false;
}

/** 32-bit FNV-1a of `text` in base 36. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}
