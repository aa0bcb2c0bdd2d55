/**
 * How promptly a limit or a cancel stops the work it bounds: what the tests used to bound in milliseconds and
 * now check by the path that ended the work (its message, the thread or process replaced, nothing left
 * running). Each figure is the time from the start of the work (or from the cancel) to its end as the caller
 * sees it, against the limit; overshoot = that time minus the limit. Printed only: on a busy machine they grow,
 * and nothing here fails for it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { parseSettings } from '../shared/run-spec.js';
import { standardBindings } from '../electron/engine/modes/code/bindings.js';
import { runProgram, Sandbox, type ProgramSandbox, type SandboxLimits } from '../electron/engine/sandbox/index.js';
import { PySandbox } from '../electron/engine/sandbox/python/py-sandbox.js';
import { runShellCommand } from '../electron/engine/sandbox/shell-runner.js';
import { shellSandbox } from '../electron/engine/sandbox/shell-sandbox.js';
import { ComputeThread } from '../electron/engine/tools/compute/compute-thread.js';
import { warmUpTools } from '../electron/engine/tools/index.js';
import { defineTool } from '../electron/engine/tools/tool.js';

const RUNS = 5;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const max = (xs: number[]): number => Math.max(...xs);
const f0 = (n: number): string => `${n.toFixed(0)} ms`;
const line = (what: string, limitMs: number, took: number[]): string =>
  `${what}: median ${f0(median(took))}, max ${f0(max(took))} (limit ${f0(limitMs)}; overshoot median ${f0(median(took) - limitMs)})`;

async function samples(fn: () => Promise<number>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) out.push(await fn());
  return out;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn().catch(() => undefined);
  return performance.now() - t0;
}

/** Time from abort to the end of `start(signal)`, the abort coming `afterMs` after the start. */
async function afterAbort(afterMs: number, start: (signal: AbortSignal) => Promise<unknown>): Promise<number> {
  const controller = new AbortController();
  const done = start(controller.signal).catch(() => undefined);
  await new Promise((r) => setTimeout(r, afterMs));
  const t0 = performance.now();
  controller.abort();
  await done;
  return performance.now() - t0;
}

async function computeThread(): Promise<void> {
  const thread = new ComputeThread();
  await thread.warmUp();
  await thread.run('calc-load', {}, { timeoutMs: 60_000 });
  const SLOW = 'sum(cumsum(1:1e6))';
  const reload = (): Promise<unknown> => thread.run('calc-load', {}, { timeoutMs: 60_000 }); // a fresh thread, ready again
  const deadline = await samples(async () => {
    const took = await timed(() => thread.run('calc', { expression: SLOW }, { timeoutMs: 150 }));
    await reload();
    return took;
  });
  console.log(line('compute thread: a calculation stopped at its deadline (thread terminated)', 150, deadline));
  const aborted = await samples(async () => {
    const took = await afterAbort(100, (signal) =>
      thread.run('calc', { expression: SLOW }, { timeoutMs: 30_000, signal }),
    );
    await reload();
    return took;
  });
  console.log(`compute thread: abort → the call rejects: median ${f0(median(aborted))}, max ${f0(max(aborted))}`);
  thread.dispose();
}

async function shell(workspace: string): Promise<void> {
  const limits = {
    timeoutMs: 300,
    outputBytes: 4096,
    maxProcesses: 64,
    fileBytes: 1 << 20,
    writeBudgetBytes: 1 << 20,
    tmpBytes: 1 << 20,
  };
  const run = (signal: AbortSignal, timeoutMs = 300) =>
    runShellCommand('sleep 600 & sleep 601', {
      workspace,
      env: { PATH: '/usr/bin:/bin' },
      limits: { ...limits, timeoutMs },
      signal,
      sandbox: shellSandbox(),
    });
  const timedOut = await samples(() => timed(() => run(new AbortController().signal)));
  console.log(
    line(
      `run_shell (${shellSandbox().kind}): a command with background children stopped at its time limit`,
      300,
      timedOut,
    ),
  );
  const cancelled = await samples(() => afterAbort(300, (signal) => run(signal, 60_000)));
  console.log(
    `run_shell (${shellSandbox().kind}): cancel → the call returns, its processes killed: median ${f0(median(cancelled))}, max ${f0(max(cancelled))}`,
  );
}

async function programs(workspace: string): Promise<void> {
  const settings = parseSettings({});
  const slowTool = defineTool({
    name: 'slow_tool',
    description: 'Waits.',
    args: z.object({ ms: z.number() }),
    returns: 'number',
    run: ({ ms }, ctx) =>
      new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => resolve(ms), ms);
        ctx.signal.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('cancelled'))));
      }),
  });
  const bindings = standardBindings();
  const run = (
    sandbox: ProgramSandbox,
    code: string,
    limits: Partial<SandboxLimits>,
    signal = new AbortController().signal,
    language?: 'python',
  ) =>
    runProgram(code, {
      tools: [...bindings.tools, slowTool],
      hiddenTools: bindings.hiddenTools,
      ctx: { workspace, settings, signal },
      returnTypes: true,
      sandbox,
      limits: { timeoutMs: 30_000, memoryMb: 64, outputChars: 4000, maxToolCalls: 50, ...limits },
      ...(language ? { language } : {}),
    });
  const quickjs = new Sandbox();
  await Promise.all([quickjs.warmUp(), warmUpTools()]);
  const cases: [string, string, number][] = [
    ['QuickJS: a busy loop (interrupt)', 'while (true) {}', 400],
    ['QuickJS: a program waiting in a slow tool (the tool abandoned)', 'slow_tool(60000);', 400],
    [
      'QuickJS: native code deaf to the interrupt (thread terminated after the stop grace)',
      "/(a|b)*c/.exec('ab'.repeat(50000));",
      300,
    ],
    [
      'QuickJS: a program looping on a slow calculator expression in the compute thread',
      "const calc = search_tools('calculator')[0]; for (;;) { try { calc('sum(cumsum(1:1e6))'); } catch (e) {} }",
      1000,
    ],
  ];
  for (const [what, code, limit] of cases) {
    const took = await samples(async () => (await run(quickjs, code, { timeoutMs: limit })).durationMs);
    console.log(line(what, limit, took));
  }
  const cancelled = await samples(() => afterAbort(200, (signal) => run(quickjs, 'while (true) {}', {}, signal)));
  console.log(`QuickJS: cancel → the program returns: median ${f0(median(cancelled))}, max ${f0(max(cancelled))}`);
  quickjs.dispose();

  const python = new PySandbox();
  await python.warmUp();
  const py: [string, string, number][] = [
    ['Python: a busy loop (KeyboardInterrupt)', 'while True:\n    pass', 800],
    [
      'Python: a loop that swallows the interrupt (interrupted again, or killed after the stop grace)',
      'while True:\n    try:\n        while True:\n            pass\n    except BaseException:\n        pass',
      800,
    ],
  ];
  for (const [what, code, limit] of py) {
    const took = await samples(
      async () => (await run(python, code, { timeoutMs: limit }, undefined, 'python')).durationMs,
    );
    console.log(line(what, limit, took));
  }
  python.dispose();
}

export default async function bench(): Promise<void> {
  const workspace = await mkdtemp(join(tmpdir(), 'parallax-bench-deadlines-'));
  try {
    await computeThread();
    await shell(workspace);
    await programs(workspace);
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}
