/**
 * The first `k` items of `count` items in the order of `compare`, without sorting them all: a bounded
 * max-heap keeps the best k seen so far (O(count · log k)), which is what a search page needs when a
 * common word matches most of the dataset.
 */
export function topK(
  count: number,
  k: number,
  compare: (a: number, b: number) => number,
  /** Optional: true when `item` cannot come before `worst` (a cheap test that spares most comparisons). */
  cannotBeat?: (item: number, worst: number) => boolean,
): number[] {
  if (k <= 0 || count === 0) return [];
  if (count <= k * 4) {
    const all = Array.from({ length: count }, (_, i) => i);
    return all.sort(compare).slice(0, k);
  }
  // heap[0] is the worst of the kept items (the greatest under `compare`).
  const heap: number[] = [];
  const worse = (a: number, b: number) => compare(a, b) > 0;
  const siftUp = (index: number) => {
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!worse(heap[index]!, heap[parent]!)) break;
      [heap[index], heap[parent]] = [heap[parent]!, heap[index]!];
      index = parent;
    }
  };
  const siftDown = (index: number) => {
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let largest = index;
      if (left < heap.length && worse(heap[left]!, heap[largest]!)) largest = left;
      if (right < heap.length && worse(heap[right]!, heap[largest]!)) largest = right;
      if (largest === index) return;
      [heap[index], heap[largest]] = [heap[largest]!, heap[index]!];
      index = largest;
    }
  };
  for (let item = 0; item < count; item++) {
    if (heap.length < k) {
      heap.push(item);
      siftUp(heap.length - 1);
    } else if (!(cannotBeat?.(item, heap[0]!) ?? false) && compare(item, heap[0]!) < 0) {
      heap[0] = item;
      siftDown(0);
    }
  }
  return heap.sort(compare);
}
