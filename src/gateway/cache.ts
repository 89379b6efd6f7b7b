/**
 * The in-instance response cache (specification section 8.7, decisions section 5): computed answers kept
 * for at most one hour, bounded by entries and by size, least recently used first out. The key is the
 * snapshot id plus the normalised request, so a new snapshot never answers from an old one's entries.
 *
 * An entry holds the parts of a body that do not depend on whether it came from the cache (the `data`
 * JSON text and the rest of `meta`), so a hit costs one string concatenation and `meta.cached` is `true`
 * exactly when the body came from here.
 */

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

export interface CachedAnswer {
  /** The weak ETag of this answer. */
  etag: string;
  /** The `data` member as JSON text. */
  data: string;
  /** The members of `meta` after `cached`, as JSON text starting with a comma (or empty). */
  metaTail: string;
}

interface Entry {
  answer: CachedAnswer;
  expiresAtMs: number;
  size: number;
}

/** An LRU map with expiry. A Map iterates in insertion order, so re-inserting on a hit keeps it ordered. */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private readonly options: CacheOptions;

  constructor(options: Partial<CacheOptions> = {}) {
    const merged = { ...DEFAULT_CACHE_OPTIONS, ...options };
    this.options = { ...merged, ttlMs: Math.min(merged.ttlMs, MAX_CACHE_TTL_MS) };
  }

  /** The live answer for `key`, or undefined (absent or expired). */
  get(key: string, nowMs: number): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    if (entry.expiresAtMs <= nowMs) {
      this.bytes -= entry.size;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry.answer;
  }

  /** Keep `answer` under `key`; evicts the least recently used entries past either bound. */
  set(key: string, answer: CachedAnswer, nowMs: number): void {
    const size = key.length + answer.data.length + answer.metaTail.length + answer.etag.length;
    // One answer bigger than a quarter of the budget would flush everything else for little gain.
    if (size > this.options.maxBytes / 4 || this.options.maxEntries < 1 || this.options.ttlMs <= 0) return;
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.entries.delete(key);
      this.bytes -= previous.size;
    }
    this.entries.set(key, { answer, expiresAtMs: nowMs + this.options.ttlMs, size });
    this.bytes += size;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.options.maxEntries && this.bytes <= this.options.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.size;
    }
  }

  get size(): number {
    return this.entries.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}
