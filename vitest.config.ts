import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    setupFiles: ['tests/setup/count-assertions.ts'],
    // One Chromium for every browser test of the run, started when the first one asks (tests/helpers/browser-context.ts).
    globalSetup: ['tests/setup/shared-browser.ts'],
    pool: 'forks',
    // These machines have two cores; integration tests spawn processes and servers of their own.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
