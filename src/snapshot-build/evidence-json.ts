/**
 * A committed evidence file as the build reads it: absent is no evidence, anything else it cannot read or parse
 * is bad input said in one line. What the file must hold is checked by its reader.
 */
import { readFile } from 'node:fs/promises';
import { InputError } from './input-files.js';

/** The JSON value of `file`, or undefined when there is no such file; `what` names its content in errors. */
export async function readEvidenceJson(file: string, what: string): Promise<unknown> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new InputError([`${file}: cannot read the ${what} (${error.code ?? String(error)})`]);
  });
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new InputError([`${file}: not JSON (${(error as Error).message})`]);
  }
}
