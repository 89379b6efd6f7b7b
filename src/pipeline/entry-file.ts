/**
 * The night's collected entries kept on disk, not in memory: each entry's JSON on a line of a file in the
 * night's cache folder, with its offset, so the night holds its names and offsets while the entries (a
 * kilobyte or more each, held through every step) are read back one at a time as a step needs them. An entry
 * comes back as the registry served it: it was parsed from JSON, and JSON keeps its members and their order.
 * The file is removed when the night ends, whatever the end.
 */
import { closeSync, mkdirSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { CollectedEntry } from './collect.js';

/** Bytes written at a time. */
const WRITE_BYTES = 1 << 20;

export class EntryFile implements Iterable<CollectedEntry> {
  /** The entries' names, in the order they were given. */
  readonly names: readonly string[];
  readonly #file: string;
  readonly #fd: number;
  /** Entry i is the bytes from offsets[i] to offsets[i + 1] (its line feed left out). */
  readonly #offsets: Float64Array;

  private constructor(file: string, fd: number, names: string[], offsets: Float64Array) {
    this.#file = file;
    this.#fd = fd;
    this.names = names;
    this.#offsets = offsets;
  }

  /** `entries` written to `<dir>/night-entries.jsonl`, replacing what a night that was stopped left there. */
  static write(dir: string, entries: readonly CollectedEntry[]): EntryFile {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'night-entries.jsonl');
    const fd = openSync(file, 'w+');
    try {
      const offsets = new Float64Array(entries.length + 1);
      const names: string[] = [];
      let pending: string[] = [];
      let pendingBytes = 0;
      let at = 0;
      const flush = () => {
        const buffer = Buffer.from(pending.join(''));
        for (let done = 0; done < buffer.length;) done += writeSync(fd, buffer, done);
        pending = [];
        pendingBytes = 0;
      };
      entries.forEach((entry, index) => {
        const line = `${JSON.stringify(entry)}\n`;
        const bytes = Buffer.byteLength(line);
        offsets[index] = at;
        at += bytes;
        names.push(entry.server.name);
        pending.push(line);
        pendingBytes += bytes;
        if (pendingBytes >= WRITE_BYTES) flush();
      });
      flush();
      offsets[entries.length] = at;
      return new EntryFile(file, fd, names, offsets);
    } catch (error) {
      closeSync(fd);
      rmSync(file, { force: true });
      throw error;
    }
  }

  get size(): number {
    return this.names.length;
  }

  /** Entry `index`, parsed anew on each call. */
  get(index: number): CollectedEntry {
    const start = this.#offsets[index]!;
    const length = this.#offsets[index + 1]! - start - 1;
    const bytes = Buffer.allocUnsafe(length);
    for (let read = 0; read < length;) {
      const got = readSync(this.#fd, bytes, read, length - read, start + read);
      if (got === 0) throw new Error(`${this.#file} ended before entry ${index}`);
      read += got;
    }
    return JSON.parse(bytes.toString('utf8')) as CollectedEntry;
  }

  *[Symbol.iterator](): Iterator<CollectedEntry> {
    for (let index = 0; index < this.names.length; index++) yield this.get(index);
  }

  /** Closes and removes the file. */
  remove(): void {
    closeSync(this.#fd);
    rmSync(this.#file, { force: true });
  }
}
