/**
 * The bodies of answers made of records (a list or search page, a server): their stored bytes, with the
 * envelope around them, in buffers lent to the response and taken back once it has been written out.
 *
 * Such a body used to be one binary string: made from the page's bytes, joined to the headers by Node, and
 * copied again into a buffer of Node's own to be written, three copies of a page in a request that then
 * left them to the collector. Put together in a buffer that goes to the socket as it is, the body is
 * copied once, from the records into it (docs/performance.md, "Bodies of records"). A buffer is given back
 * by whoever wrote it (`release` on the response), after the write has finished; one never given back (a
 * connection cut while writing) is simply left to the collector, so a buffer is never written into while
 * the socket may still be reading it.
 */

import type { QueryEngine } from '../query/types.js';
import { isRecordIds, type KeptData } from './cache.js';

/** The size of a new buffer: room for an uncached list page of 20 records with their signals. */
const BUFFER_BYTES = 64 * 1024;
/** Buffers kept for reuse: one per response being written at once, about. */
const MAX_FREE = 64;
/** A buffer past this (a page of 200 long records) is not kept: a few of them would be megabytes held for nothing. */
const MAX_KEPT_BYTES = 256 * 1024;

export class BodyPool {
  private readonly free: Buffer[] = [];

  /** A buffer of at least `size` bytes, to be given back with `give` once its body is written. */
  take(size: number): Buffer {
    const kept = this.free.pop();
    if (kept !== undefined && kept.length >= size) return kept;
    return Buffer.allocUnsafeSlow(Math.max(size, BUFFER_BYTES));
  }

  /** Take back `buffer`, no longer read by anything. */
  give(buffer: Buffer): void {
    if (this.free.length < MAX_FREE && buffer.length <= MAX_KEPT_BYTES) this.free.push(buffer);
  }
}

/** `text` as a binary string (one character per UTF-8 byte): itself when it is ASCII, as it nearly always is. */
export function binaryOf(text: string): string {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) >= 0x80) return Buffer.from(text, 'utf8').toString('latin1');
  }
  return text;
}

/**
 * The body `head` + `data` + `tail`: text when `data` is text; when it is records, their stored bytes
 * (docs/performance.md, "Bodies of records"), and then `head` and `tail` must be binary strings (ASCII is):
 * records given by their ids are copied into a buffer from `pool`, to be given back by `release` once
 * written; records kept as bytes by the cache make a binary string, written out as `latin1`.
 */
export function bodyOf(
  engine: QueryEngine,
  pool: BodyPool,
  data: KeptData,
  head: string,
  tail: string,
): { body: string | Buffer; binary: boolean; release?: () => void } {
  if (typeof data === 'string') return { body: head + data + tail, binary: false };
  if (!isRecordIds(data)) return { body: head + data.binary + tail, binary: true };
  const buffer = pool.take(head.length + engine.recordsByteLength(data) + tail.length);
  let at = buffer.write(head, 0, 'latin1');
  at = engine.copyRecords(data, buffer, at);
  at += buffer.write(tail, at, 'latin1');
  return { body: buffer.subarray(0, at), binary: true, release: () => pool.give(buffer) };
}
