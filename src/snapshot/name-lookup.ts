/**
 * A record's id by its name, case-insensitively: records are stored in name order, whose first key is the
 * lower-cased name (unique in a snapshot), so a binary search over the names table finds it without a
 * lookup table to build or hold.
 */
import { compareCodePoints } from './order.js';

export interface NameTable {
  readonly length: number;
  at(id: number): string;
  /**
   * Name `id` lower-cased against `lowered` on the stored bytes, or undefined where only strings can say
   * (`StringTable.compareLowerAscii`).
   */
  compareLowerAscii(id: number, lowered: Uint8Array): number | undefined;
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
