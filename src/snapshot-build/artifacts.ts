/**
 * From validated records to the content of every artifact: name order, one sorted index per sort field,
 * the filter postings, the statistics and the reverse-lookup table (the word indexes: `word-indexes.ts`). Pure computation: writing is build.ts's job.
 */
import { SORT_FIELDS, splitName, type IndexedRecord, type SortField, type Stats } from '../model/schema.js';
import { codePointComparator } from '../format/name-order.js';
import { buildLookup, type LookupArtifact } from '../format/lookup-table.js';
import type { Postings, SortIndex, SortIndexes } from '../format/index-layout.js';
import { computeStats } from './stats.js';

export type { Postings, SortIndex, SortIndexes } from '../format/index-layout.js';

export interface Artifacts {
  /** The records in name order: record id N is `records[N]`. */
  records: IndexedRecord[];
  /** Where each record came in the input (record id N was input record `inputIndex[N]`): how its text is found. */
  inputIndex: number[];
  names: string[];
  columns: { trust_score: number[] };
  stats: Stats;
  sortIndexes: SortIndexes;
  postings: Postings;
  lookup: LookupArtifact;
}

type SortKey = (record: IndexedRecord) => number | string;

/** The key each sort field orders by; ties always fall back to name order (the record id). */
const SORT_KEYS: Record<Exclude<SortField, 'name'>, SortKey> = {
  trust_score: (r) => r.trust_score,
  namespace: (r) => splitName(r.name).namespace.toLowerCase(),
  provenance: (r) => r.scores.provenance,
  maintenance: (r) => r.scores.maintenance,
  popularity: (r) => r.scores.popularity,
  permissions: (r) => r.scores.permissions,
  scored_at: (r) => Date.parse(r.scored_at),
};

type Compare = (a: number | string, b: number | string) => number;

/** How keys of one field compare: numbers by value, strings by code point (natively when that is exact). */
function keyComparator(keys: readonly (number | string)[]): Compare {
  if (keys.every((key) => typeof key === 'number')) return (a, b) => (a as number) - (b as number);
  const strings = codePointComparator(keys.map(String));
  return (a, b) => strings(String(a), String(b));
}

/** Record ids in ascending order of `keys`, ties by id: a counting sort for small whole numbers (scores). */
function sortAscending(keys: readonly (number | string)[], compareKeys: Compare): number[] {
  const n = keys.length;
  const small = keys.every((key) => typeof key === 'number' && Number.isInteger(key) && key >= 0 && key <= 1000);
  if (!small) {
    return Array.from({ length: n }, (_, id) => id).sort((a, b) => compareKeys(keys[a]!, keys[b]!) || a - b);
  }
  const counts = new Uint32Array(1002);
  for (const key of keys as number[]) counts[key + 1]!++;
  for (let key = 1; key < counts.length; key++) counts[key]! += counts[key - 1]!;
  const ids = new Array<number>(n);
  for (let id = 0; id < n; id++) ids[counts[keys[id] as number]!++] = id;
  return ids;
}

/**
 * Descending order of the keys with ties still by id ascending: the ascending order's runs of equal keys,
 * taken from the last run to the first, each kept as it is.
 */
function descendingFrom(asc: readonly number[], keys: readonly (number | string)[], compareKeys: Compare): number[] {
  const desc = new Array<number>(asc.length);
  let out = 0;
  for (let end = asc.length; end > 0;) {
    let start = end - 1;
    while (start > 0 && compareKeys(keys[asc[start - 1]!]!, keys[asc[end - 1]!]!) === 0) start--;
    for (let i = start; i < end; i++) desc[out++] = asc[i]!;
    end = start;
  }
  return desc;
}

/** Decisions §6: `order` reverses the sort field only; ties stay name ascending. */
export function buildSortIndex(records: readonly IndexedRecord[], field: SortField): SortIndex {
  if (field === 'name') {
    const ids = records.map((_, id) => id);
    return { asc: ids, desc: [...ids].reverse() };
  }
  const keys = records.map(SORT_KEYS[field]);
  const compareKeys = keyComparator(keys);
  const asc = sortAscending(keys, compareKeys);
  return { asc, desc: descendingFrom(asc, keys, compareKeys) };
}

function addPosting(map: Record<string, number[]>, value: string, id: number): void {
  const key = value.toLowerCase();
  // Own-property check: a value such as "constructor" must not find Object.prototype's.
  if (Object.hasOwn(map, key)) map[key]!.push(id);
  else map[key] = [id];
}

export function computeArtifacts(input: readonly IndexedRecord[]): Artifacts {
  // Name order (compareNames) with each name lower-cased once, not at every comparison.
  const lower = input.map((record) => record.name.toLowerCase());
  const compare = codePointComparator(input.map((record) => record.name).concat(lower));
  const inputIndex = Array.from(input.keys()).sort(
    (a, b) => compare(lower[a]!, lower[b]!) || compare(input[a]!.name, input[b]!.name),
  );
  const records = inputIndex.map((i) => input[i]!);
  const names = records.map((record) => record.name);

  const sortIndexes = Object.fromEntries(
    SORT_FIELDS.map((field) => [field, buildSortIndex(records, field)]),
  ) as SortIndexes;

  const postings: Postings = { flags: {}, target: {}, namespace: {} };
  records.forEach((record, id) => {
    for (const flag of record.flags) addPosting(postings.flags, flag, id);
    for (const target of record.targets) addPosting(postings.target, target, id);
    addPosting(postings.namespace, splitName(record.name).namespace, id);
  });

  return {
    records,
    inputIndex,
    names,
    columns: { trust_score: records.map((record) => record.trust_score) },
    stats: computeStats(records),
    sortIndexes,
    postings,
    lookup: buildLookup(records),
  };
}
