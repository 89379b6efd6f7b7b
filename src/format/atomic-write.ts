/**
 * Writing files so that a reader never sees half of one: each file is written in full (and flushed) to a
 * temporary file beside it, with a name no other process or call can take, and only then renamed into place.
 * A failure while writing (a full disk, a read-only folder) removes the temporary files and leaves every target
 * as it was. The one copy every writer of a dataset, a cache, a key file or a document uses.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { copyFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** A file could not be written; `file` names it, the targets are as they were. */
export class AtomicWriteError extends Error {
  override readonly name = 'AtomicWriteError';
  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    super(`cannot write ${file}: ${(cause as Error).message}`, { cause });
  }
}

/** A temporary name beside `file` that no concurrent writer (another process or call) can share. */
function temporaryFor(file: string): string {
  return `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
}

export interface WriteOptions {
  /** The file's permissions, for a file that holds secrets (0o600). */
  mode?: number;
}

/** Write `data` to `file` all or nothing, making its folder when missing. */
export async function writeFileAtomically(file: string, data: string | Uint8Array, options: WriteOptions = {}) {
  const temporary = temporaryFor(file);
  try {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(temporary, data, { flush: true, ...(options.mode !== undefined ? { mode: options.mode } : {}) });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw new AtomicWriteError(file, error);
  }
}

/** Copy `from` over `to` all or nothing. */
export async function copyFileAtomically(from: string, to: string): Promise<void> {
  const temporary = temporaryFor(to);
  try {
    await mkdir(dirname(to), { recursive: true });
    await copyFile(from, temporary);
    await rename(temporary, to);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw new AtomicWriteError(to, error);
  }
}

/**
 * A file's content: its text whole, its bytes, or its text in pieces (a generator that makes one record at a
 * time), so a file far larger than any one of its records is never held as one string.
 */
export type FileContent = string | Uint8Array | Iterable<string>;

/** Pieces are gathered up to this many characters before each write, so a small record is not one system call. */
const WRITE_BATCH_CHARS = 1 << 16;

/** All of `text` at the file's current end (a write may take fewer bytes than it is given). */
function writeAllSync(fd: number, text: string | Uint8Array): void {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  for (let offset = 0; offset < bytes.length;) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}

/** Writes `content` to the new file `file` and flushes it to the disk. */
function writeContentSync(file: string, content: FileContent): void {
  const fd = openSync(file, 'wx');
  try {
    if (typeof content === 'string' || content instanceof Uint8Array) writeAllSync(fd, content);
    else {
      let batch = '';
      for (const piece of content) {
        batch += piece;
        if (batch.length >= WRITE_BATCH_CHARS) {
          writeAllSync(fd, batch);
          batch = '';
        }
      }
      if (batch !== '') writeAllSync(fd, batch);
    }
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * [path, content] pairs, written all or nothing (up to the renames, which do not allocate space): every file is
 * written before any is renamed. Folders this call made are removed again when a write fails, and a content
 * whose pieces throw midway leaves no file, as a failed write does.
 */
export function writeFilesAtomically(files: ReadonlyArray<readonly [string, FileContent]>): void {
  const temporaries: string[] = [];
  const created: string[] = [];
  try {
    for (const [file, content] of files) {
      const made = mkdirSync(dirname(file), { recursive: true });
      if (made !== undefined) created.push(made);
      const temporary = temporaryFor(file);
      temporaries.push(temporary);
      writeContentSync(temporary, content);
    }
  } catch (error) {
    for (const temporary of temporaries) rmSync(temporary, { force: true });
    for (const folder of created.reverse()) rmSync(folder, { recursive: true, force: true });
    throw new AtomicWriteError(files[temporaries.length - 1]?.[0] ?? files[0]?.[0] ?? '', error);
  }
  files.forEach(([file], index) => renameSync(temporaries[index]!, file));
}
