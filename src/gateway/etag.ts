/** ETags of keyed answers, and the `If-None-Match` check (weak comparison, as RFC 9110 asks for this header). */
import { fnv1a } from '../format/fnv.js';

/**
 * The ETag of an answer: the snapshot it came from and a digest of the normalised request. A client
 * revalidates an answer only with the ETag of the same URL, which always normalises to the same text, and
 * the snapshot id beside it changes with the data; so the digest need not be cryptographic, only stable.
 */
export function etagFor(snapshotId: string, normalised: string): string {
  return `W/"${snapshotId.slice(0, 12)}-${fnv1a(normalised).toString(36)}"`;
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
