/**
 * In-process latency of a call, the one way the benches measure it: the median and p99 of many timed runs
 * after some untimed ones (so what is measured is the warm path, not the first compile).
 */

/** The value at quantile `p` (0 to 1) of `sorted`, ascending; NaN when it is empty. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

/** Median and p99 in milliseconds of `calls` runs of `fn`, after `warmUps` runs that are not timed. */
export function latency(fn: () => unknown, calls: number, warmUps: number): { medianMs: number; p99Ms: number } {
  for (let i = 0; i < warmUps; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const start = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { medianMs: percentile(times, 0.5), p99Ms: percentile(times, 0.99) };
}
