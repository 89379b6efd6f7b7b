/**
 * Bounded concurrency for the pipeline's steps: at most `concurrency` calls of `work` run at once, each item
 * taken in order as a slot frees, the results in the items' order. The one worker pool every step (GitHub,
 * package registries, advisories, probes) uses, so a step's load on a service is the bound and nothing more.
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
  onEach?: (done: number, total: number) => void,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
      onEach?.(++done, items.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  return results;
}
