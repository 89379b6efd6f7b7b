/** The pipeline's one worker pool (src/pipeline/bounded.ts). */
import { describe, expect, it } from 'vitest';
import { mapBounded } from '../../src/pipeline/bounded.js';

describe('mapBounded', () => {
  it('runs at most `concurrency` calls at once and keeps the items order in the results', async () => {
    let running = 0;
    let most = 0;
    const progress: number[] = [];
    const results = await mapBounded(
      [5, 1, 4, 2, 3, 0],
      2,
      async (n) => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, n));
        running--;
        return n * 10;
      },
      (done) => progress.push(done),
    );
    expect(results).toEqual([50, 10, 40, 20, 30, 0]);
    expect(most).toBe(2);
    expect(progress).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('does nothing for no items and runs one at a time for a bound below one', async () => {
    expect(await mapBounded([], 4, () => Promise.resolve(1))).toEqual([]);
    let running = 0;
    let most = 0;
    await mapBounded([1, 2, 3], 0, async () => {
      most = Math.max(most, ++running);
      await Promise.resolve();
      running--;
    });
    expect(most).toBe(1);
  });
});
