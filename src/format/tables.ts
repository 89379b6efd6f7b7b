/**
 * Tables inside binary artifacts (`binary.ts`), shared by the build that writes them and the server that
 * reads them: texts in one blob with their end offsets (names, terms, filter values), and lists of record
 * ids (with optional scores) back to back. Reading either costs nothing up front: a text is decoded when
 * it is asked for, so a million names or terms need no parse and no million strings in memory.
 */
import type { Range, U32Artifact, U32Writer } from './binary.js';
import { byCodeUnits } from './name-order.js';
import { FNV_OFFSET, FNV_PRIME } from './fnv.js';

/** Where a string table lives in an artifact. */
export interface StringTableRanges {
  bytes: Range;
  ends: Range;
}

/** Where a posting table lives in an artifact (scores optional). */
export interface PostingTableRanges {
  starts: Range;
  ids: Range;
  scores?: Range;
}

export function addStrings(writer: U32Writer, strings: readonly string[]): StringTableRanges {
  const ends = new Uint32Array(strings.length);
  const parts: Buffer[] = [];
  let at = 0;
  strings.forEach((text, i) => {
    const bytes = Buffer.from(text, 'utf8');
    parts.push(bytes);
    ends[i] = at += bytes.length;
  });
  return { bytes: writer.addBytes(Buffer.concat(parts)), ends: writer.add(ends) };
}

/** Lists of ids (and their scores, stored as float32 bits) back to back, with where each starts. */
export function addPostings(
  writer: U32Writer,
  lists: readonly { ids: ArrayLike<number>; scores?: Float32Array }[],
  withScores = false,
): PostingTableRanges {
  const starts = new Uint32Array(lists.length + 1);
  lists.forEach((list, i) => (starts[i + 1] = starts[i]! + list.ids.length));
  const total = starts[lists.length]!;
  const ids = new Uint32Array(total);
  const scores = withScores ? new Float32Array(total) : undefined;
  lists.forEach((list, i) => {
    ids.set(list.ids, starts[i]);
    if (scores && list.scores) scores.set(list.scores, starts[i]);
  });
  return {
    starts: writer.add(starts),
    ids: writer.add(ids),
    ...(scores ? { scores: writer.add(new Uint32Array(scores.buffer)) } : {}),
  };
}

export class StringTable {
  private readonly blob: Buffer;
  private readonly ends: Uint32Array;

  constructor(artifact: U32Artifact, ranges: StringTableRanges) {
    this.blob = artifact.bytes(ranges.bytes);
    this.ends = artifact.slice(ranges.ends);
  }

  get length(): number {
    return this.ends.length;
  }

  at(i: number): string {
    return this.blob.toString('utf8', i === 0 ? 0 : this.ends[i - 1]!, this.ends[i]!);
  }

  /**
   * Entry `i` lower-cased against `lowered` (UTF-8 bytes of a lower-cased string), in code-point order (which
   * UTF-8 bytes keep): negative, zero or positive; or undefined when a non-ASCII byte of the entry comes
   * before the order is settled, since lower-casing beyond ASCII is not a byte operation (`K`, the Kelvin
   * sign, lower-cases to `k`). No string is made: a name's binary search reads bytes only.
   */
  compareLowerAscii(i: number, lowered: Uint8Array): number | undefined {
    const blob = this.blob;
    const start = i === 0 ? 0 : this.ends[i - 1]!;
    const length = this.ends[i]! - start;
    const shared = Math.min(length, lowered.length);
    for (let k = 0; k < shared; k++) {
      let byte = blob[start + k]!;
      if (byte >= 0x80) return undefined;
      if (byte >= 0x41 && byte <= 0x5a) byte |= 0x20;
      if (byte !== lowered[k]) return byte - lowered[k]!;
    }
    // Equal so far: the shorter sorts first (what follows in the longer one lower-cases to something).
    return length - lowered.length;
  }

  /**
   * `fnv1a` of entry `i` lower-cased, read from its bytes (an ASCII byte is its own UTF-16 code
   * unit), or undefined when it holds a non-ASCII byte and only its string can say.
   */
  hashLowerAscii(i: number): number | undefined {
    const blob = this.blob;
    const end = this.ends[i]!;
    let hash = FNV_OFFSET;
    for (let k = i === 0 ? 0 : this.ends[i - 1]!; k < end; k++) {
      let byte = blob[k]!;
      if (byte >= 0x80) return undefined;
      if (byte >= 0x41 && byte <= 0x5a) byte |= 0x20;
      hash = Math.imul(hash ^ byte, FNV_PRIME);
    }
    return hash >>> 0;
  }

