/**
 * Writing files so that a reader never sees half of one: each file is written in full (and flushed) to a
 * temporary file beside it, with a name no other process or call can take, and only then renamed into place.
 * A failure while writing (a full disk, a read-only folder) removes the temporary files and leaves every target
 * as it was. The one copy every writer of a dataset, a cache, a key file or a document uses.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
 * [path, text] pairs, written all or nothing (up to the renames, which do not allocate space): every file is
 * written before any is renamed. Folders this call made are removed again when a write fails.
 */
export function writeFilesAtomically(files: ReadonlyArray<readonly [string, string]>): void {
  const temporaries: string[] = [];
  const created: string[] = [];
  try {
    for (const [file, text] of files) {
      const made = mkdirSync(dirname(file), { recursive: true });
      if (made !== undefined) created.push(made);
      const temporary = temporaryFor(file);
      temporaries.push(temporary);
      writeFileSync(temporary, text, { flush: true });
    }
  } catch (error) {
    for (const temporary of temporaries) rmSync(temporary, { force: true });
    for (const folder of created.reverse()) rmSync(folder, { recursive: true, force: true });
    throw new AtomicWriteError(files[temporaries.length - 1]?.[0] ?? files[0]?.[0] ?? '', error);
  }
  files.forEach(([file], index) => renameSync(temporaries[index]!, file));
}
