/**
 * A host process for the host-death tests: launches one worker through the real launcher seam and releases
 * it, then idles until it is killed. `fork`: forkLauncher. `utility`: utilityLauncher over a stand-in for
 * Electron's utilityProcess.fork: a real Node process whose worker talks through a `process.parentPort`
 * (parent-port-shim.ts) and so, as under Electron, sees no channel close: only the watchdog can end it.
 *
 *   node --import tsx host-death-host.ts <fork|utility> <worker entry> <ready file>
 */
import { fork as forkProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import type { UtilityProcess } from 'electron';
import { forkLauncher, type WorkerLauncher } from '../../electron/host/launcher.js';
import { utilityLauncher } from '../../electron/main/utility-launcher.js';
import { DEFAULT_SETTINGS } from '../../shared/run-spec.js';

const [kind, entry, readyFile] = process.argv.slice(2);
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const shim = pathToFileURL(new URL('./parent-port-shim.ts', import.meta.url).pathname).href;

const launcher: WorkerLauncher =
  kind === 'fork'
    ? forkLauncher({ entry, args: [readyFile] })
    : utilityLauncher({
        entry,
        fork: (modulePath, args, options) => {
          const child = forkProcess(modulePath, [readyFile, ...args], {
            env: options.env as NodeJS.ProcessEnv,
            execArgv: ['--import', tsx, '--import', shim],
            stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
          });
          // What utilityProcess adds over a ChildProcess, as far as the launcher uses it.
          return Object.assign(child, {
            postMessage: (m: unknown) => child.send(m as object),
          }) as unknown as UtilityProcess;
        },
      });

const handle = launcher.launch({ env: process.env, name: 'host-death' });
handle.onMessage((m) => {
  if (m.type === 'ready') handle.send({ type: 'go' });
});
handle.send({
  type: 'init',
  apiKey: null,
  spec: {
    runId: 'host-death',
    task: { id: null, text: 'x' },
    mode: 'react',
    apiKeyEnv: null,
    settings: DEFAULT_SETTINGS,
    workspace: tmpdir(),
    provider: { name: 'custom', baseUrl: 'http://127.0.0.1:9/v1', model: 'm', simulated: false },
  },
});
setInterval(() => undefined, 60_000);
