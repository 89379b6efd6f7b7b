/**
 * Skipping ahead in a sort order. Per block of positions of an order, how many of the block's records have
 * each trust score or more: all of them, or only those of one large filter (its bits, `dense-filters.ts`).
 * A page deep in a filtered order then skips whole blocks by their counts instead of testing every record
 * before it (100,000 records before the page at offset N/10 of a million; thousands before the tenth page
 * of a rare flag with a high `min_score`).
 *
 * Counts are made on first use of an order (and filter) and kept. An order's counts take 102 numbers a
 * block: blocks of 1,024 positions for the unfiltered orders (16 orders: 3 MB at a million records), and
 * for each filter blocks of at least 1/512 of the records (at least 256 positions), so any filter and
 * order costs at most 104 KB. A walk after the skip goes through at most one block before its page, so
 * smaller blocks make a filtered page with a high `min_score` cheaper: blocks of 1/128 of the records
 * walked a thousand positions or so more (docs/performance.md, "Figures behind the code").
 */

/** Where a walk for the match at `offset` may start, and how many matches come before that position. */
export interface BlockSkip {
  position: number;
  seen: number;
}

/** Scores run from 0 to 100; one more slot keeps "101 or more" (none) so every `score + 1` is in range. */
const SLOTS = 102;

export function createBlockCounts(count: number) {
  const made = new Map<string, { size: number; counts: Uint16Array }>();
  // A block's count must fit 16 bits; blocks for filters grow with the records, in powers of two.
  const filteredSize = Math.min(32_768, Math.max(256, 2 ** Math.ceil(Math.log2(count / 512))));

  function countsOf(key: string, ordered: Uint32Array, trustScore: Uint32Array, bits: Uint32Array | undefined) {
    let kept = made.get(key);
    if (kept === undefined) {
      const size = bits === undefined ? 1024 : filteredSize;
      const blocks = Math.ceil(ordered.length / size);
      const counts = new Uint16Array(blocks * SLOTS);
      for (let position = 0; position < ordered.length; position++) {
        const id = ordered[position]!;
        if (bits !== undefined && (bits[id >>> 5]! & (1 << (id & 31))) === 0) continue;
        counts[Math.floor(position / size) * SLOTS + trustScore[id]!]!++;
      }
      // Per block, from counts of each score to counts of each score or more.
      for (let block = 0; block < blocks; block++)
        for (let score = SLOTS - 3; score >= 0; score--)
          counts[block * SLOTS + score]! += counts[block * SLOTS + score + 1]!;
      kept = { size, counts };
      made.set(key, kept);
    }
    return kept;
  }

  return {
    /** The positions a walk may find after the skip before it reaches its page: at most one block's. */
    blockSize: (filtered: boolean): number => (filtered ? filteredSize : 1024),

    /**
     * Where to start walking `ordered` (named `key`, with the filter's name when `bits` is given) for the
     * match at `offset` among the records scoring `minScore` or more (of the filter when `bits` is given).
     */
    skip(
      key: string,
      ordered: Uint32Array,
      trustScore: Uint32Array,
      bits: Uint32Array | undefined,
      minScore: number,
      offset: number,
    ): BlockSkip {
      const { size, counts } = countsOf(key, ordered, trustScore, bits);
      let position = 0;
      let seen = 0;
      for (let block = 0; (block + 1) * size <= ordered.length; block++) {
        const matching = counts[block * SLOTS + minScore]!;
        if (seen + matching > offset) break;
        seen += matching;
        position += size;
      }
      return { position, seen };
    },
  };
}
