/**
 * The records artifact, read on demand. Loading streams the file once to check its hash against the
 * manifest and note where each line starts; afterwards a record is one positioned read of its own bytes.
 * The records never sit in the process's memory, so a snapshot of a million servers costs its indexes,
 * not a gigabyte of text, and the operating system's page cache keeps the hot records close.
 *
 * The file is kept open: a later build renames a new folder into place and removes the old one, which
 * leaves this open file readable until it is closed, so a warm instance keeps serving what it verified.
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
 * Open `file`, check it is `bytes` long with hash `sha256` and holds `count` lines, and index the lines.
 * Two buffers alternate so the next chunk is being read while the current one is hashed and scanned.
 */
export async function openRecordFile(file: string, expected: { bytes: number; sha256: string; count: number }): Promise<RecordFile> {
  const handle = await open(file, 'r');
  try {
    const size = (await handle.stat()).size;
    if (size !== expected.bytes) throw new RecordFileError(`${size} bytes where the manifest says ${expected.bytes} (truncated or altered)`);
    const offsets = new Float64Array(expected.count + 1);
    const hash = createHash('sha256');
    const buffers = [Buffer.allocUnsafe(CHUNK), Buffer.allocUnsafe(CHUNK)] as const;
    const readInto = (index: number, position: number) =>
      position >= size
        ? Promise.resolve(0)
        : handle.read(buffers[index % 2]!, 0, Math.min(CHUNK, size - position), position).then((result) => result.bytesRead);
    let lines = 0;
    let step = 0;
    let pending = readInto(0, 0);
    for (let position = 0; position < size; step++) {
      const read = await pending;
      if (read === 0) throw new RecordFileError('shorter than the manifest says (truncated while reading)');
      pending = readInto(step + 1, position + read);
      const chunk = buffers[step % 2]!;
      hash.update(chunk.subarray(0, read));
      for (let at = chunk.indexOf(NEWLINE, 0); at >= 0 && at < read; at = chunk.indexOf(NEWLINE, at + 1)) {
        if (lines >= expected.count) throw new RecordFileError(`more lines than the manifest's ${expected.count} records`);
        offsets[++lines] = position + at + 1;
      }
      position += read;
    }
    await pending;
    if (hash.digest('hex') !== expected.sha256) throw new RecordFileError("content does not match the manifest's hash (altered)");
    if (lines !== expected.count) throw new RecordFileError(`${lines} lines where the manifest says ${expected.count} records`);

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
  } catch (error) {
    await handle.close();
    throw error;
  }
}
