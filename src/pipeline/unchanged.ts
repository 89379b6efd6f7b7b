/**
 * How many of a night's records are unchanged since the last: each compared, but for `scored_at`, with the
 * previous dataset in `--out`, which is read a chunk at a time and kept as one digest per record.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import * as z from 'zod';
import type { ServerRecord } from '../model/schema.js';

/** A record without `scored_at`, as a digest: what "unchanged since the last run" compares. */
const recordDigest = (record: object) => {
  const { scored_at: _ignored, ...rest } = record as { scored_at?: unknown };
  return createHash('sha256').update(JSON.stringify(rest)).digest('base64');
};

const PreviousRecordSchema = z.looseObject({ name: z.string() });

/** Bytes read at a time from the previous dataset. */
const READ_CHUNK_BYTES = 1 << 20;

/**
 * The lines of the open file `fd`, as `text.split('\n')` would give them (the last one is what follows the last
 * line feed), read a chunk at a time so that the file is never one string.
 */
function* linesOf(fd: number): Generator<string> {
  const chunk = Buffer.alloc(READ_CHUNK_BYTES);
  let rest = Buffer.alloc(0);
  for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) {
    // A line feed is never part of a multi-byte UTF-8 character, so splitting the bytes there is safe.
    let bytes = rest.length > 0 ? Buffer.concat([rest, chunk.subarray(0, read)]) : chunk.subarray(0, read);
    for (let end = bytes.indexOf(0x0a); end >= 0; end = bytes.indexOf(0x0a)) {
      yield bytes.toString('utf8', 0, end);
      bytes = bytes.subarray(end + 1);
    }
    rest = Buffer.from(bytes);
  }
  yield rest.toString('utf8');
}

/** The digests of a dataset written one record a line (`serializeDataset`), or undefined in any other layout. */
function digestsByLine(fd: number): Map<string, string> | undefined {
  const digests = new Map<string, string>();
  let at: 'opening' | 'records' | 'closed' | 'end' = 'opening';
  try {
    for (const line of linesOf(fd)) {
      if (at === 'opening') {
        if (line !== '[') return undefined;
        at = 'records';
      } else if (at === 'records') {
        if (line === ']') at = 'closed';
        else {
          const record = PreviousRecordSchema.parse(JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line));
          digests.set(record.name, recordDigest(record));
        }
      } else if (at === 'closed' && line === '') at = 'end';
      else return undefined;
    }
  } catch {
    return undefined;
  }
  return at === 'end' ? digests : undefined;
}

/**
 * The previous dataset's records by name, as digests (not whole records: at registry scale the previous dataset
 * held as objects, or as their JSON, would double the night's memory). The dataset is written one record a line
 * (`serializeDataset`), so it is read a line at a time; a file in any other layout is parsed whole.
 */
function previousDigests(file: string): Map<string, string> {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return new Map();
  }
  try {
    const digests = digestsByLine(fd);
    if (digests !== undefined) return digests;
  } finally {
    closeSync(fd);
  }
  try {
    const records = z.array(PreviousRecordSchema).parse(JSON.parse(readFileSync(file, 'utf8')));
    return new Map(records.map((record) => [record.name, recordDigest(record)]));
  } catch {
    return new Map();
  }
}

/**
 * A count of the records identical to the previous dataset's but for `scored_at`, taken a record at a time as
 * they are written (`see`): the previous dataset is read when the counter is made, before its file is replaced.
 */
export function unchangedCounter(file: string): { see: (record: ServerRecord) => void; count: () => number } {
  const previous = previousDigests(file);
  let count = 0;
  return {
    see: (record) => void (previous.get(record.name) === recordDigest(record) && count++),
    count: () => count,
  };
}

/** How many records are identical to the previous dataset's but for `scored_at`. */
export function countUnchanged(file: string, records: Iterable<ServerRecord>): number {
  const counter = unchangedCounter(file);
  for (const record of records) counter.see(record);
  return counter.count();
}
