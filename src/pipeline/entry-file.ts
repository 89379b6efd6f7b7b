/**
 * The night's collected entries kept on disk, not in memory (`line-file.ts`): the night holds their names and
 * offsets while the entries (a kilobyte or more each, held through every step) are read back one at a time as
 * a step needs them. An entry comes back as the registry served it: it was parsed from JSON, and JSON keeps its
 * members and their order. The file is removed when the night ends, whatever the end.
 */
import { join } from 'node:path';
import type { CollectedEntry } from './collect.js';
import { LineFile } from './line-file.js';

export class EntryFile implements Iterable<CollectedEntry> {
  /** The entries' names, in the order they were given. */
  readonly names: readonly string[];
  readonly #lines: LineFile<CollectedEntry>;

  private constructor(names: string[], lines: LineFile<CollectedEntry>) {
    this.names = names;
    this.#lines = lines;
  }

  /** `entries` written to `<dir>/night-entries.jsonl`, replacing what a night that was stopped left there. */
  static write(dir: string, entries: readonly CollectedEntry[]): EntryFile {
    const names: string[] = [];
    const lines = LineFile.write(join(dir, 'night-entries.jsonl'), entries.length, entries, (entry) => {
      names.push(entry.server.name);
    });
    return new EntryFile(names, lines);
  }

  get size(): number {
    return this.names.length;
  }

  /** Entry `index`, parsed anew on each call. */
  get(index: number): CollectedEntry {
    return this.#lines.get(index);
  }

  *[Symbol.iterator](): Iterator<CollectedEntry> {
    for (let index = 0; index < this.names.length; index++) yield this.get(index);
  }

  /** Closes and removes the file. */
  remove(): void {
    this.#lines.remove();
  }
}
