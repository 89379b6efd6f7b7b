/**
 * Answers of records asked for once, kept outside the JS heap: the response cache's first stage for Get
 * Server, list and search answers (`cache.ts`). An answer asked for a second time leaves this store for the
 * cache's map, with the expiry it had; one never asked for again is simply written over.
 *
 * Why: most answers of a scan (a crawler walking every server, a dashboard paging through filters) are asked
 * for once. Kept in the map, each was half a dozen objects (its entry, key, ETag, ids, meta) that lived long
 * enough to be copied out of the young generation and then died in the old one, and with the map's own
 * upkeep that was a sixth of an uncached list's server time (docs/performance.md, "The response cache").
 * Here an answer is bytes in a ring: its key (UTF-8), ETag and meta (one byte a character) and record ids,
 * found through a set-associative table of typed arrays. Nothing is allocated to keep it, and the collector
 * never sees it.
 *
 * The ring is written in order; an entry lives until the ring comes round and writes over it. The table has
 * WAYS slots a bucket: a key goes to the bucket of its hash, into a free slot, one whose entry was written
 * over, or else the bucket's oldest. So both the bytes and the entries are bounded, and a lookup reads at most
 * WAYS slots. A key is compared byte for byte before an entry is trusted: a hash only says where to look.
 */
import type { RecordIds } from '../api/route.js';
import { fnv1a } from '../format/fnv.js';

/** Slots a bucket. */
const WAYS = 8;
/** Each entry's header: key, ETag and meta lengths (16 bits each), the ids' count (32 bits, -1 for one id). */
const HEADER_BYTES = 12;

/** An answer as it was kept, and when. */
export interface FirstAsk {
  etag: string;
  ids: RecordIds;
  /** A binary string, as the cache keeps the meta of an answer of records. */
  metaTail: string;
  keptAtMs: number;
}

export interface FirstAskOptions {
  /** The ring's size; an entry larger than a sixty-fourth of it is not kept here. */
  ringBytes: number;
  /** How many answers are kept at most (rounded up to a whole number of buckets, a power of two). */
  entries: number;
}

export class FirstAskStore {
  private readonly ring: Buffer;
  /** The ring as 32-bit words, for the ids (entries start on a 4-byte boundary). */
  private readonly words: Uint32Array;
  private readonly ringBytes: number;
  /** Per slot: where its entry starts, counted in bytes from the first ever written; -1 when empty. */
  private readonly starts: Float64Array;
  private readonly hashes: Uint32Array;
  private readonly keptAt: Float64Array;
  private readonly bucketMask: number;
  /** Bytes written so far, including those skipped at the ring's end: the next entry starts here. */
  private written = 0;
  /** The last key encoded, and its UTF-8 bytes in `encoded[0..encodedLength)`. */
  private encodedKey: string | undefined;
  /** The last key hashed and its hash: a miss looks a key up, then keeps the answer under it. */
  private hashedKey: string | undefined;
  private hash = 0;
  private encoded = Buffer.allocUnsafe(1024);
  private encodedLength = 0;

  constructor(options: FirstAskOptions) {
    this.ringBytes = Math.max(256, options.ringBytes - (options.ringBytes % 4));
    this.ring = Buffer.allocUnsafeSlow(this.ringBytes);
    this.words = new Uint32Array(this.ring.buffer, this.ring.byteOffset, this.ringBytes / 4);
    let buckets = 1;
    while (buckets * WAYS < options.entries) buckets *= 2;
    this.bucketMask = buckets - 1;
    this.starts = new Float64Array(buckets * WAYS).fill(-1);
    this.hashes = new Uint32Array(buckets * WAYS);
    this.keptAt = new Float64Array(buckets * WAYS);
  }

  /**
   * The answer kept under `key`, if it was kept after `notBeforeMs`, taken out of the store (an expired one
   * is dropped); undefined when there is none.
   */
  take(key: string, notBeforeMs: number): FirstAsk | undefined {
    const hash = this.hashOf(key);
    const slot = this.find(key, hash);
    if (slot === -1) return undefined;
    const start = this.starts[slot]!;
    this.starts[slot] = -1;
    if (this.keptAt[slot]! <= notBeforeMs) return undefined;
    const at = start % this.ringBytes;
    const keyLength = this.ring.readUInt16LE(at);
    const etagLength = this.ring.readUInt16LE(at + 2);
    const metaLength = this.ring.readUInt16LE(at + 4);
    const count = this.ring.readInt32LE(at + 8);
    let from = at + HEADER_BYTES + keyLength;
    const etag = this.ring.toString('latin1', from, from + etagLength);
    from += etagLength;
    const metaTail = this.ring.toString('latin1', from, from + metaLength);
    const first = align(from + metaLength) / 4;
    const ids = count === -1 ? this.words[first]! : Array.from(this.words.subarray(first, first + count));
    return { etag, ids, metaTail, keptAtMs: this.keptAt[slot]! };
  }

