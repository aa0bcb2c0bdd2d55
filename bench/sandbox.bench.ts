/**
 * What Code Mode's sandbox costs. A fresh QuickJS runtime + context per program is the price of "fresh state
 * per call"; the thread hop is the price of tools that are plain synchronous functions and of a time limit
 * that holds even against native code. Figures are medians; the run_code step overhead is the handleCall
 * wall time minus the time the tools themselves took inside it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ngModule from '@jitl/quickjs-ng-wasmfile-release-sync';
import { newQuickJSWASMModuleFromVariant, type QuickJSSyncVariant } from 'quickjs-emscripten';
import { parseSettings } from '../shared/run-spec.js';
import type { CodeRunEvent, StepEventInput } from '../shared/step-event.js';
import { createCodeMode } from '../electron/engine/modes/code-mode.js';
import { runProgram, Sandbox } from '../electron/engine/sandbox/index.js';
import { findTool, invokeTool } from '../electron/engine/tools/index.js';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (n: number): string => `${n.toFixed(3)} ms`;

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
  const workspace = await mkdtemp(join(tmpdir(), 'parallax-bench-sandbox-'));
  await writeFile(join(workspace, 'a.txt'), 'ok\nERROR one\nok\n'.repeat(200));
  await writeFile(join(workspace, 'b.txt'), 'ERROR two\nok\n'.repeat(300));
  const ctx = { workspace, settings, signal: new AbortController().signal };
  const limits = { timeoutMs: 10_000, memoryMb: 64, outputChars: 4000, maxToolCalls: 50 };

  // 1. The engine alone, in this thread: runtime + context + a trivial eval + dispose.
  const variant = ('default' in ngModule ? ngModule.default : ngModule) as QuickJSSyncVariant;
  const qjs = await newQuickJSWASMModuleFromVariant(variant);
  const bare = await timeIt(500, () => {
    const rt = qjs.newRuntime();
    const vm = rt.newContext();
    vm.unwrapResult(vm.evalCode('1 + 1')).dispose();
    vm.dispose();
    rt.dispose();
  });

  // 2. Thread start (once per Code Mode run; from source under tsx here, faster from the built .js).
  const starts: number[] = [];
  for (let i = 0; i < 3; i++) {
    const s = new Sandbox();
    const t0 = performance.now();
    await s.warmUp();
    starts.push(performance.now() - t0);
    s.dispose();
  }

  // 3. A trivial program through runProgram on a warm sandbox: fresh runtime/context, prelude, eval, reply.
  const sandbox = new Sandbox();
  await sandbox.warmUp();
  const trivial = await timeIt(200, () =>
    runProgram('print(1)', { tools: [], ctx, limits, returnTypes: true, sandbox }),
  );

  // 4. Cost of one tool call crossing into the host and back (echo-like: current_time is cheap and local).
  const clock = findTool('current_time')!;
  const direct = await timeIt(200, () => invokeTool(clock, { timezone: 'UTC' }, ctx));
  const calls = 50;
  const many = await timeIt(20, () =>
    runProgram(`for (let i = 0; i < ${calls}; i++) current_time('UTC');`, {
      tools: [clock],
      ctx,
      limits,
      returnTypes: true,
      sandbox,
    }),
  );
  const perCallBridge = (many - trivial) / calls - direct;
  sandbox.dispose();

  // 5. run_code step overhead: handleCall on a program doing three tool calls, minus the tools' own time.
  const mode = createCodeMode({ workspace, settings });
  const code =
    "const names = list_dir('.');\nfor (const n of names) print(n, read_file(n).split('\\n').filter((l) => l.includes('ERROR')).length);";
  const overheads: number[] = [];
  const toolTimes: number[] = [];
  for (let i = 0; i < 60; i++) {
    const events: StepEventInput[] = [];
    const t0 = performance.now();
    await mode.handleCall(
      'run_code',
      { code },
      { step: 1, callId: 'b', signal: ctx.signal, emit: (e) => events.push(e) },
    );
    const wall = performance.now() - t0;
    const run = events.find((e): e is Omit<CodeRunEvent, 'runId' | 'seq' | 't'> => e.type === 'code-run')!;
    const tools = run.toolCalls.reduce((n, c) => n + c.durationMs, 0);
    if (i >= 5) {
      overheads.push(wall - tools);
      toolTimes.push(tools);
    }
  }
  mode.dispose?.();
  await rm(workspace, { recursive: true, force: true });

  const overhead = median(overheads);
  const toolTime = median(toolTimes);
  console.log(`QuickJS runtime+context+eval+dispose, in-thread (median of 500)  ${ms(bare)}`);
  console.log(`sandbox thread start, from source (median of 3)                  ${ms(median(starts))}`);
  console.log(
    `trivial program via runProgram, warm thread (median of 200)      ${ms(trivial)}   ${(trivial / bare).toFixed(1)}× the bare engine`,
  );
  console.log(`tool call, direct invokeTool (current_time, median of 200)       ${ms(direct)}`);
  console.log(
    `tool call bridge per call (50 calls in one program, net)         ${ms(perCallBridge)}   ${(perCallBridge / direct).toFixed(2)}× the tool itself`,
  );
  console.log(
    `run_code step overhead (3 tool calls, minus tool time, median)   ${ms(overhead)}   tools took ${ms(toolTime)}; overhead/tools ${(overhead / toolTime).toFixed(2)}×`,
  );
}
