/**
 * Temp folders that remove themselves: `makeTempDir` makes one in the system's temp folder and removes it
 * once the test file that asked for it has finished. Each test file loads this module afresh, so the hook
 * below belongs to that file (test/support/clean-state.ts checks that nothing is left at the end of a run).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect } from 'vitest';

// The hook below is the file's only when this module loads with the file; loaded first inside a test (an
// `await import` in a test body), it is never run and every folder made through it is left behind.
if (expect.getState().currentTestName !== undefined) {
  throw new Error(
    'test/support/temp.ts was first imported inside a test: import it (or what uses it) at the top of the file',
  );
}

const made: string[] = [];
afterAll(() => Promise.all(made.splice(0).map((folder) => rm(folder, { recursive: true, force: true }))));

/** The test file running, as `auth-limits` for `test/gateway/auth-limits.test.ts`. */
function testFileLabel(): string {
  const testPath = expect.getState().testPath;
  return testPath === undefined ? 'outside-a-test' : path.basename(testPath).replace(/\.test\.ts$/, '');
}

/**
 * A new empty folder named `<prefix><test file>-XXXXXX` in the temp folder, removed after this test file. The
 * test file's name is in it so that a folder the suite's teardown finds left over names the file that made it.
 */
export async function makeTempDir(prefix: string): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), `${prefix}${testFileLabel()}-`));
  made.push(folder);
  return folder;
}
