import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // dist/ is compiled once, before every test; the run must leave the temp folder and Redis as it found
    // them (see the files).
    globalSetup: ['test/support/compile.ts', 'test/support/clean-state.ts'],
  },
});
