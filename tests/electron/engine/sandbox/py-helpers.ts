/** Set-up for the Python sandbox tests: the same workspace and test tools as helpers.ts, one Pyodide child. */
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SETTINGS } from '../../../../shared/run-spec.js';
import { standardBindings } from '../../../../electron/engine/modes/code/bindings.js';
import {
  runProgram,
  type ProgramOptions,
  type ProgramResult,
  type SandboxLimits,
} from '../../../../electron/engine/sandbox/index.js';
import type { PyContainment } from '../../../../electron/engine/sandbox/python/py-launch.js';
import { PySandbox, type PySandboxOptions } from '../../../../electron/engine/sandbox/python/py-sandbox.js';
import {
  detectShellSandbox,
  shellSandbox,
  type ShellSandboxInfo,
} from '../../../../electron/engine/sandbox/shell-sandbox.js';
import { warmUpTools } from '../../../../electron/engine/tools/index.js';
import { LIMITS, TEST_TOOLS } from './helpers.js';

export interface PyHarness {
  /** The temp folder holding the workspace: files here are outside it. */
  readonly root: string;
  readonly workspace: string;
  readonly sandbox: PySandbox;
  run(
    code: string,
    extra?: Omit<Partial<ProgramOptions>, 'limits'> & { limits?: Partial<SandboxLimits> },
  ): Promise<ProgramResult>;
  close(): Promise<void>;
}

/**
 * The two configurations the containment tests run in: with bubblewrap where it works here, and with it made
 * unavailable through the app's own switch (PARALLAX_SANDBOX=off, as on macOS, Windows or a Linux without it;
 * on Linux the child still gets its own empty network by unshare where namespaces can be made).
 */
/** What contains the Pyodide child in a configuration (py-launch.ts), beside Node's permission model. */
export function expectedContainment(sandbox: ShellSandboxInfo): PyContainment {
  if (sandbox.kind === 'bubblewrap') return 'bubblewrap';
  if (sandbox.kind === 'seatbelt') return 'seatbelt';
  return sandbox.unshare ? 'netns' : 'process';
}

export const PY_CONFIGS: readonly { readonly name: string; readonly sandbox: ShellSandboxInfo }[] = [
  { name: `OS sandbox as found here (${shellSandbox().kind})`, sandbox: shellSandbox() },
  { name: 'no OS sandbox (PARALLAX_SANDBOX=off)', sandbox: detectShellSandbox({ env: { PARALLAX_SANDBOX: 'off' } }) },
];

export async function pyHarness(options: PySandboxOptions = {}): Promise<PyHarness> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'parallax-py-sandbox-')));
  const workspace = join(root, 'ws');
  await mkdir(workspace);
  const sandbox = new PySandbox(options);
  // As a worker does before a Code Mode (Python) run: Pyodide loaded, the compute thread started.
  await Promise.all([sandbox.warmUp(), warmUpTools()]);
  const bindings = standardBindings();
  return {
    root,
    workspace,
    sandbox,
    run: (code, extra = {}) =>
      runProgram(code, {
        tools: [...bindings.tools, ...TEST_TOOLS],
        hiddenTools: bindings.hiddenTools,
        ctx: { workspace, settings: DEFAULT_SETTINGS, signal: new AbortController().signal },
        returnTypes: true,
        sandbox,
        language: 'python',
        ...extra,
        limits: { ...LIMITS, ...extra.limits },
      }),
    close: async () => {
      sandbox.dispose();
      await rm(root, { recursive: true, force: true });
    },
  };
}
