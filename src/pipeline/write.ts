/**
 * The pipeline's writes: all or nothing through `src/format/atomic-write.ts`, a failure as the one line a
 * night prints (`PipelineError`).
 */
import { AtomicWriteError, writeFilesAtomically as writeAll } from '../format/atomic-write.js';
import { PipelineError } from './errors.js';

/** [path, text] pairs, written all or nothing; a failure is a PipelineError naming the file. */
export function writeFilesAtomically(files: ReadonlyArray<readonly [string, string]>): void {
  try {
    writeAll(files);
  } catch (error) {
    if (error instanceof AtomicWriteError) throw new PipelineError(error.message);
    throw error;
  }
}
