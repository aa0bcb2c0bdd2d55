/**
 * The layers' import boundaries, checked by `npm run lint:boundaries` (part of `npm test`). Paths are
 * resolved, so a relative import is judged by where it lands; type-only imports count too.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'shared-is-pure',
      comment:
        'shared/ is plain TypeScript for every runtime: it imports only itself and npm packages (no Node built-ins, no other layer).',
      severity: 'error',
      from: { path: '^shared/' },
      to: { pathNot: ['^shared/', 'node_modules'] },
    },
    {
      name: 'engine-stays-below',
      comment:
        'The engine runs one mode of one task: it knows nothing of the host, the CLI, the shells, the worker process or the simulated model.',
      severity: 'error',
      from: { path: '^electron/engine/' },
      to: { path: '^electron/(host|cli|main|preload|worker|sim)/' },
    },
    {
      name: 'engine-runs-any-task',
      comment:
        'The engine knows no task by name: whoever starts a run hands it the task (engine/run-task.ts). The built-in tasks ' +
        "(electron/tasks/) bring the simulated model's policies with them, which the engine must never load.",
      severity: 'error',
      from: { path: '^electron/engine/' },
      to: { path: '^electron/tasks/' },
    },
    {
      name: 'tasks-below-host',
      comment:
        "A task is defined from the engine's tools and the simulated model's policies; the host, the CLI, the shells and the worker use it, never the reverse.",
      severity: 'error',
      from: { path: '^electron/tasks/' },
      to: { path: '^electron/(host|cli|main|preload|worker|suite)/' },
    },
    {
      name: 'host-below-suite',
      comment:
        'Suites are built on the host (electron/suite drives it): the host never imports them; the shells merge the suite handlers in.',
      severity: 'error',
      from: { path: '^electron/host/' },
      to: { path: '^electron/suite/' },
    },
    {
      name: 'electron-only-in-shells',
      comment:
        'Only the Electron shell (electron/main) and its preload import the electron package; everything else runs under plain Node too. ' +
        "`parallax start` is the one exception: under plain Node, require('electron') is the path of the app's binary, not its API.",
      severity: 'error',
      from: { pathNot: ['^electron/(main|preload)/', '^electron/cli/commands/start[.]ts$'] },
      to: { path: '(^|/)node_modules/electron/' },
    },
    {
      name: 'renderer-is-a-page',
      comment:
        'The renderer is a web page: it imports only shared/ and itself (and npm packages), never Node built-ins or the Node side.',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { pathNot: ['^renderer/', '^shared/', 'node_modules'] },
    },
    {
      name: 'cli-commands-load-lazily',
      comment:
        'Every `parallax` start (--version, --help) loads main.ts and every command file: they reach the engine, the simulated ' +
        "model, the host and the reports only inside a command's action (await import), never at the top.",
      severity: 'error',
      // compare-output.ts is itself loaded by `compare`'s action only.
      from: { path: '^electron/cli/', pathNot: '^electron/cli/compare-output[.]ts$' },
      to: {
        path: [
          '^electron/(engine|sim|tasks)/',
          '^electron/host/(host|history-store|price-store|prepare|engine-services|reports/|web/web-host)',
        ],
        pathNot: ['^electron/engine/sandbox/shell-sandbox[.]ts$', '^electron/engine/app-layout[.]ts$'],
        dependencyTypesNot: ['dynamic-import', 'type-only'],
      },
    },
    {
      name: 'no-tests-in-production',
      comment: 'Test helpers and stand-ins live under tests/ and are never imported by the app.',
      severity: 'error',
      from: { path: '^(shared|electron|renderer)/' },
      to: { path: '^(tests|bench)/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.cts', '.js', '.json'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
