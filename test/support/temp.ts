/**
 * Temp folders that remove themselves: `makeTempDir` makes one in the system's temp folder and removes it
 * once the test file that asked for it has finished. Each test file loads this module afresh, so the hook
 * below belongs to that file (test/support/clean-state.ts checks that nothing is left at the end of a run).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];
afterAll(() => Promise.all(made.splice(0).map((folder) => rm(folder, { recursive: true, force: true }))));

/** A new empty folder named `<prefix>XXXXXX` in the temp folder, removed after this test file. */
export async function makeTempDir(prefix: string): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), prefix));
  made.push(folder);
  return folder;
}
