/**
 * A snapshot's records as the JSON the API answers with: one record, or a page of them as an array, as text,
 * as a binary string (one character per stored UTF-8 byte), or copied as bytes into a buffer that goes to
 * the socket as it is (`gateway/body-pool.ts`). Nothing is parsed or re-serialized: the stored bytes are
 * the answer's.
 */
import type { RecordFile } from './record-file.js';

export interface RecordPages {
  recordJson(id: number): string;
  pageJson(ids: readonly number[]): string;
  recordsBinary(records: number | readonly number[]): string;
  recordsByteLength(records: number | readonly number[]): number;
  copyRecords(records: number | readonly number[], target: Buffer, at: number): number;
}

export function recordPages(records: RecordFile): RecordPages {
  const recordJson = (id: number) => records.json(id);
  const pageJson = (ids: readonly number[]) => {
    const parts = new Array<string>(ids.length);
    for (let i = 0; i < ids.length; i++) parts[i] = recordJson(ids[i]!);
    return `[${parts.join(',')}]`;
  };

  /** The bytes of records `ids` as a JSON array: `[`, the records, commas, `]`. */
  function pageByteLength(ids: readonly number[]): number {
    let size = Math.max(1, ids.length) + 1; // the brackets and the commas between records
    for (let i = 0; i < ids.length; i++) size += records.byteLength(ids[i]!);
    return size;
  }

  /** Copy records `ids` as a JSON array into `target` from `at` on; returns where it ends. */
  function copyPage(ids: readonly number[], target: Buffer, at: number): number {
    target[at++] = 0x5b;
    for (let i = 0; i < ids.length; i++) {
      if (i > 0) target[at++] = 0x2c;
      at += records.copy(ids[i]!, target, at);
    }
    target[at++] = 0x5d;
    return at;
  }

  /**
   * Where a page's records are put together as bytes, then made one binary string: a copy per record and
   * one string, where a string per record joined cost two copies and an allocation per record. Grown to the
   * largest page asked for (at most `limit` records), then reused.
   */
  let pageBytes = Buffer.allocUnsafe(64 * 1024);
  function pageBinary(ids: readonly number[]): string {
    const size = pageByteLength(ids);
    if (size > pageBytes.length) pageBytes = Buffer.allocUnsafe(Math.max(size, pageBytes.length * 2));
    return pageBytes.toString('latin1', 0, copyPage(ids, pageBytes, 0));
  }
  const recordsBinary = (recordIds: number | readonly number[]): string =>
    typeof recordIds === 'number' ? records.binary(recordIds) : pageBinary(recordIds);
  const recordsByteLength = (recordIds: number | readonly number[]): number =>
    typeof recordIds === 'number' ? records.byteLength(recordIds) : pageByteLength(recordIds);
  const copyRecords = (recordIds: number | readonly number[], target: Buffer, at: number): number =>
    typeof recordIds === 'number' ? at + records.copy(recordIds, target, at) : copyPage(recordIds, target, at);

  return { recordJson, pageJson, recordsBinary, recordsByteLength, copyRecords };
}
