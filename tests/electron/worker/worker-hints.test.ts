/**
 * What a host tells a worker at its start (worker-hints.ts): a ReAct worker starts no QuickJS thread, and a
 * worker takes the host's shell sandbox finding instead of probing, only when the finding is well formed and
 * was made under the same sandbox switch. Real worker processes for the process-level behaviour.
 */
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../shared/run-spec.js';
import type { StepEvent } from '../../../shared/step-event.js';
import type { WorkerProgram } from '../../../shared/modes.js';
import { forkLauncher, workerStartEnvironment, type WorkerHandle } from '../../../electron/host/launcher.js';
import { startSimServer, type SimServer } from '../../../electron/sim/sim-server.js';
import {
  adoptShellSandbox,
  detectShellSandboxAsync,
  type ShellSandboxInfo,
} from '../../../electron/engine/sandbox/shell-sandbox.js';

const VAR = 'PARALLAX_WORKER_HINTS';

/** A fresh copy of the modules, so each case starts with no finding adopted. */
async function fresh() {
  vi.resetModules();
  const hints = await import('../../../electron/worker/worker-hints.js');
  const sandbox = await import('../../../electron/engine/sandbox/shell-sandbox.js');
  return { ...hints, knownShellSandbox: sandbox.knownShellSandbox };
}

const FOUND: ShellSandboxInfo = { kind: 'none', reason: 'the host found none', prlimit: null, reaper: null };

describe('takeWorkerHints', () => {
  it('takes the program and a well-formed finding made under the same switch, and removes the variable', async () => {
    const { takeWorkerHints, hintsEnvironment, knownShellSandbox } = await fresh();
    const env = {
      PATH: '/bin',
      ...hintsEnvironment({ program: 'none', shellSandbox: { found: FOUND, switchedOff: false } }),
    };
    expect(takeWorkerHints(env)).toEqual({ program: 'none' });
    expect(env).toEqual({ PATH: '/bin' });
    expect(knownShellSandbox()).toEqual(FOUND);
  });

  it('ignores a finding made under the other switch, a malformed one, an unknown program and bad JSON', async () => {
    const cases: [Record<string, string>, { program?: WorkerProgram }][] = [
      [
        { [VAR]: JSON.stringify({ program: 'python', shellSandbox: { found: FOUND, switchedOff: true } }) },
        { program: 'python' },
      ],
      [
        {
          [VAR]: JSON.stringify({ program: 'javascript', shellSandbox: { found: FOUND, switchedOff: false } }),
          PARALLAX_SANDBOX: 'off',
        },
        { program: 'javascript' },
      ],
      [
        {
          [VAR]: JSON.stringify({
            program: 'cobol',
            shellSandbox: { found: { ...FOUND, kind: 'jail' }, switchedOff: false },
          }),
        },
        {},
      ],
      [{ [VAR]: JSON.stringify({ shellSandbox: { found: { ...FOUND, prlimit: 7 }, switchedOff: false } }) }, {}],
      [
        { [VAR]: JSON.stringify({ shellSandbox: { found: { ...FOUND, bwrap: ['/bin/sh'] }, switchedOff: false } }) },
        {},
      ],
      [{ [VAR]: '{"program":' }, {}],
      [{ [VAR]: 'null' }, {}],
    ];
    for (const [env, program] of cases) {
      const { takeWorkerHints, knownShellSandbox } = await fresh();
      expect(takeWorkerHints(env)).toEqual(program);
      expect(env[VAR]).toBeUndefined();
      expect(knownShellSandbox()).toBeUndefined();
    }
  });

  it('says nothing when the host knows nothing', async () => {
    const { hintsEnvironment } = await fresh();
    expect(hintsEnvironment({})).toEqual({});
  });
});

describe('workers started with hints', () => {
  let sim: SimServer;
  const handles: WorkerHandle[] = [];
  beforeAll(async () => {
    sim = await startSimServer();
  });
  afterAll(async () => {
    for (const h of handles) h.kill();
    await sim.close();
  });

  /** Launches the real worker; resolves when it has loaded, with its thread count then. */
  async function launched(program: WorkerProgram): Promise<{ handle: WorkerHandle; threads: number }> {
    const handle = forkLauncher().launch({ env: process.env, name: `hints-${program}`, program });
    handles.push(handle);
    await new Promise<void>((resolve) => handle.onMessage((m) => m.type === 'loaded' && resolve()));
    const threads = Number(/Threads:\s+(\d+)/.exec(readFileSync(`/proc/${handle.pid}/status`, 'utf8'))![1]);
    return { handle, threads };
  }

  it("a worker for a run without programs starts one thread fewer (no QuickJS); it records the host's finding", async () => {
    // This machine's finding, told apart by its reason, stands for the host's (this process is the host here).
    const own = await detectShellSandboxAsync();
    const told = { ...own, reason: `${own.reason} (as the host found it)` };
    adoptShellSandbox(told);
    expect(JSON.parse(workerStartEnvironment(process.env, 'none')[VAR]!)).toMatchObject({
      program: 'none',
      shellSandbox: { found: told },
    });

    const [none, js] = [await launched('none'), await launched('javascript')];
    expect(js.threads).toBeGreaterThan(none.threads);

    const events: StepEvent[] = [];
    const finished = new Promise<void>((resolve) =>
      none.handle.onMessage((m) => {
        if (m.type === 'events') events.push(...m.events);
        if (m.type === 'ready') none.handle.send({ type: 'go' });
        if (events.some((e) => e.type === 'run-finished')) resolve();
      }),
    );
    none.handle.send({
      type: 'init',
      apiKey: null,
      spec: {
        runId: 'hints-react',
        task: { id: null, text: 'What is 6 times 7?' },
        mode: 'react',
        apiKeyEnv: null,
        settings: DEFAULT_SETTINGS,
        workspace: tmpdir(),
        provider: { name: 'simulated', baseUrl: sim.url, model: 'sim', simulated: true },
      },
    });
    await finished;
    const started = events.find((e) => e.type === 'run-started');
    expect(started?.type === 'run-started' && started.shellSandbox).toEqual({ kind: told.kind, reason: told.reason });
  });
});
