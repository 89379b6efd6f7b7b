/**
 * Writing an artifact file and knowing its hash and size, as the manifest records them: small ones in one
 * piece; large ones (the records, the history, the reverse-lookup table) a line at a time, in chunks of
 * about a megabyte, so that at a million records none of them is ever one string in memory.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { RecordTexts } from './record-texts.js';
import { RecordsIndexWriter } from '../format/records-index.js';

export interface Written {
  sha256: string;
  bytes: number;
}

const CHUNK_BYTES = 1 << 20;

export async function writeText(file: string, text: string | Buffer): Promise<Written> {
  await writeFile(file, text);
  return { sha256: createHash('sha256').update(text).digest('hex'), bytes: Buffer.byteLength(text) };
}

/**
 * A file written a chunk at a time, synchronously, with the hash and size of what was written: the chunk
 * can be reused as soon as `write` returns, so writing a gigabyte allocates nothing per chunk (allocating
 * and dropping a megabyte per chunk grew the build's RSS by half a gigabyte at a million records).
 */
class ChunkedFile {
  private readonly fd: number;
  private readonly hash = createHash('sha256');
  private bytes = 0;

  constructor(file: string) {
    this.fd = openSync(file, 'w');
  }

  write(chunk: Buffer): void {
    this.hash.update(chunk);
    for (let done = 0; done < chunk.length;) done += writeSync(this.fd, chunk, done, chunk.length - done);
    this.bytes += chunk.length;
  }

  close(): Written {
    closeSync(this.fd);
    return { sha256: this.hash.digest('hex'), bytes: this.bytes };
  }

  /** Close without the result (something failed). */
  abandon(): void {
    closeSync(this.fd);
  }
}

/** Write to `file` through `write`, closing it however that ends. */
function writeChunks(file: string, write: (out: ChunkedFile) => void): Written {
  const out = new ChunkedFile(file);
  try {
    write(out);
  } catch (error) {
    out.abandon();
    throw error;
  }
  return out.close();
}

/** Write each of `lines` followed by a line feed, encoded into one reused buffer. */
export function writeLines(file: string, lines: Iterable<string>): Written {
  return writeChunks(file, (out) => {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let size = 0;
    for (const line of lines) {
      const length = Buffer.byteLength(line) + 1;
      if (size + length > chunk.length) {
        if (size > 0) out.write(chunk.subarray(0, size));
        size = 0;
        if (length > chunk.length) {
          out.write(Buffer.from(`${line}\n`));
          continue;
        }
      }
      chunk.write(line, size);
      chunk[size + length - 1] = 0x0a;
      size += length;
    }
    if (size > 0) out.write(chunk.subarray(0, size));
  });
}

/**
 * One compact record per line, in the order `ids` (input positions, `Artifacts.inputIndex`), copied from
 * the records' texts; and the records' index (`records-index.ts`) made from the same bytes.
 */
export function writeRecords(file: string, texts: RecordTexts, ids: ArrayLike<number>): Written & { index: Buffer } {
  const index = new RecordsIndexWriter();
  const written = writeChunks(file, (out) => {
    for (const chunk of texts.linesOf(ids)) {
      index.add(chunk);
      out.write(chunk);
    }
  });
  return { ...written, index: index.encode() };
}
