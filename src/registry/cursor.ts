/**
 * The cursors of `/v0.1/servers`: opaque to clients (base64url), and inside them the name of the last
 * server of the page. Names are unique and the feed is in name order, so the next page is the servers after
 * that name: stable within a snapshot (and across them: a page never repeats or skips a server that stays),
 * whatever filters the request adds.
 */
const PREFIX = 'n1:';
/** A cursor's length bound: a name has at most 200 characters, 4 bytes each in UTF-8, then base64. */
export const MAX_CURSOR_LENGTH = 1100;

export function encodeCursor(name: string): string {
  return Buffer.from(`${PREFIX}${name}`, 'utf8').toString('base64url');
}

/** The name inside a cursor this registry gave, or undefined for anything else. */
export function decodeCursor(cursor: string): string | undefined {
  if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!text.startsWith(PREFIX) || encodeCursor(text.slice(PREFIX.length)) !== cursor) return undefined;
  const name = text.slice(PREFIX.length);
  return name.length > 0 && name.length <= 200 ? name : undefined;
}
