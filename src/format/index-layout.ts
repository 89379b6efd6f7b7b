/**
 * How each index artifact is laid out on disk, both ways. The list indexes (scores, sort orders, filter
 * postings) are binary (`binary.ts`): views on the checked bytes, nothing to parse. The search
 * index is binary too (`word-index-writer.ts`). The reverse-lookup table is JSON lines (`json-lines.ts`), parsed a slice at a time; the history's layout is
 * the history's own (`src/history/history-layout.ts`).
 */
import { SORT_FIELDS, type SortField, type SortOrder } from '../model/schema.js';
import { decodeU32, type Range, U32Writer } from './binary.js';
import { addKeyedPostings, addStrings, KeyedPostings, StringTable, type StringTableRanges } from './tables.js';
import { jsonLinesOf, parseJsonLines, toJsonLines } from './json-lines.js';
import type { LookupArtifact } from './lookup-table.js';
import type { Slicer } from './slicer.js';

/** Record ids (positions in name order) in ascending and descending order of one sort field. */
export interface SortIndex {
  asc: number[];
  desc: number[];
}
export type SortIndexes = Record<SortField, SortIndex>;

/** Filter postings: lower-cased value → ascending record ids. */
export interface Postings {
  flags: Record<string, number[]>;
  target: Record<string, number[]>;
  namespace: Record<string, number[]>;
}

/** Record ids in one order, by `field:order` (`trust_score:desc`). */
export type SortOrders = Map<`${SortField}:${SortOrder}`, Uint32Array>;

export function encodeSortIndexes(sortIndexes: SortIndexes): Buffer {
  const writer = new U32Writer();
  const directory: Record<string, { asc: Range; desc: Range }> = {};
  for (const field of SORT_FIELDS) {
    directory[field] = { asc: writer.add(sortIndexes[field].asc), desc: writer.add(sortIndexes[field].desc) };
  }
  return writer.encode(directory);
}

export function decodeSortIndexes(bytes: Buffer, count: number): SortOrders {
  const artifact = decodeU32(bytes);
  const directory = artifact.directory as Record<string, { asc: Range; desc: Range }>;
  const orders: SortOrders = new Map();
  for (const field of SORT_FIELDS) {
    for (const order of ['asc', 'desc'] as const) {
      const ids = artifact.slice(directory[field]?.[order] ?? [0, -1]);
      if (ids.length !== count) throw new Error(`the ${field} ${order} order holds ${ids.length} ids, not ${count}`);
      orders.set(`${field}:${order}`, ids);
    }
  }
  return orders;
}

export function encodeColumns(columns: { trust_score: number[] }): Buffer {
  const writer = new U32Writer();
  return writer.encode({ trust_score: writer.add(columns.trust_score) });
}

export function decodeColumns(bytes: Buffer, count: number): { trust_score: Uint32Array } {
  const artifact = decodeU32(bytes);
  const trustScore = artifact.slice((artifact.directory as { trust_score: Range }).trust_score ?? [0, -1]);
  if (trustScore.length !== count) throw new Error(`the score column holds ${trustScore.length} values, not ${count}`);
  return { trust_score: trustScore };
}

/** Filter postings: lower-cased value → ascending record ids, per filter (a binary search per lookup). */
export type PostingLists = Record<keyof Postings, KeyedPostings>;

const FILTERS = ['flags', 'target', 'namespace'] as const;

export function encodePostings(postings: Postings): Buffer {
  const writer = new U32Writer();
  return writer.encode(
    Object.fromEntries(
      FILTERS.map((filter) => [filter, addKeyedPostings(writer, new Map(Object.entries(postings[filter])))]),
    ),
  );
}

export function decodePostings(bytes: Buffer): PostingLists {
  const artifact = decodeU32(bytes);
  const directory = artifact.directory as Record<string, ConstructorParameters<typeof KeyedPostings>[1]>;
  return Object.fromEntries(
    FILTERS.map((filter) => [filter, new KeyedPostings(artifact, directory[filter]!)]),
  ) as PostingLists;
}

/** The names in record-id order, as a string table: nothing to parse before the first Get Server. */
export function encodeNames(names: readonly string[]): Buffer {
  const writer = new U32Writer();
  return writer.encode({ names: addStrings(writer, names) });
}

export function decodeNames(bytes: Buffer): StringTable {
  const artifact = decodeU32(bytes);
  return new StringTable(artifact, (artifact.directory as { names: StringTableRanges }).names);
}

/** The reverse-lookup table's lines (`writeLines` writes them; `encodeLookup` is them in one string). */
export function lookupLines(lookup: LookupArtifact): Generator<string> {
  return jsonLinesOf({ ...lookup }, ['packages', 'urls', 'repositories']);
}

export function encodeLookup(lookup: LookupArtifact): string {
  return toJsonLines({ ...lookup }, ['packages', 'urls', 'repositories']);
}

export async function decodeLookup(bytes: Buffer, slicer: Slicer): Promise<LookupArtifact> {
  const { packages = {}, urls = {}, repositories = {} } = await parseJsonLines(bytes, slicer);
  return { packages, urls, repositories } as LookupArtifact;
}
