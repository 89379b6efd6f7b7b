/** Where a record id sits in an ascending list of ids (a term's postings). */

/** Position of `id` in the ascending `ids`, or -1. */
export function binarySearch(ids: Uint32Array, id: number): number {
  let low = 0;
  let high = ids.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const value = ids[middle]!;
    if (value === id) return middle;
    if (value < id) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}