  /**
   * Whether entry `i` lower-cased equals `lowered`, read from its bytes (an ASCII byte is its own UTF-16
   * code unit, and lower-cases to one), or undefined when a non-ASCII byte comes before a difference.
   */
  equalsLowerAscii(i: number, lowered: string): boolean | undefined {
    const blob = this.blob;
    const start = i === 0 ? 0 : this.ends[i - 1]!;
    const end = this.ends[i]!;
    for (let k = start; k < end; k++) {
      let byte = blob[k]!;
      if (byte >= 0x80) return undefined;
      if (byte >= 0x41 && byte <= 0x5a) byte |= 0x20;
      if (byte !== lowered.charCodeAt(k - start)) return false;
    }
    return end - start === lowered.length;
  }

  /**
   * Entry `i` against `text` in code-unit order (negative, zero or positive), read from its bytes while both
   * are ASCII (an ASCII byte is its own code unit); past a non-ASCII character on either side, from the
   * entry's string, since UTF-8 bytes sort astral characters differently from their code units.
   */
  compare(i: number, text: string): number {
    const blob = this.blob;
    const start = i === 0 ? 0 : this.ends[i - 1]!;
    const length = this.ends[i]! - start;
    const shared = Math.min(length, text.length);
    for (let k = 0; k < shared; k++) {
      const byte = blob[start + k]!;
      const unit = text.charCodeAt(k);
      if (byte >= 0x80 || unit >= 0x80) return byCodeUnits(this.at(i), text);
      if (byte !== unit) return byte - unit;
    }
    // Equal so far and ASCII: the shorter sorts first (the entry's remaining bytes are whole characters).
    return length - text.length;
  }

  /** Position of `text` in a table sorted with `byCodeUnits`, or -1. */
  find(text: string): number {
    let low = 0;
    let high = this.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const order = this.compare(middle, text);
      if (order === 0) return middle;
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }
}

export class PostingTable {
  private readonly starts: Uint32Array;
  private readonly ids: Uint32Array;
  private readonly scores: Float32Array;

  constructor(artifact: U32Artifact, ranges: PostingTableRanges) {
    this.starts = artifact.slice(ranges.starts);
    this.ids = artifact.slice(ranges.ids);
    const words = ranges.scores ? artifact.slice(ranges.scores) : new Uint32Array(0);
    this.scores = new Float32Array(words.buffer, words.byteOffset, words.length);
    if (this.starts.length === 0 || this.starts[this.starts.length - 1] !== this.ids.length) {
      throw new Error('a posting table whose lists do not add up');
    }
  }

  get length(): number {
    return this.starts.length - 1;
  }

  idsAt(i: number): Uint32Array {
    return this.ids.subarray(this.starts[i]!, this.starts[i + 1]!);
  }

  scoresAt(i: number): Float32Array {
    return this.scores.subarray(this.starts[i]!, this.starts[i + 1]!);
  }
}

/** A sorted key table and its lists: `get(key)` is a binary search, nothing is parsed up front. */
export class KeyedPostings {
  private readonly keys: StringTable;
  private readonly lists: PostingTable;

  constructor(artifact: U32Artifact, ranges: { keys: StringTableRanges; lists: PostingTableRanges }) {
    this.keys = new StringTable(artifact, ranges.keys);
    this.lists = new PostingTable(artifact, ranges.lists);
    if (this.keys.length !== this.lists.length) throw new Error('a keyed table with more keys than lists, or fewer');
  }

  get(key: string): Uint32Array | undefined {
    const at = this.keys.find(key);
    return at < 0 ? undefined : this.lists.idsAt(at);
  }
}

/** Write `map` (key → ascending ids) as a keyed table. */
export function addKeyedPostings(writer: U32Writer, map: ReadonlyMap<string, ArrayLike<number>>) {
  // The default sort compares code units, as `byCodeUnits` does, without a call per comparison.
  const keys = [...map.keys()].sort();
  return {
    keys: addStrings(writer, keys),
    lists: addPostings(
      writer,
      keys.map((key) => ({ ids: map.get(key)! })),
    ),
  };
}
