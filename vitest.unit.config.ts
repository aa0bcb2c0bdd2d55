import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * `npm run test:unit`: the fast loop. Everything but the tests that drive Debian Chromium or run the
 * `parallax` CLI in child processes (those run in `npm test`). Workers, sandbox threads and loopback servers
 * stay in: they start in milliseconds.
 */
export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: [
        'node_modules/**',
        'tests/e2e/**',
        'tests/electron/cli/**/!(compare-output|step-printer).test.ts',
        'tests/electron/main/csp-renderer.test.ts',
        'tests/electron/host/reports/{cost-report,four-modes-report,html-report-errors,html-report,trials-report,trials-spread,report-formats}.test.ts',
        'tests/electron/host/history-damage.test.ts',
        'tests/electron/engine/tool-offering-modes.test.ts',
        'tests/renderer/store/real-run.test.ts',
      ],
    },
  }),
);
