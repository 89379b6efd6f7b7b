import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Tests that run what a user runs: the compiled entry points in dist/, the bin, the snapshot shipped in the
 * package, a platform build or a browser. Their project's global setup compiles dist/ and builds the embedded
 * snapshot once; a unit test needs neither, so a one-file unit run starts at once
 * (test/architecture.test.ts holds that no unit test reaches for them).
 */
export const E2E_TESTS = [
  'test/e2e/**/*.test.ts',
  'test/deploy/**/*.test.ts',
  'test/browser/**/*.test.ts',
  'test/evaluation/**/*.test.ts',
  'test/**/*.e2e.test.ts',
];

const shared = { testTimeout: 30_000, hookTimeout: 60_000 };

/**
 * Vitest's own default is one worker fewer than the cores, which is a single worker on a 2-core machine: the
 * suite then runs one file at a time, though most of a file's time is spent waiting on the processes it
 * starts (servers, builds, the CLI, a browser). At least two files at a time overlap those waits.
 */
const workers = Math.max(2, availableParallelism() - 1);

export default defineConfig({
  test: {
    maxWorkers: workers,
    // Every run must leave the temp folder, Redis and the process table as it found them (see the file).
    globalSetup: ['test/support/clean-state.ts'],
    projects: [
      { test: { ...shared, name: 'unit', include: ['test/**/*.test.ts', 'src/**/*.test.ts'], exclude: E2E_TESTS } },
      {
        test: {
          ...shared,
          name: 'e2e',
          include: E2E_TESTS,
          // dist/ is compiled once, before any of these tests, so none runs a stale build.
          globalSetup: ['test/support/compile.ts'],
        },
      },
    ],
  },
});
