/**
 * A deep search page ranks many matches at once: `offset=10000` of a word most names hold asks for the best
 * 10,020 of hundreds of thousands at a million records. A comparator sort or a large heap costs a function
 * call per comparison (tens to hundreds of milliseconds there, on the event loop); here each match gets one
 * number that orders exactly as the comparison would, and the engine's native numeric sort does the rest.
 *
 * The number, smallest first: an exact id match before any other (when `exact` is given), then higher
 * relevance, then higher trust score, then lower record id, packed into the 53 bits a double holds exactly:
 * 1 bit exactness, 20 bits the relevance's rank among the distinct relevances, 7 bits `100 - trust`, 24 bits
 * the id. Matches beyond that (ids from 2^24, or over 2^20 distinct relevances) are left to the caller's
 * comparator, which gives the same order.
 *
 * A search's first pages ask for a few dozen of its matches (a search for a server's id matches a dozen or a
 * few hundred), where the packed numbers' two native sorts cost more in setting up than in sorting (a seventh
 * of such a search in process): they are kept by insertion instead (`rankFew`), in the same order.
 */

const ID_BITS = 2 ** 24;
const TRUST_SHIFT = 2 ** 24;
const LEVEL_SHIFT = 2 ** 31;
const MAX_LEVELS = 2 ** 20;
const NOT_EXACT = 2 ** 51;

/** Index of `value` in the ascending, duplicate-free `levels` (present by construction). */
function levelOf(levels: Float32Array, value: number): number {
  let low = 0;
  let high = levels.length - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (levels[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Arrays reused from one ranking to the next, grown as needed (allocating them anew each time, megabytes at a
 * million records, brought on full garbage collections). */
export interface RankScratch {
  relevance: Float32Array;
  levels: Float32Array;
  keys: Float64Array;
}

export const newRankScratch = (): RankScratch => ({
  relevance: new Float32Array(0),
  levels: new Float32Array(0),
  keys: new Float64Array(0),
});

function ensure(scratch: RankScratch, count: number): void {
  if (scratch.keys.length >= count) return;
  const size = Math.max(count, scratch.keys.length * 2);
  scratch.relevance = new Float32Array(size);
  scratch.levels = new Float32Array(size);
  scratch.keys = new Float64Array(size);
}

/**
 * The ids of the best `k` of `items` (indices into `ids` and `scores`), in rank order; undefined when the
 * values do not fit the packed number (see above).
 */
export function rankByKeys(
  items: ArrayLike<number>,
  k: number,
  ids: ArrayLike<number>,
  scores: ArrayLike<number>,
  trustScore: ArrayLike<number>,
  exact?: (id: number) => boolean,
  scratch: RankScratch = newRankScratch(),
): number[] | undefined {
  const count = items.length;
  ensure(scratch, count);
  const relevance = scratch.relevance.subarray(0, count);
  for (let n = 0; n < count; n++) {
    const item = items[n]!;
    if (ids[item]! >= ID_BITS) return undefined;
    relevance[n] = scores[item]!;
  }
  // The distinct relevances, ascending (the scores are float32 values, so copying them loses nothing).
  const sorted = scratch.levels.subarray(0, count);
  sorted.set(relevance);
  sorted.sort();
  let distinct = 0;
  for (let n = 0; n < count; n++) if (n === 0 || sorted[n] !== sorted[n - 1]) sorted[distinct++] = sorted[n]!;
  if (distinct > MAX_LEVELS) return undefined;
  const levels = sorted.subarray(0, distinct);

  const keys = scratch.keys.subarray(0, count);
  for (let n = 0; n < count; n++) {
    const id = ids[items[n]!]!;
    const rank = distinct - 1 - levelOf(levels, relevance[n]!); // 0 for the highest relevance
    keys[n] =
      (exact !== undefined && exact(id) ? 0 : NOT_EXACT) +
      rank * LEVEL_SHIFT +
      (100 - trustScore[id]!) * TRUST_SHIFT +
      id;
  }
  keys.sort();
  const best = new Array<number>(Math.min(k, count));
  for (let n = 0; n < best.length; n++) best[n] = keys[n]! % ID_BITS;
  return best;
}

/**
 * The order of a search's matches, the one every ranking here gives (the packed numbers encode it): as a
 * comparison of positions `i` and `j` in `ids` and `scores`, negative when `i` comes first. Exact id matches
 * (`exact`) first, then higher relevance, then higher trust score, then lower record id (name order).
 */
export function matchOrder(
  ids: ArrayLike<number>,
  scores: ArrayLike<number>,
  trustScore: ArrayLike<number>,
  exact?: (id: number) => boolean,
): (i: number, j: number) => number {
  return (i, j) => {
    const x = ids[i]!;
    const y = ids[j]!;
    if (exact !== undefined) {
      const exactFirst = Number(exact(y)) - Number(exact(x));
      if (exactFirst !== 0) return exactFirst;
    }
    return scores[j]! - scores[i]! || trustScore[y]! - trustScore[x]! || x - y;
  };
}

/** Pages (offset + limit) short enough for `rankFew`, whatever the number of matches. */
export const FEW_RANKED = 64;

/**
 * The ids of the best `k` of `ids` (each with its relevance in `scores`), in the order `rankByKeys` gives,
 * kept by insertion in a list of at most `k`: a match not better than the list's last, once it is full, is
 * passed over with one comparison. With the comparison written out there is no sort to set up and no call
 * per comparison: for a search's first pages (k up to FEW_RANKED), matches one by one cost about one
 * comparison each, and the few that enter the list a shift of at most `k`.
 */
export function rankFew(
  ids: ArrayLike<number>,
  k: number,
  scores: ArrayLike<number>,
  trustScore: ArrayLike<number>,
  exact?: (id: number) => boolean,
): number[] {
  const order = matchOrder(ids, scores, trustScore, exact);
  const before = (i: number, j: number): boolean => order(i, j) < 0;
  const kept: number[] = [];
  if (k <= 0) return kept;
  for (let i = 0; i < ids.length; i++) {
    const full = kept.length === k;
    if (full && !before(i, kept[k - 1]!)) continue;
    // The slot it may take: a new one, or the last one's when the list is full (the last one leaves).
    let at = full ? k - 1 : kept.length;
    while (at > 0 && before(i, kept[at - 1]!)) {
      kept[at] = kept[at - 1]!;
      at--;
    }
    kept[at] = i;
  }
  for (let n = 0; n < kept.length; n++) kept[n] = ids[kept[n]!]!;
  return kept;
}
