/**
 * The in-instance response cache (specification section 8.7, decisions section 5): computed answers kept
 * for at most one hour, bounded by entries and by size, least recently used first out. The key is the
 * snapshot id plus the normalised request, so a new snapshot never answers from an old one's entries.
 *
 * An entry holds the parts of a body that do not depend on whether it came from the cache (the `data`
 * JSON text and the rest of `meta`), so a hit costs one string concatenation and `meta.cached` is `true`
 * exactly when the body came from here.
 *
 * An answer made of the snapshot's records (Get Server, a list or search page) is kept at first as their
 * ids, a few bytes, outside the JS heap (`first-asks.ts`), and as their bytes once it is asked for a second
 * time (`keepData`). Most answers of a scan (a crawler walking every server, a dashboard paging through
 * filters) are asked for once: kept as text, each would live long enough in the JS heap to be copied out of
 * its young generation and die in the old one, which under such a load grew the heap and cost throughput;
 * kept as ids in the map, their entries still cost part of an uncached list's time (docs/performance.md,
 * "The response cache"). An answer asked for again is read from
 * the records once more, then served from its bytes (a binary string), which go into the response as they
 * are.
 */
import type { RecordIds } from '../api/route.js';
import { FirstAskStore } from './first-asks.js';

/** The upper bound the specification allows. */
export const MAX_CACHE_TTL_MS = 3_600_000;

export interface CacheOptions {
  /** Time to live in milliseconds; clamped to one hour. */
  ttlMs: number;
  maxEntries: number;
  /** Bound on the summed size of the entries, counted as string length (about bytes for JSON text). */
  maxBytes: number;
}

export const DEFAULT_CACHE_OPTIONS: CacheOptions = {
  ttlMs: MAX_CACHE_TTL_MS,
  maxEntries: 20_000,
  maxBytes: 64 * 1024 * 1024,
};

/**
 * The `data` member: JSON text, the records it is made of, or their JSON as a binary string (one character
 * per UTF-8 byte, as the records are stored; `QueryEngine.recordsBinary`).
 */
export type KeptData = string | RecordIds | { binary: string };

/** Whether `data` is records (one id, or a page's ids), not text or bytes. */
export function isRecordIds(data: KeptData): data is RecordIds {
  return typeof data === 'number' || Array.isArray(data);
}

/** Whether `data` is an empty page (a lookup that found nothing): its ids, or its JSON once asked for again. */
export function holdsNoRecord(data: KeptData): boolean {
  if (isRecordIds(data)) return typeof data !== 'number' && data.length === 0;
  return (typeof data === 'string' ? data : data.binary) === '[]';
}

export interface CachedAnswer {
  /** The weak ETag of this answer. */
  etag: string;
  /** The `data` member as JSON text, or the records it is made of (ids, then bytes once asked for again). */
  data: KeptData;
  /**
   * The members of `meta` after `cached`, as JSON text starting with a comma (or empty); for an answer of
   * records, as a binary string, as its records are written.
   */
  metaTail: string;
}

/** What an entry counts against `maxBytes`: its strings' lengths (a binary string's is its bytes), and 8 bytes an id for records kept as ids. */
function sizeOf(key: string, answer: CachedAnswer): number {
  const { data } = answer;
  let dataSize: number;
  if (typeof data === 'string') dataSize = data.length;
  else if (typeof data === 'number') dataSize = 8;
  else if ('binary' in data) dataSize = data.binary.length;
  else dataSize = 8 * data.length;
  return key.length + dataSize + answer.metaTail.length + answer.etag.length;
}

interface Entry {
  key: string;
  answer: CachedAnswer;
  expiresAtMs: number;
  size: number;
  /** Neighbours in recency order: `older` towards the least recently used end. */
  older: Entry | undefined;
  newer: Entry | undefined;
}

