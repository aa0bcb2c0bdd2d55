/**
 * What Code Mode (Python) costs, beside QuickJS: loading Pyodide (paid once per run, before the run is
 * released), a trivial program, and the tool-call bridge (a call line to the worker and a blocking read of
 * the reply, against QuickJS's Atomics.wait on a shared buffer). Figures are medians; the child's resident
 * size is read when it says it is ready. The child starts in both configurations the app has: in bubblewrap,
 * and with it switched off (PARALLAX_SANDBOX=off: Node's permission model alone); a program that changes
 * module state shows what putting it back for the next program costs (codeState 'fresh').
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSettings } from '../shared/run-spec.js';
import { runProgram, Sandbox, type ProgramSandbox } from '../electron/engine/sandbox/index.js';
import { loadPythonRuntime } from '../electron/engine/sandbox/python/py-runtime.js';
import { PySandbox } from '../electron/engine/sandbox/python/py-sandbox.js';
import { detectShellSandbox, shellSandbox } from '../electron/engine/sandbox/shell-sandbox.js';
import { findTool, invokeTool } from '../electron/engine/tools/index.js';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (n: number): string => `${n.toFixed(3)} ms`;
const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(0)} MB`;

async function timeIt(runs: number, fn: () => Promise<unknown> | unknown): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return median(samples);
}

export default async function bench(): Promise<void> {
  const settings = parseSettings({});
  const workspace = await mkdtemp(join(tmpdir(), 'parallax-bench-py-'));
  const ctx = { workspace, settings, signal: new AbortController().signal };
  const limits = { timeoutMs: 10_000, memoryMb: 64, outputChars: 4000, maxToolCalls: 100 };

  // 1. Pyodide alone, in this process: load, prelude, seal; what it adds to the resident size.
  // CPU time too: on a busy machine the wall time mostly measures the wait for a core.
  const rssBefore = process.memoryUsage.rss();
  const cpuBefore = process.cpuUsage();
  const t0 = performance.now();
  await loadPythonRuntime({ onCall: () => '{"ok":true}', onOutput: () => undefined });
  const inProcess = performance.now() - t0;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const rssAdded = process.memoryUsage.rss() - rssBefore;

  // 2. The sandbox child as a run starts it (spawn, bubblewrap when present, load): once per run, before release.
  const configs = [shellSandbox(), detectShellSandbox({ env: { PARALLAX_SANDBOX: 'off' } })];
  const starts: { containment: string; wall: number; rss: number }[] = [];
  for (const sandbox of configs) {
    const samples: number[] = [];
    let rss = 0;
    let containment = '';
    for (let i = 0; i < 3; i++) {
      const s = new PySandbox({ sandbox });
      const s0 = performance.now();
      const facts = await s.warmUp();
      samples.push(performance.now() - s0);
      rss = facts.rssBytes;
      containment = facts.containment;
      s.dispose();
    }
    starts.push({ containment, wall: median(samples), rss });
  }

  // 3 and 4. A trivial program and the bridge, each sandbox warm.
  const clock = findTool('current_time')!;
  const direct = await timeIt(200, () => invokeTool(clock, { timezone: 'UTC' }, ctx));
  const calls = 50;
  const measure = async (sandbox: ProgramSandbox, language: 'javascript' | 'python') => {
    const trivial = await timeIt(100, () =>
      runProgram('print(1)', { tools: [], ctx, limits, returnTypes: true, sandbox, language }),
    );
    const changing =
      language === 'python' ? 'import json\njson._stash = 1\njson.JSONEncoder.extra = 2\nprint(1)' : 'print(1)';
    const dirty = await timeIt(50, () =>
      runProgram(changing, { tools: [], ctx, limits, returnTypes: true, sandbox, language }),
    );
    const loop =
      language === 'python'
        ? `for i in range(${calls}):\n    current_time('UTC')`
        : `for (let i = 0; i < ${calls}; i++) current_time('UTC');`;
    const many = await timeIt(20, () =>
      runProgram(loop, { tools: [clock], ctx, limits, returnTypes: true, sandbox, language }),
    );
    return { trivial, dirty, bridge: (many - trivial) / calls - direct };
  };
  const quickjs = new Sandbox();
  await quickjs.warmUp();
  const js = await measure(quickjs, 'javascript');
  quickjs.dispose();
  const pyodide = new PySandbox();
  await pyodide.warmUp();
  const py = await measure(pyodide, 'python');
  pyodide.dispose();
  await rm(workspace, { recursive: true, force: true });

  console.log(
    `Pyodide load in-process (load + prelude + seal, once)             ${ms(inProcess)}   CPU ${ms(cpuMs)}   +${mb(rssAdded)} resident`,
  );
  for (const start of starts) {
    console.log(
      `Python sandbox child ready (${start.containment}, permission model, median of 3)   ${ms(start.wall)}   child resident ${mb(start.rss)}`,
    );
  }
  console.log(
    `trivial program, warm: QuickJS ${ms(js.trivial)}   Pyodide ${ms(py.trivial)}   ${(py.trivial / js.trivial).toFixed(1)}×`,
  );
  console.log(`Pyodide program that changes a module and a class (put back before the next): ${ms(py.dirty)}`);
  console.log(
    `tool call bridge per call (50 in one program, net of the tool ${ms(direct)}): QuickJS ${ms(js.bridge)}   Pyodide ${ms(py.bridge)}`,
  );
}