  /**
   * Keep `answer` under `key`, in place of any answer kept under it; false when it is too large to be kept
   * here, or its ETag or meta has a character past one byte (they are written a byte a character): the
   * caller keeps it elsewhere.
   */
  put(key: string, answer: { etag: string; ids: RecordIds; metaTail: string }, nowMs: number): boolean {
    const { etag, ids, metaTail } = answer;
    const count = typeof ids === 'number' ? -1 : ids.length;
    if (!this.encode(key) || !isBinary(etag) || !isBinary(metaTail)) return false;
    const keyLength = this.encodedLength;
    const length = align(HEADER_BYTES + keyLength + etag.length + metaTail.length) + 4 * Math.max(count, 1);
    if (length > this.ringBytes / 64) return false;

    const hash = this.hashOf(key);
    const known = this.find(key, hash);
    if (known !== -1) this.starts[known] = -1;
    let at = this.written % this.ringBytes;
    if (at + length > this.ringBytes) {
      // An entry never wraps: the ring's last bytes are skipped, and whatever began in them is past.
      this.written += this.ringBytes - at;
      at = 0;
    }
    const start = this.written;
    this.written += length;
    this.ring.writeUInt16LE(keyLength, at);
    this.ring.writeUInt16LE(etag.length, at + 2);
    this.ring.writeUInt16LE(metaTail.length, at + 4);
    this.ring.writeInt32LE(count, at + 8);
    this.encoded.copy(this.ring, at + HEADER_BYTES, 0, keyLength);
    let to = at + HEADER_BYTES + keyLength;
    to += this.ring.write(etag, to, 'latin1');
    to += this.ring.write(metaTail, to, 'latin1');
    const first = align(to) / 4;
    if (typeof ids === 'number') this.words[first] = ids;
    else for (let i = 0; i < ids.length; i++) this.words[first + i] = ids[i]!;

    const slot = this.freeSlot(hash);
    this.starts[slot] = start;
    this.hashes[slot] = hash;
    this.keptAt[slot] = nowMs;
    return true;
  }

  /** Drop every answer. */
  clear(): void {
    this.starts.fill(-1);
  }

  /** How many answers are kept (a walk of the table: for tests and figures, not requests). */
  get size(): number {
    let live = 0;
    for (let slot = 0; slot < this.starts.length; slot++) if (this.alive(slot)) live++;
    return live;
  }

  /** Whether `slot` holds an entry the ring has not written over since. */
  private alive(slot: number): boolean {
    const start = this.starts[slot]!;
    return start >= 0 && start >= this.written - this.ringBytes;
  }

  /** The slot of the live entry kept under `key` (whose hash is `hash`), or -1. */
  private find(key: string, hash: number): number {
    const first = (hash & this.bucketMask) * WAYS;
    for (let slot = first; slot < first + WAYS; slot++) {
      if (this.hashes[slot] !== hash || !this.alive(slot)) continue;
      if (!this.encode(key)) return -1;
      const at = this.starts[slot]! % this.ringBytes;
      const stored = at + HEADER_BYTES;
      const length = this.ring.readUInt16LE(at);
      if (this.encoded.compare(this.ring, stored, stored + length, 0, this.encodedLength) === 0) return slot;
    }
    return -1;
  }

  /** A slot of `hash`'s bucket to write into: an empty or written-over one, or else the oldest entry's. */
  private freeSlot(hash: number): number {
    const first = (hash & this.bucketMask) * WAYS;
    let oldest = first;
    for (let slot = first; slot < first + WAYS; slot++) {
      if (!this.alive(slot)) return slot;
      if (this.starts[slot]! < this.starts[oldest]!) oldest = slot;
    }
    return oldest;
  }

  private hashOf(key: string): number {
    if (key !== this.hashedKey) {
      this.hash = fnv1a(key);
      this.hashedKey = key;
    }
    return this.hash;
  }

  /** Puts `key`'s UTF-8 bytes in `encoded` (once for a key looked up, then kept); false past 65,535 bytes. */
  private encode(key: string): boolean {
    if (key === this.encodedKey) return true;
    if (key.length * 3 > this.encoded.length) {
      if (key.length * 3 > 0xffff * 3) return false;
      this.encoded = Buffer.allocUnsafe(key.length * 3);
    }
    this.encodedLength = this.encoded.write(key, 0, 'utf8');
    this.encodedKey = this.encodedLength <= 0xffff ? key : undefined;
    return this.encodedKey !== undefined;
  }
}

/** Whether `text` is at most 65,535 characters of one byte each (written as `latin1`, read back the same). */
function isBinary(text: string): boolean {
  if (text.length > 0xffff) return false;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return false;
  return true;
}

/** `n` rounded up to a multiple of 4. */
const align = (n: number): number => (n + 3) & ~3;
