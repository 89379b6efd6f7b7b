/**
 * The records' JSON texts while a snapshot is built, kept out of the JavaScript heap: the build holds a
 * summary of each record for its indexes (`summaryOf`) and the record itself only as these bytes, which
 * `records.ndjson` is written from in name order. In memory while small; past SPILL_BYTES everything moves
 * to a temporary file, read back by position, so that a million records' text does not
 * count against the build's memory.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Texts past this many bytes go to a temporary file. */
const SPILL_BYTES = 64 * 1024 * 1024;
const CHUNK_BYTES = 1 << 20;

export class RecordTexts {
  /** Where text `i` starts (`starts[i]`) and ends (`starts[i + 1]`), in all the bytes added. */
  private starts = new Float64Array(1024);
  private added = 0;
  private total = 0;
  /** Bytes not yet in the file (all of them while in memory), from byte `pendingFrom` on. */
  private pending: Buffer[] = [];
  private pendingFrom = 0;
  private current = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;
  private file: { dir: string; fd: number } | undefined;

  /** `spillBytes`: from how many bytes the texts go to a file (tests spill small amounts). */
  constructor(private readonly spillBytes = SPILL_BYTES) {}

  get count(): number {
    return this.added;
  }

  add(text: string): void {
    const length = Buffer.byteLength(text);
    if (this.used + length > this.current.length) this.nextChunk(length);
    this.current.write(text, this.used, 'utf8');
    this.used += length;
    if (this.added + 2 > this.starts.length) {
      const grown = new Float64Array(this.starts.length * 2);
      grown.set(this.starts);
      this.starts = grown;
    }
    this.starts[this.added] = this.total;
    this.total += length;
    this.added++;
    this.starts[this.added] = this.total;
  }

  private nextChunk(atLeast: number): void {
    if (this.used > 0) this.pending.push(this.current.subarray(0, this.used));
    this.current = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, atLeast));
    this.used = 0;
    if (this.file !== undefined || this.total - this.pendingFrom >= this.spillBytes) this.spill();
  }

  /** Move the pending bytes to the temporary file (made on the first spill). */
  private spill(): void {
    if (this.file === undefined) {
      const dir = mkdtempSync(path.join(tmpdir(), 'mts-record-texts-'));
      this.file = { dir, fd: openSync(path.join(dir, 'texts'), 'w+') };
    }
    let at = this.pendingFrom;
    for (const chunk of this.pending) {
      for (let done = 0; done < chunk.length;)
        done += writeSync(this.file.fd, chunk, done, chunk.length - done, at + done);
      at += chunk.length;
    }
    this.pending = [];
    this.pendingFrom = at;
  }

  /**
   * The texts in the order `ids`, each followed by a line feed, as chunks of about a megabyte of whole
   * lines. The buffer yielded is reused: use it before asking for the next.
   */
  *linesOf(ids: ArrayLike<number>): Generator<Buffer> {
    if (this.used > 0) this.nextChunk(0);
    if (this.file !== undefined) this.spill();
    const out = Buffer.allocUnsafe(CHUNK_BYTES);
    let size = 0;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      const start = this.starts[id]!;
      const length = this.starts[id + 1]! - start;
      if (size + length + 1 > out.length) {
        if (size > 0) yield out.subarray(0, size);
        size = 0;
        if (length + 1 > out.length) {
          // A record longer than a chunk: a line of its own.
          const line = Buffer.allocUnsafe(length + 1);
          this.read(line, start, length);
          line[length] = 0x0a;
          yield line;
          continue;
        }
      }
      this.read(out.subarray(size), start, length);
      out[size + length] = 0x0a;
      size += length + 1;
    }
    if (size > 0) yield out.subarray(0, size);
  }

  /** Copy `length` bytes from byte `start` of all added into `target`. */
  private read(target: Buffer, start: number, length: number): void {
    if (this.file !== undefined) {
      for (let done = 0; done < length;) {
        const got = readSync(this.file.fd, target, done, length - done, start + done);
        if (got === 0) throw new Error('the temporary file of record texts is shorter than written');
        done += got;
      }
      return;
    }
    let at = 0;
    for (const chunk of this.pending) {
      if (start < at + chunk.length) {
        // A text is never split between chunks (`add` starts a new chunk for one that does not fit).
        chunk.copy(target, 0, start - at, start - at + length);
        return;
      }
      at += chunk.length;
    }
  }

  /** The temporary file holding the texts, if they were spilled to one. */
  get spillFile(): string | undefined {
    return this.file === undefined ? undefined : path.join(this.file.dir, 'texts');
  }

  /** Remove the temporary file, if one was made. */
  close(): void {
    if (this.file === undefined) return;
    closeSync(this.file.fd);
    rmSync(this.file.dir, { recursive: true, force: true });
    this.file = undefined;
  }
}