/**
 * An LRU map with expiry: a Map for lookup and a doubly linked list for recency. Eviction takes the list's
 * oldest end; it never iterates the Map, whose iteration walks past every deleted slot not yet compacted
 * (with a full cache turning over, that made each insertion many times dearer).
 *
 * In front of it, answers of records asked for once are kept in a `FirstAskStore` (`first-asks.ts`), off
 * the JS heap, up to as many as `maxEntries` in a ring of a sixteenth of `maxBytes`; asked for again, one
 * moves into the map with the expiry it had. One too large for that store goes to the map at once.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private oldest: Entry | undefined;
  private newest: Entry | undefined;
  private bytes = 0;
  private readonly options: CacheOptions;
  private readonly firstAsks: FirstAskStore | undefined;

  constructor(options: Partial<CacheOptions> = {}) {
    const merged = { ...DEFAULT_CACHE_OPTIONS, ...options };
    this.options = { ...merged, ttlMs: Math.min(merged.ttlMs, MAX_CACHE_TTL_MS) };
    if (this.enabled) {
      this.firstAsks = new FirstAskStore({ ringBytes: this.options.maxBytes / 16, entries: this.options.maxEntries });
    }
  }

  private get enabled(): boolean {
    return this.options.maxEntries >= 1 && this.options.ttlMs > 0;
  }

  /** The live answer for `key`, or undefined (absent or expired). */
  get(key: string, nowMs: number): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return this.askedAgain(key, nowMs);
    if (entry.expiresAtMs <= nowMs) {
      this.remove(entry);
      return undefined;
    }
    this.unlink(entry);
    this.append(entry);
    return entry.answer;
  }

  /** An answer of records asked for the second time: out of the first-ask store, into the map. */
  private askedAgain(key: string, nowMs: number): CachedAnswer | undefined {
    const kept = this.firstAsks?.take(key, nowMs - this.options.ttlMs);
    if (kept === undefined) return undefined;
    const answer: CachedAnswer = { etag: kept.etag, data: kept.ids, metaTail: kept.metaTail };
    this.keep(key, answer, kept.keptAtMs + this.options.ttlMs);
    return answer;
  }

  /** Keep `answer` under `key`; evicts the least recently used entries past either bound. */
  set(key: string, answer: CachedAnswer, nowMs: number): void {
    const { data } = answer;
    if (this.firstAsks !== undefined && isRecordIds(data)) {
      const previous = this.entries.get(key);
      if (previous !== undefined) this.remove(previous);
      if (this.firstAsks.put(key, { etag: answer.etag, ids: data, metaTail: answer.metaTail }, nowMs)) return;
    }
    this.keep(key, answer, nowMs + this.options.ttlMs);
  }

  /** Keep `answer` under `key` in the map until `expiresAtMs`. */
  private keep(key: string, answer: CachedAnswer, expiresAtMs: number): void {
    const size = sizeOf(key, answer);
    // One answer bigger than a quarter of the budget would flush everything else for little gain.
    if (!this.fits(size) || !this.enabled) return;
    const previous = this.entries.get(key);
    if (previous !== undefined) this.remove(previous);
    const entry: Entry = {
      key,
      answer,
      expiresAtMs,
      size,
      older: undefined,
      newer: undefined,
    };
    this.entries.set(key, entry);
    this.append(entry);
    this.bytes += size;
    this.evict();
  }

  /**
   * Replace the records of the entry under `key` with their JSON `data`, text or bytes (the answer was asked
   * for again), keeping its expiry. An entry whose data would not fit is dropped.
   */
  keepData(key: string, data: string | { binary: string }): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    const answer = { ...entry.answer, data };
    const size = sizeOf(key, answer);
    if (!this.fits(size)) {
      this.remove(entry);
      return;
    }
    entry.answer = answer;
    this.bytes += size - entry.size;
    entry.size = size;
    this.evict();
  }

  private fits(size: number): boolean {
    return size <= this.options.maxBytes / 4;
  }

  /** Drop the least recently used entries while either bound is passed. */
  private evict(): void {
    while (
      this.oldest !== undefined &&
      (this.entries.size > this.options.maxEntries || this.bytes > this.options.maxBytes)
    ) {
      this.remove(this.oldest);
    }
  }

  /** Puts `entry` at the most recently used end. */
  private append(entry: Entry): void {
    entry.older = this.newest;
    entry.newer = undefined;
    if (this.newest === undefined) this.oldest = entry;
    else this.newest.newer = entry;
    this.newest = entry;
  }

  private unlink(entry: Entry): void {
    if (entry.older === undefined) this.oldest = entry.newer;
    else entry.older.newer = entry.newer;
    if (entry.newer === undefined) this.newest = entry.older;
    else entry.newer.older = entry.older;
  }

  private remove(entry: Entry): void {
    this.unlink(entry);
    this.entries.delete(entry.key);
    this.bytes -= entry.size;
  }

  /** Entries in the map. */
  get size(): number {
    return this.entries.size;
  }

  /** Answers of records asked for once, in the first-ask store. */
  get firstAskCount(): number {
    return this.firstAsks?.size ?? 0;
  }

  get totalBytes(): number {
    return this.bytes;
  }

  clear(): void {
    this.firstAsks?.clear();
    this.entries.clear();
    this.oldest = undefined;
    this.newest = undefined;
    this.bytes = 0;
  }
}
