/**
 * A record's id by its name, case-insensitively. Records are stored in name order, whose first key is the
 * lower-cased name (unique in a snapshot), so a binary search over the names table finds it with nothing to
 * build or hold (`findName`: the history's decoder, which mostly looks names up in order). Get Server, asked
 * for any name at any time, uses `NameIndex`: a hash table of ids made on its first lookup, one probe where
 * the search makes seventeen comparisons at 100,000 names (it was a tenth of an uncached Get Server's time).
 */
import { compareCodePoints } from './name-order.js';
import { fnv1a } from './fnv.js';
import { nextSlice, type Slicer } from './slicer.js';

export interface NameTable {
  readonly length: number;
  at(id: number): string;
  /**
   * Name `id` lower-cased against `lowered` on the stored bytes, or undefined where only strings can say
   * (`StringTable.compareLowerAscii`).
   */
  compareLowerAscii(id: number, lowered: Uint8Array): number | undefined;
  /** `fnv1a` of name `id`, from its stored bytes; undefined when it holds a non-ASCII byte. */
  hashLowerAscii(id: number): number | undefined;
  /**
   * Whether name `id` lower-cased is `lowered` (a lower-cased string), read from its stored bytes; undefined
   * when a non-ASCII byte comes before the answer is settled.
   */
  equalsLowerAscii(id: number, lowered: string): boolean | undefined;
}

/** The id of the record named `name` in any letter case, or undefined. */
export function findName(names: NameTable, name: string): number | undefined {
  const wanted = name.toLowerCase();
  const wantedBytes = Buffer.from(wanted, 'utf8');
  let low = 0;
  let high = names.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    // The bytes first; a name with a non-ASCII character where it matters is compared as a string.
    const order =
      names.compareLowerAscii(middle, wantedBytes) ?? compareCodePoints(names.at(middle).toLowerCase(), wanted);
    if (order === 0) return middle;
    if (order < 0) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}

/**
 * Names → ids by the hash of the lower-cased name: open addressing with linear probes in one Uint32Array
 * of id + 1 (0 is an empty slot), at most half full: 1 MB at 100,000 names, 8 MB at a million. `build`
 * makes it a slice at a time from the stored bytes (no string per name unless it holds a non-ASCII
 * character), too long to make before the first answer, so it is made in the background after the server starts, and
 * until then `find` is `findName`'s binary search. A candidate is confirmed as `findName` compares, so a
 * hash collision never answers a wrong record.
 */
export class NameIndex {
  private slots: Uint32Array | undefined;
  private mask = 0;
  private building: Promise<void> | undefined;

  constructor(private readonly names: NameTable) {}

  /** The id of the record named `name` in any letter case, or undefined. */
  find(name: string): number | undefined {
    const slots = this.slots;
    if (slots === undefined) return findName(this.names, name);
    const wanted = name.toLowerCase();
    const mask = this.mask;
    for (let slot = fnv1a(wanted) & mask; slots[slot] !== 0; slot = (slot + 1) & mask) {
      const id = slots[slot]! - 1;
      const equal = this.names.equalsLowerAscii(id, wanted) ?? this.names.at(id).toLowerCase() === wanted;
      if (equal) return id;
    }
    return undefined;
  }

  /** Make the table, yielding to the event loop as `slicer` says; `find` uses it once it is whole. */
  build(slicer: Slicer): Promise<void> {
    return (this.building ??= (async () => {
      const names = this.names;
      let capacity = 1;
      while (capacity < names.length * 2) capacity *= 2;
      const slots = new Uint32Array(capacity);
      const mask = capacity - 1;
      for (let id = 0; id < names.length; id++) {
        const hash = names.hashLowerAscii(id) ?? fnv1a(names.at(id).toLowerCase());
        let slot = hash & mask;
        while (slots[slot] !== 0) slot = (slot + 1) & mask;
        slots[slot] = id + 1;
        if ((id & 1023) === 1023) await nextSlice(slicer);
      }
      this.mask = mask;
      this.slots = slots;
    })());
  }
}
