/**
 * The night's join, a record at a time: the records and the registry feed that `joinDatasets` and
 * `importRegistryEntries` make from the whole registry at once, made here one server at a time from the
 * collected entries and their scores, so that a night never holds its records, the parsed copy of every entry
 * or the feed's entries all together: at registry scale those were most of the night's memory. The records
 * are made again each time they are read (the join is a pure function of the entries and the scores), and a
 * record is the one `joinDatasets` would make, left out for the same reasons.
 */
import { RegistryDumpSchema, type RegistryDumpEntry } from '../dataset/inputs.js';
import { UpstreamEntrySchema } from '../registry/upstream.js';
import type { ScorecardIndex } from '../dataset/inputs.js';
import { pickNewestVersion } from '../dataset/install.js';
import {
  caseTwins,
  compareNames,
  normaliseScoredAt,
  recordOrLeftOut,
  refusedNameReason,
  type LeftOut,
} from '../dataset/join.js';
import { importRegistryEntries } from '../dataset/registry.js';
import type { ServerRecord } from '../model/schema.js';
import type { RegistryEntry } from '../registry/schema.js';
import type { CollectedEntry } from './collect.js';

export interface NightJoin {
  /** The servers that make a record, in name order. */
  names: string[];
  /** The scored servers left out, by name order, with the reason (as `joinDatasets` gives them). */
  leftOut: LeftOut[];
  /** Records with at least one flag. */
  flagged: number;
  /** The records of `names`, in name order, made anew on each call. */
  records: () => Generator<ServerRecord>;
  /** The feed's entries of `names` (`importRegistryEntries`), in name order, and how many it refused so far. */
  feed: () => { entries: Generator<RegistryEntry>; refused: () => number };
}

/** The collected entries, one per name, read by index (`EntryFile`). */
export interface Entries extends Iterable<CollectedEntry> {
  readonly names: readonly string[];
  get(index: number): CollectedEntry;
}

/** `entries` joined with `scorecard`, which scores each of them by name. */
export function joinNight(entries: Entries, scorecard: ScorecardIndex): NightJoin {
  const scoredAt = normaliseScoredAt(scorecard.generated_at);
  // An entry the importer's schema refuses fails the night as the whole registry parsed at once did, same error.
  for (const entry of entries) {
    if (!UpstreamEntrySchema.safeParse(entry).success) RegistryDumpSchema.parse([...entries]);
  }
  const at = new Map<string, number>();
  entries.names.forEach((name, index) => at.set(name, index));
  const versionsOf = (name: string): RegistryDumpEntry[] | undefined => {
    const index = at.get(name);
    return index === undefined ? undefined : [UpstreamEntrySchema.parse(entries.get(index))];
  };
  const recordOf = (name: string) =>
    recordOrLeftOut(name, scorecard.servers[name]!, pickNewestVersion(versionsOf(name) ?? []), scoredAt);

  const leftOut: LeftOut[] = [];
  const refused = new Set<string>();
  const scoredNames = Object.keys(scorecard.servers);
  for (const name of scoredNames) {
    const reason = refusedNameReason(name);
    if (reason === undefined) continue;
    leftOut.push({ name, reason });
    refused.add(name);
  }
  const candidates = scoredNames.filter((name) => !refused.has(name));
  for (const twin of caseTwins(candidates, { get: versionsOf })) {
    leftOut.push(twin);
    refused.add(twin.name);
  }
  const names: string[] = [];
  let flagged = 0;
  for (const name of candidates.filter((candidate) => !refused.has(candidate)).sort(compareNames)) {
    const record = recordOf(name);
    if ('reason' in record) {
      leftOut.push(record);
      continue;
    }
    names.push(name);
    if (record.flags.length > 0) flagged++;
  }

  function* records(): Generator<ServerRecord> {
    for (const name of names) {
      const record = recordOf(name);
      // The same inputs made a record a moment ago: anything else is a fault of this module, never published.
      if ('reason' in record) throw new Error(`the record of ${name} could not be made again: ${record.reason}`);
      yield record;
    }
  }
  function feed() {
    let refusedEntries = 0;
    function* made(): Generator<RegistryEntry> {
      for (const name of names) {
        const raw = entries.get(at.get(name)!);
        const one = importRegistryEntries([name], [UpstreamEntrySchema.parse(raw)], [raw]);
        refusedEntries += one.refused.length;
        yield* one.entries;
      }
    }
    return { entries: made(), refused: () => refusedEntries };
  }
  return { names, leftOut: leftOut.sort((a, b) => compareNames(a.name, b.name)), flagged, records, feed };
}

/**
 * `[...a, ...b].sort(compareNames by name)` for `a` already in name order, without holding `a`: `b` (a few
 * records) is sorted here, and a record of `a` goes before one of `b` of the same name, as the stable sort kept it.
 */
export function* mergeByName<T extends { name: string }>(a: Iterable<T>, b: readonly T[]): Generator<T> {
  const rest = [...b].sort((x, y) => compareNames(x.name, y.name));
  let next = 0;
  for (const item of a) {
    while (next < rest.length && compareNames(rest[next]!.name, item.name) < 0) yield rest[next++]!;
    yield item;
  }
  while (next < rest.length) yield rest[next++]!;
}
