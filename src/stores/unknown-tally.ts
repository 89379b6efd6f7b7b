/**
 * What every backend checks of an unknown-identifier call before touching its data, and how tallies are
 * ordered: one place, so the memory and Redis-backed stores refuse and sort alike.
 */
import type { UnknownTally } from './types.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Throws when `day` is not `YYYY-MM-DD` or a number is not a whole one: a caller's bug, never a request's. */
export function checkUnknownArguments(
  what: string,
  days: readonly string[],
  numbers: Readonly<Record<string, number>>,
): void {
  for (const day of days) if (!DAY.test(day)) throw new Error(`${what}: day must be YYYY-MM-DD, got ${day}`);
  for (const [name, value] of Object.entries(numbers)) {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${what}: ${name} must be a whole number`);
  }
}

/** Most counted first, then by identifier (code unit order, as Redis compares strings in the script). */
export function byCountThenIdentifier(a: UnknownTally, b: UnknownTally): number {
  return b.count - a.count || (a.identifier < b.identifier ? -1 : a.identifier > b.identifier ? 1 : 0);
}

/** Whole days a day's tally is kept past its own; the night reads this many days back. */
export const UNKNOWN_DAYS_KEPT = 7;

/** The UTC day (`YYYY-MM-DD`) of `ms`, which names a tally. */
export function unknownDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The tallies' days from `ms`'s back over `UNKNOWN_DAYS_KEPT` more: the ones the store may still hold. */
export function recentUnknownDays(ms: number): string[] {
  return Array.from({ length: UNKNOWN_DAYS_KEPT + 1 }, (_, back) => unknownDay(ms - back * 86_400_000));
}
