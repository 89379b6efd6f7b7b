/**
 * The pipeline's writes: all or nothing through `src/format/atomic-write.ts`, a failure as the one line a
 * night prints (`PipelineError`).
 */
import { AtomicWriteError, writeFilesAtomically as writeAll, type FileContent } from '../format/atomic-write.js';
import { PipelineError } from './errors.js';

/**
 * [path, content] pairs (a text, or its pieces one record at a time), written all or nothing; a failure is a
 * PipelineError naming the file.
 */
export function writeFilesAtomically(files: ReadonlyArray<readonly [string, FileContent]>): void {
  try {
    writeAll(files);
  } catch (error) {
    if (error instanceof AtomicWriteError) throw new PipelineError(error.message);
    throw error;
  }
}
