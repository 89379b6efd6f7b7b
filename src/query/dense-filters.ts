/**
 * Large filter lists (a flag, target or namespace many records share) as bit sets with per-score counts,
 * made on first use and kept. With one, a filtered page needs no pass over every match: the total is a
 * count read off (`atLeast[min_score]`), and the page walks the sort order testing one bit per record
 * until it has `offset + limit` matches. Without, each request marked all of the list's ids first (30,000
 * steps for a flag a third of 100,000 records carry).
 *
 * Only lists of at least `minSize` ids get one (default: 1/64 of the records, and at least 2,048), so there
 * are at most 64 per record a filter kind files each record under (one namespace, a few targets, a few
 * flags), each `count / 8` bytes: a few MB at 100,000 records, tens of MB at 1,000,000 at the very worst.
 */

export interface DenseFilter {
  /** Bit `id` set when record `id` is in the list. */
  bits: Uint32Array;
  /** atLeast[m]: how many records of the list have a trust score of m or more (m in 0..101). */
  atLeast: Uint32Array;
}

export interface DenseFilterOptions {
  /** The smallest list that gets a dense form (tests set it low to exercise this path). */
  denseFilterMinSize?: number;
}

export function createDenseFilters(count: number, options: DenseFilterOptions = {}) {
  const minSize = options.denseFilterMinSize ?? Math.max(2048, Math.ceil(count / 64));
  const made = new Map<string, DenseFilter>();

  /**
   * The dense form of `ids` (ascending record ids filed under `key` of filter `kind`), or undefined when
   * the list is too small to need one.
   */
  return function denseFilter(
    kind: string,
    key: string,
    ids: Uint32Array,
    trustScore: Uint32Array,
  ): DenseFilter | undefined {
    if (ids.length < minSize) return undefined;
    const name = `${kind}\u0000${key}`;
    let filter = made.get(name);
    if (filter === undefined) {
      const bits = new Uint32Array(Math.ceil(count / 32));
      const atLeast = new Uint32Array(102);
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i]!;
        bits[id >>> 5]! |= 1 << (id & 31);
        atLeast[trustScore[id]!]!++;
      }
      for (let score = 100; score >= 0; score--) atLeast[score]! += atLeast[score + 1]!;
      filter = { bits, atLeast };
      made.set(name, filter);
    }
    return filter;
  };
}
