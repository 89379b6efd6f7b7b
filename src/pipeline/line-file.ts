/**
 * Values kept on disk, not in memory, for the rest of a night: each value's JSON on a line of a file in the
 * night's cache folder, with the offsets of the lines, so the night holds a number per value while the values
 * are read back one at a time as a step needs them. A value comes back as `JSON.parse` makes it from what
 * `JSON.stringify` wrote (members and their order kept). The file is removed when its owner says so.
 */
import { closeSync, mkdirSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** Bytes written at a time. */
const WRITE_BYTES = 1 << 20;

export class LineFile<T> {
  readonly #file: string;
  readonly #fd: number;
  /** Value i is the bytes from offsets[i] to offsets[i + 1] (its line feed left out). */
  readonly #offsets: Float64Array;

  private constructor(file: string, fd: number, offsets: Float64Array) {
    this.#file = file;
    this.#fd = fd;
    this.#offsets = offsets;
  }

  /**
   * `values` (`count` of them) written to `file`, replacing what a night that was stopped left there; `seen` is
   * shown each value with its index as it is written.
   */
  static write<T>(file: string, count: number, values: Iterable<T>, seen?: (value: T, index: number) => void) {
    mkdirSync(dirname(file), { recursive: true });
    const fd = openSync(file, 'w+');
    try {
      const offsets = new Float64Array(count + 1);
      let pending: string[] = [];
      let pendingBytes = 0;
      let at = 0;
      let index = 0;
      const flush = () => {
        const buffer = Buffer.from(pending.join(''));
        for (let done = 0; done < buffer.length;) done += writeSync(fd, buffer, done);
        pending = [];
        pendingBytes = 0;
      };
      for (const value of values) {
        if (index >= count) throw new Error(`more than the ${count} values announced for ${file}`);
        const line = `${JSON.stringify(value)}\n`;
        const bytes = Buffer.byteLength(line);
        offsets[index] = at;
        at += bytes;
        seen?.(value, index);
        index++;
        pending.push(line);
        pendingBytes += bytes;
        if (pendingBytes >= WRITE_BYTES) flush();
      }
      flush();
      if (index !== count) throw new Error(`${index} values, not the ${count} announced, for ${file}`);
      offsets[count] = at;
      return new LineFile<T>(file, fd, offsets);
    } catch (error) {
      closeSync(fd);
      rmSync(file, { force: true });
      throw error;
    }
  }

  get size(): number {
    return this.#offsets.length - 1;
  }

  /** Value `index`, parsed anew on each call. */
  get(index: number): T {
    const start = this.#offsets[index]!;
    const length = this.#offsets[index + 1]! - start - 1;
    const bytes = Buffer.allocUnsafe(length);
    for (let read = 0; read < length;) {
      const got = readSync(this.#fd, bytes, read, length - read, start + read);
      if (got === 0) throw new Error(`${this.#file} ended before value ${index}`);
      read += got;
    }
    return JSON.parse(bytes.toString('utf8')) as T;
  }

  /** Closes and removes the file. */
  remove(): void {
    closeSync(this.#fd);
    rmSync(this.#file, { force: true });
  }
}
