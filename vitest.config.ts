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
    // A timeout catches a hang, not a slow machine: tests wait on state, and a loaded machine (CI beside other
    // work) may take several times as long as an idle one. No test sets a shorter one of its own.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    expect: { poll: { timeout: 120_000 } },
  },
});
