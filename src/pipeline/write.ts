/**
 * Writing files so that a reader never sees half of them: every file is written in full to a temporary file
 * beside it first; only when all are written are they renamed into place. A failure while writing (a full
 * disk, a read-only folder) removes the temporary files and leaves every target as it was.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { PipelineError } from './errors.js';

/** [path, text] pairs, written all or nothing (up to the renames, which do not allocate space). */
export function writeFilesAtomically(files: ReadonlyArray<readonly [string, string]>): void {
  const temporaries: string[] = [];
  const created: string[] = [];
  try {
    for (const [file, text] of files) {
      const made = mkdirSync(dirname(file), { recursive: true });
      if (made !== undefined) created.push(made);
      const temporary = `${file}.tmp-${process.pid}`;
      temporaries.push(temporary);
      writeFileSync(temporary, text, { flush: true });
    }
  } catch (error) {
    for (const temporary of temporaries) rmSync(temporary, { force: true });
    // Folders this call made are removed too, so a failed write leaves nothing behind.
    for (const folder of created.reverse()) rmSync(folder, { recursive: true, force: true });
    const failed = files[temporaries.length - 1]?.[0] ?? '';
    throw new PipelineError(`cannot write ${failed}: ${(error as Error).message}`);
  }
  files.forEach(([file], index) => renameSync(temporaries[index]!, file));
}
