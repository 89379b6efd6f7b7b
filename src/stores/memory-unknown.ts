/**
 * The unknown-identifier tallies of the memory store (`UnknownIdentifierStore`): one Map per UTC day in this
 * process's memory. Each call reads and writes with no `await` between, so it is atomic within the process.
 */
import type { UnknownIdentifierStore, UnknownTally } from './types.js';
import { byCountThenIdentifier, checkUnknownArguments } from './unknown-tally.js';

interface DayTally {
  expireAtMs: number;
  counts: Map<string, number>;
}

/** Creates the tallies; `now` is the clock they expire by, `assertOpen` refuses calls after close. */
export function createMemoryUnknown(
  now: () => number,
  assertOpen: (what: string) => void,
): UnknownIdentifierStore & { clear(): void } {
  const days = new Map<string, DayTally>();

  /** The tally of `day`, or undefined when there is none or it has expired (then it is dropped). */
  function live(day: string, nowMs: number): DayTally | undefined {
    const tally = days.get(day);
    if (tally !== undefined && tally.expireAtMs <= nowMs) {
      days.delete(day);
      return undefined;
    }
    return tally;
  }

  return {
    async countUnknown(day, identifiers, maxMembers, expireAtMs) {
      assertOpen('countUnknown');
      checkUnknownArguments('countUnknown', [day], { maxMembers, expireAtMs });
      let tally = live(day, now());
      let counted = 0;
      for (const identifier of identifiers) {
        const count = tally?.counts.get(identifier);
        if (count === undefined && (tally?.counts.size ?? 0) >= maxMembers) continue;
        if (tally === undefined) days.set(day, (tally = { expireAtMs, counts: new Map() }));
        tally.counts.set(identifier, (count ?? 0) + 1);
        counted++;
      }
      return counted;
    },

    async topUnknown(wanted, limit) {
      assertOpen('topUnknown');
      checkUnknownArguments('topUnknown', wanted, { limit });
      const nowMs = now();
      const totals = new Map<string, number>();
      for (const day of new Set(wanted)) {
        for (const [identifier, count] of live(day, nowMs)?.counts ?? []) {
          totals.set(identifier, (totals.get(identifier) ?? 0) + count);
        }
      }
      const tallies: UnknownTally[] = [...totals].map(([identifier, count]) => ({ identifier, count }));
      return tallies.sort(byCountThenIdentifier).slice(0, limit);
    },

    clear() {
      days.clear();
    },
  };
}
