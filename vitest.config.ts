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
  'tests/shared/**/*.test.{ts,tsx}',
  'tests/renderer/**/*.test.{ts,tsx}',
  'tests/lint/**/*.test.ts',
  'tests/electron/engine/provider/**/*.test.ts',
  // Not recipes.test.ts nor m3tooleval/runs.test.ts: they start processes of their own.
  'tests/electron/tasks/{file-tasks,fixtures,index,owner-chain,task-set,tool-catalog,validate,web-lookup}.test.ts',
  'tests/electron/tasks/m3tooleval/{expected-outputs,programs,score,sim,tool-definitions,tools}.test.ts',
  // Files whose own tests take well under a second: their fork and fresh imports were most of their time (81 of
  // them: 74 s of CPU isolated, 22 s shared). Not calculator-load.test.ts: it tests the first load of a library.
  'tests/electron/cli/{compare-output,elicitation-prompt,knob-flags,serve,static-help,step-printer,variants-option}.test.ts',
  'tests/electron/engine/agent/agent-launch.test.ts',
  'tests/electron/engine/{answer-feedback,call-tool-loop,fresh-build,history-summarizer-anthropic,step-hooks}.test.ts',
  'tests/electron/engine/approval/approval-gate.test.ts',
  'tests/electron/engine/modes/{call-tool,hybrid-mode,mode-descriptions,react-search-mode,recipes}.test.ts',
  'tests/electron/engine/modes/text/parse-reply.test.ts',
  'tests/electron/engine/tool-search/search-tools.test.ts',
  'tests/electron/engine/tools/{current-time,error-text,fetch-url,file-tools,get-weather,html-convert,index,schema-type,tool-descriptions,web-search,workspace-paths,workspace}.test.ts',
  'tests/electron/host/{agent-access,data-dir,history-store,history-summary,launcher,mcp-access,page-gate,preflight,prepare,price-store,run-log-reader,run-session,slot-lending,worker-start}.test.ts',
  'tests/electron/host/reports/{cancelled-call-report,concurrency-report,format-helpers,former-setting-report,html-charts,html-composition,html-escape,markdown-text,report-palette,startup-report,stored-reports}.test.ts',
  'tests/electron/host/web/history-paging.test.ts',
  'tests/electron/main/{app-origin,app-protocol,ipc,key-store,login-path,main-window,menu,password-store,report-saver,security,shell-handlers,window-state}.test.ts',
  'tests/electron/preload/preload.test.ts',
  'tests/electron/sim/{detect,messages-api,mode-policies,react-text-policy}.test.ts',
  'tests/electron/suite/{load-suite,suite-data}.test.ts',
  'tests/electron/tasks/judged-file.test.ts',
  // And files of a few seconds that start no process of their own (22 of them: 91 s of CPU isolated, 71 s shared).
  'tests/electron/cli/diff.test.ts',
  'tests/electron/engine/{event-recorder,loop,no-policy,step-timestamps}.test.ts',
  'tests/electron/engine/mcp/mcp-images.test.ts',
  'tests/electron/engine/tools/{calculator,error-hints}.test.ts',
  'tests/electron/engine/tools/compute/calc.test.ts',
  'tests/electron/host/{history-index,tracked-events,variant-protocol}.test.ts',
  'tests/electron/host/reports/{approvals-report,cost-report,history-summary-report,mcp-report,report-formats,waterfall-ticks}.test.ts',
  'tests/electron/main/packaging.test.ts',
  'tests/electron/sim/{file-tasks,owner-chain,sim-server,tool-catalog}.test.ts',
  // And files that run the engine or a host in this process (its threads, servers and children are their own and
  // closed by them): 22 files, 175 s of CPU isolated, 105 s shared, mostly the engine's modules imported once.
  'tests/electron/engine/{history-editor,history-summarizer,react-text-loop,run-engine,run-knobs}.test.ts',
  'tests/electron/engine/modes/code-py-mode.test.ts',
  'tests/electron/engine/tool-search/search-attacks.test.ts',
  'tests/electron/engine/tools/{fetch-url-attacks,repeat-guard}.test.ts',
  'tests/electron/host/{otlp-export,provider-check,unfinished-reply-surfaces}.test.ts',
  'tests/electron/host/reports/otlp-report.test.ts',
  'tests/electron/host/web/{approval-sharing,variant-attacks,web-host}.test.ts',
  'tests/electron/sim/{calibration,faults,plain-text-tools,policies,seed-toolset}.test.ts',
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
