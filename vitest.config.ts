import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The containment tests run twice: as the machine is (bubblewrap where installed) and with the OS sandbox switched off
 * by the app's own switch, the way Parallax runs where bubblewrap is missing (macOS, Windows, many Linux desktops).
 * Both passes are projects of one run, so the second shares the first's workers instead of following it.
 */
export const CONTAINMENT_TESTS = [
  // Not shell-sandbox, run-bounds, unix-sockets, py-escape nor py-escape-host: each sets both configurations itself
  // (the switch set before a fresh import, or the sandbox passed in), so a second pass would repeat the same runs.
  'tests/electron/engine/sandbox/{host-deadline,isolation,limits,py-fresh,py-launch,py-permission-check,py-sandbox,run-program,seatbelt,shell-detect}.test.ts',
  'tests/electron/engine/tools/run-shell.test.ts',
  'tests/electron/engine/agent/**/*.test.ts',
  'tests/electron/engine/mcp/mcp-servers.test.ts',
  'tests/electron/host/env-policy.test.ts',
  'tests/electron/host/history-private.test.ts',
  'tests/electron/host/web/invoke-attacks.test.ts',
  'tests/electron/suite/validators.test.ts',
  'tests/electron/cli/exec-shell.test.ts',
];

/**
 * Tests of logic alone (no browser, no global stub or process-wide setting of their own) share one module cache per worker
 * (isolate: false): each file's fork start and fresh import of the same modules was most of their time. A file that
 * needs a clean slate stays in `main`, which isolates every file.
 */
export const SHARED_MODULE_TESTS = [
  'tests/shared/**/*.test.ts',
  'tests/renderer/**/*.test.{ts,tsx}',
  'tests/lint/**/*.test.ts',
  'tests/electron/engine/provider/**/*.test.ts',
  // Not recipes.test.ts nor m3tooleval/runs.test.ts: they start processes of their own.
  'tests/electron/tasks/{file-tasks,fixtures,index,owner-chain,task-set,tool-catalog,validate,web-lookup}.test.ts',
  'tests/electron/tasks/m3tooleval/{expected-outputs,programs,score,sim,tool-definitions,tools}.test.ts',
];

export default defineConfig({
  test: {
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
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
          exclude: [...configDefaults.exclude, ...SHARED_MODULE_TESTS],
        },
      },
      {
        extends: true,
        test: {
          name: 'unit',
          include: SHARED_MODULE_TESTS,
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'sandbox-off',
          include: CONTAINMENT_TESTS,
          exclude: [...configDefaults.exclude],
          env: { PARALLAX_SANDBOX: 'off' },
        },
      },
    ],
  },
});
