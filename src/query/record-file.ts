/**
 * The records artifact, one record per line, found through its index (`records-index.ts`: each line's
 * length and a hash per block). Every byte is checked a block at a time: the blocks a record spans are hashed
 * before it is first returned, and `verifyAll` checks every block (and so the whole file, the block hashes
 * being checked against the manifest with the index) in the background, after the first answer. A file up
 * to IN_MEMORY_MAX_BYTES is read whole when it is opened and kept in memory (a record is a slice of a
 * buffer); a larger one is read on demand, a record being one positioned read of its own bytes. So neither a
 * snapshot of a million servers nor the committed dataset hashes its whole records file before its first Get
 * Server answer, a snapshot costs its indexes rather than its text in memory, and no byte that was not checked
 * is ever returned.
 *
 * Read on demand, the file is kept open: a later build renames a new folder into place and removes the old
 * one, which leaves this open file readable until it is closed, so a warm instance keeps serving what it
 * verified.
 */
import { createHash } from 'node:crypto';
import { readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { blockCount, blockHashMatches, type RecordsIndex } from '../format/records-index.js';
import { RecordRing } from './record-ring.js';
import { nextSlice, type Slicer } from '../format/slicer.js';

export interface RecordFile {
  readonly count: number;
  /** The JSON text of record `id` (its line, without the newline). Throws RecordFileError for a bad block. */
  json(id: number): string;
  /**
   * The UTF-8 bytes of that text as a binary string, one character per byte (checked as `json` checks them):
   * made and written out again as `latin1`, a copy each way, where decoding UTF-8 and encoding it back cost
   * several times that (docs/performance.md, "Bodies of records").
   */
  binary(id: number): string;
  /** The length in bytes of record `id`'s text. */
  byteLength(id: number): number;
  /**
   * Copy record `id`'s bytes (checked as `json` checks them) into `target` at `at`, which must have room for
   * `byteLength(id)` of them; returns how many were copied. A page of records is put together this way in one
   * buffer and made one binary string, rather than a string per record joined.
   */
  copy(id: number, target: Buffer, at: number): number;
  /** Check every byte not checked yet, a slice at a time; rejects with a RecordFileError on the first bad one. */
  verifyAll(slicer: Slicer): Promise<void>;
  close(): void;
}

/** Why a records file cannot be served; the loader turns it into its one-line error. */
export class RecordFileError extends Error {}

/**
 * Records files up to this size are read whole and kept in memory (a record is then a slice of a buffer,
 * with no system call); larger ones are read on demand from the operating system's page cache, which holds
 * the hot records close without counting against the process. 16 MB is about 15,000 records with signals.
 */
export const IN_MEMORY_MAX_BYTES = 16 * 1024 * 1024;

/**
 * The bytes of recently read records kept by a file read on demand (`record-ring.ts`): 16 MB is the records
 * of the first pages of every order, filter and common search (about 14,000 records with signals), and
 * keeps a fully loaded server of 100,000 records within its memory target once the ring has filled.
 */
export const RING_BYTES = 16 * 1024 * 1024;

/** The length in bytes of line `id` without its newline, from where the lines start. */
const lineLength = (offsets: Float64Array, id: number): number => offsets[id + 1]! - offsets[id]! - 1;

/** Where each line starts (and, at `count`, where the file ends), from the index's line lengths. */
function lineOffsets(index: RecordsIndex, expected: { bytes: number; count: number }): Float64Array {
  if (index.lengths.length !== expected.count) {
    throw new RecordFileError(
      `the index holds ${index.lengths.length} lines where the manifest says ${expected.count} records`,
    );
  }
  const offsets = new Float64Array(expected.count + 1);
  for (let id = 0; id < expected.count; id++) offsets[id + 1] = offsets[id]! + index.lengths[id]!;
  if (offsets[expected.count] !== expected.bytes)
    throw new RecordFileError("the index's lines do not add up to the file's size");
  if (blockCount(index) !== Math.ceil(expected.bytes / index.blockBytes))
    throw new RecordFileError('the index has the wrong number of block hashes');
  return offsets;
}

/**
 * Open `file`, check it is `bytes` long and agrees with `index` (already checked against the manifest), and
 * return its reader. Its bytes are checked as read, a block at a time, and whole by `verifyAll` (the index's
 * block hashes stand for `sha256`, the index being checked against the manifest).
 */
export async function openRecordFile(
  file: string,
  expected: { bytes: number; sha256: string; count: number },
  index: RecordsIndex,
  options: { inMemoryMaxBytes?: number; ringBytes?: number } = {},
): Promise<RecordFile> {
  const offsets = lineOffsets(index, expected);
  const handle = await open(file, 'r');
  let keepOpen = false;
  try {
    const size = (await handle.stat()).size;
    if (size !== expected.bytes)
      throw new RecordFileError(`${size} bytes where the manifest says ${expected.bytes} (truncated or altered)`);
    if (size <= (options.inMemoryMaxBytes ?? IN_MEMORY_MAX_BYTES))
      return await inMemory(handle, size, expected, index, offsets);
    keepOpen = true;
    return onDemand(handle, size, expected, index, offsets, { ringBytes: options.ringBytes ?? RING_BYTES });
  } finally {
    if (!keepOpen) await handle.close();
  }
}

/**
 * The block checks of a records file: `check(block)` hashes a block once, against the index's hash, and
 * refuses it (and, from then on, the block it failed on) with a RecordFileError when they differ.
 */
function blockChecks(index: RecordsIndex, readBlock: (block: number) => Buffer) {
  const blocks = blockCount(index);
  /** 1 once a block's hash has matched; a block that failed stays refused (its error is kept). */
  const checked = new Uint8Array(blocks);
  let failure: RecordFileError | undefined;
  function check(block: number): void {
    if (checked[block] === 1) return;
    if (failure) throw failure;
    const digest = createHash('sha256').update(readBlock(block)).digest();
    if (!blockHashMatches(index, block, digest)) {
      failure = new RecordFileError(
        `content does not match the manifest's hash (altered, in bytes ${block * index.blockBytes} onwards)`,
      );
      throw failure;
    }
    checked[block] = 1;
  }
  return {
    check,
    /** Check the blocks bytes `start` to `start + length` span. */
    span(start: number, length: number): void {
      for (
        let block = Math.floor(start / index.blockBytes);
        block <= Math.floor((start + length) / index.blockBytes);
        block++
      )
        check(block);
    },
    /** Check every block, a slice at a time. */
    async all(slicer: Slicer): Promise<void> {
      for (let block = 0; block < blocks; block++) {
        check(block);
        await nextSlice(slicer);
      }
    },
  };
}

async function inMemory(
  handle: FileHandle,
  size: number,
  expected: { count: number },
  index: RecordsIndex,
  offsets: Float64Array,
): Promise<RecordFile> {
  const whole = Buffer.allocUnsafe(size);
  for (let at = 0; at < size;) {
    const { bytesRead } = await handle.read(whole, at, size - at, at);
    if (bytesRead === 0) throw new RecordFileError('shorter than the manifest says (truncated while reading)');
    at += bytesRead;
  }
  const checks = blockChecks(index, (block) =>
    whole.subarray(block * index.blockBytes, Math.min(size, (block + 1) * index.blockBytes)),
  );
  /** Where record `id` starts, once the blocks it spans are checked. */
  const checkedStart = (id: number): number => {
    checks.span(offsets[id]!, lineLength(offsets, id));
    return offsets[id]!;
  };
  return {
    count: expected.count,
    json: (id) => whole.toString('utf8', checkedStart(id), offsets[id + 1]! - 1),
    binary: (id) => whole.toString('latin1', checkedStart(id), offsets[id + 1]! - 1),
    byteLength: (id) => lineLength(offsets, id),
    copy: (id, target, at) => whole.copy(target, at, checkedStart(id), offsets[id + 1]! - 1),
    verifyAll: (slicer) => checks.all(slicer),
    close() {},
  };
}

function onDemand(
  handle: FileHandle,
  size: number,
  expected: { count: number },
  index: RecordsIndex,
  offsets: Float64Array,
  options: { ringBytes: number },
): RecordFile {
  const fd = handle.fd;
  const blockBuffer = Buffer.allocUnsafe(index.blockBytes);
  let scratch = Buffer.allocUnsafe(64 * 1024);
  let closed = false;

  const ring =
    options.ringBytes > 0
      ? new RecordRing(options.ringBytes, expected.count, (id) => lineLength(offsets, id))
      : undefined;

  /**
   * Read `length` bytes at `position` of the file into `target` at `at`, synchronously: a few microseconds
   * from the page cache, and no request waits behind the thread pool's queue.
   */
  function readWhole(target: Buffer, at: number, length: number, position: number): void {
    for (let done = 0; done < length;) {
      const read = readSync(fd, target, at + done, length - done, position + done);
      if (read === 0) throw new RecordFileError('shorter than the manifest says (truncated while reading)');
      done += read;
    }
  }

  /** Read block `block` whole (a block is a few hundred microseconds from the page cache). */
  function readBlock(block: number): Buffer {
    const start = block * index.blockBytes;
    const length = Math.min(index.blockBytes, size - start);
    readWhole(blockBuffer, 0, length, start);
    return blockBuffer.subarray(0, length);
  }

  const checks = blockChecks(index, readBlock);

  /** Where `view` found the record's bytes in the buffer it returned (a number, so a read makes no object). */
  let viewAt = 0;

  /**
   * The buffer holding record `id`'s bytes, from `viewAt` on: the ring's, or a scratch buffer's. Valid until
   * the next read; the caller copies or decodes them at once.
   */
  function view(id: number): Buffer {
    const start = offsets[id]!;
    const length = offsets[id + 1]! - start - 1;
    const kept = ring === undefined ? -1 : ring.find(id);
    if (kept !== -1) {
      viewAt = kept;
      return ring!.bytes;
    }
    checks.span(start, length);
    // Checked bytes go to the ring when they fit there, else to a scratch buffer.
    const placed = ring === undefined ? -1 : ring.place(id);
    if (placed !== -1) {
      try {
        readWhole(ring!.bytes, placed, length, start);
      } catch (error) {
        ring!.forgetNewest();
        throw error;
      }
      viewAt = placed;
      return ring!.bytes;
    }
    if (length > scratch.length) scratch = Buffer.allocUnsafe(length * 2);
    readWhole(scratch, 0, length, start);
    viewAt = 0;
    return scratch;
  }

  return {
    count: expected.count,
    json(id) {
      const bytes = view(id);
      return bytes.toString('utf8', viewAt, viewAt + lineLength(offsets, id));
    },
    binary(id) {
      const bytes = view(id);
      return bytes.toString('latin1', viewAt, viewAt + lineLength(offsets, id));
    },
    byteLength: (id) => lineLength(offsets, id),
    copy(id, target, at) {
      const bytes = view(id);
      return bytes.copy(target, at, viewAt, viewAt + lineLength(offsets, id));
    },
    // The block hashes come from the index, itself checked against the manifest: every block matching its
    // hash is the whole file matching the build's.
    verifyAll: (slicer) => checks.all(slicer),
    close() {
      if (!closed) void handle.close();
      closed = true;
    },
  };
}
