/**
 * The records artifact. Loading reads the file once to check its hash against the manifest and note where
 * each line starts. A file up to IN_MEMORY_MAX_BYTES is then kept in memory; a larger one is read on
 * demand, a record being one positioned read of its own bytes, so a snapshot of a million servers costs
 * its indexes, not a gigabyte of text, and the operating system's page cache keeps the hot records close.
 *
 * Read on demand, the file is kept open: a later build renames a new folder into place and removes the old
 * one, which leaves this open file readable until it is closed, so a warm instance keeps serving what it
 * verified.
 */
import { createHash } from 'node:crypto';
import { readSync } from 'node:fs';
import { open } from 'node:fs/promises';

const NEWLINE = 0x0a;
const CHUNK = 8 * 1024 * 1024;

export interface RecordFile {
  readonly count: number;
  /** The JSON text of record `id` (its line, without the newline). */
  json(id: number): string;
  close(): void;
}

/** Why a records file cannot be served; the loader turns it into its one-line error. */
export class RecordFileError extends Error {}

/**
 * Records files up to this size are kept in memory after verification (a record is then a slice of a
 * buffer, with no system call); larger ones are read on demand, so a million-server snapshot does not
 * hold a gigabyte of text. 256 MB is about 200,000 records with their signals.
 */
export const IN_MEMORY_MAX_BYTES = 256 * 1024 * 1024;

/**
 * Open `file`, check it is `bytes` long with hash `sha256` and holds `count` lines, and index the lines.
 * The next chunk is read while the current one is hashed and scanned.
 */
export async function openRecordFile(
  file: string,
  expected: { bytes: number; sha256: string; count: number },
  options: { inMemoryMaxBytes?: number } = {},
): Promise<RecordFile> {
  const handle = await open(file, 'r');
  let keepOpen = false;
  try {
    const size = (await handle.stat()).size;
    if (size !== expected.bytes) throw new RecordFileError(`${size} bytes where the manifest says ${expected.bytes} (truncated or altered)`);
    const inMemory = size <= (options.inMemoryMaxBytes ?? IN_MEMORY_MAX_BYTES);
    // In memory, every chunk lands in its place in one buffer; on demand, two chunk buffers alternate.
    const whole = inMemory ? Buffer.allocUnsafe(size) : undefined;
    const buffers: Buffer[] = inMemory ? [] : [Buffer.allocUnsafe(CHUNK), Buffer.allocUnsafe(CHUNK)];
    const target = (step: number, position: number) => (whole ? { buffer: whole, at: position } : { buffer: buffers[step % 2]!, at: 0 });
    const readAt = (step: number, position: number) => {
      if (position >= size) return Promise.resolve(0);
      const { buffer, at } = target(step, position);
      return handle.read(buffer, at, Math.min(CHUNK, size - position), position).then((result) => result.bytesRead);
    };
    const offsets = new Float64Array(expected.count + 1);
    const hash = createHash('sha256');
    let lines = 0;
    let pending = readAt(0, 0);
    for (let position = 0, step = 0; position < size; step++) {
      const read = await pending;
      if (read === 0) throw new RecordFileError('shorter than the manifest says (truncated while reading)');
      pending = readAt(step + 1, position + read);
      const { buffer, at } = target(step, position);
      const chunk = buffer.subarray(at, at + read);
      hash.update(chunk);
      for (let i = chunk.indexOf(NEWLINE); i >= 0; i = chunk.indexOf(NEWLINE, i + 1)) {
        if (lines >= expected.count) throw new RecordFileError(`more lines than the manifest's ${expected.count} records`);
        offsets[++lines] = position + i + 1;
      }
      position += read;
    }
    await pending;
    // The chunk buffers share a scope with the reader returned below: drop them so they are not kept.
    buffers.length = 0;
    if (hash.digest('hex') !== expected.sha256) throw new RecordFileError("content does not match the manifest's hash (altered)");
    if (lines !== expected.count) throw new RecordFileError(`${lines} lines where the manifest says ${expected.count} records`);

    if (whole) {
      return {
        count: expected.count,
        json: (id) => whole.toString('utf8', offsets[id]!, offsets[id + 1]! - 1),
        close() {},
      };
    }
    keepOpen = true;
    const fd = handle.fd;
    let scratch = Buffer.allocUnsafe(64 * 1024);
    let closed = false;
    return {
      count: expected.count,
      json(id) {
        const start = offsets[id]!;
        const length = offsets[id + 1]! - start - 1;
        if (length > scratch.length) scratch = Buffer.allocUnsafe(length * 2);
        // A synchronous positioned read: a few microseconds from the page cache, and no request waits
        // behind the thread pool's queue.
        const read = readSync(fd, scratch, 0, length, start);
        return scratch.toString('utf8', 0, read);
      },
      close() {
        if (!closed) void handle.close();
        closed = true;
      },
    };
  } finally {
    if (!keepOpen) await handle.close();
  }
}
