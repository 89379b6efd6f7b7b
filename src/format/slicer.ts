/**
 * Work done in slices: a long loop asks `nextSlice` between steps, and gives the event loop a turn once the
 * current slice has run for its budget, so requests keep being answered while a snapshot loads.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

export interface Slicer {
  /** Milliseconds a slice may run before it yields. */
  readonly budgetMs: number;
  /** When the current slice started. */
  sliceStart: number;
}

/** A slicer with `budgetMs` per slice. `Infinity` never yields (a build, a test that wants it all now). */
export function createSlicer(budgetMs = 8): Slicer {
  return { budgetMs, sliceStart: performance.now() };
}

/** Yield to the event loop when the slice's budget is spent; otherwise carry on at once. */
export async function nextSlice(slicer: Slicer): Promise<void> {
  if (slicer.budgetMs === Infinity || performance.now() - slicer.sliceStart < slicer.budgetMs) return;
  await nextTurn();
  slicer.sliceStart = performance.now();
}
