/** Shared set-up for the sandbox tests: a real temp workspace, a real sandbox thread, small test tools. */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { DEFAULT_SETTINGS } from '../../../../shared/run-spec.js';
import { standardBindings } from '../../../../electron/engine/modes/code/bindings.js';
import {
  runProgram,
  Sandbox,
  type ProgramOptions,
  type ProgramResult,
  type SandboxLimits,
} from '../../../../electron/engine/sandbox/index.js';
import { warmUpTools } from '../../../../electron/engine/tools/index.js';
import { defineTool, ToolError, type ToolDefinition } from '../../../../electron/engine/tools/tool.js';

/** A test that is about a time limit sets its own; the default is generous so a busy machine never hits it. */
export const LIMITS: SandboxLimits = { timeoutMs: 30_000, memoryMb: 64, outputChars: 4000, maxToolCalls: 50 };

/** What the slow tool saw: whether its signal was aborted before it finished. */
export const slowLog: { started: number; aborted: number } = { started: 0, aborted: 0 };

export const TEST_TOOLS: readonly ToolDefinition[] = [
  defineTool({
    name: 'slow_tool',
    description: 'Waits the given number of milliseconds, then returns them.',
    args: z.object({ ms: z.number() }),
    returns: 'number',
    run: ({ ms }, ctx) =>
      new Promise<number>((resolve, reject) => {
        slowLog.started += 1;
        const timer = setTimeout(() => resolve(ms), ms);
        ctx.signal.addEventListener('abort', () => {
          slowLog.aborted += 1;
          clearTimeout(timer);
          reject(new ToolError('slow_tool was cancelled'));
        });
      }),
  }),
  defineTool({
    name: 'fail_tool',
    description: 'Always fails.',
    args: z.object({}),
    returns: 'never',
    run: async () => {
      throw new ToolError('fail_tool broke on purpose: call something else');
    },
  }),
  defineTool({
    name: 'echo',
    description: 'Returns its arguments as an object.',
    args: z.object({ text: z.string(), times: z.number().default(1) }),
    returns: '{text: string, times: number}',
    run: async ({ text, times }) => ({ text, times }),
  }),
];

export interface Harness {
  readonly workspace: string;
  readonly sandbox: Sandbox;
  run(
    code: string,
    extra?: Omit<Partial<ProgramOptions>, 'limits'> & { limits?: Partial<SandboxLimits> },
  ): Promise<ProgramResult>;
  close(): Promise<void>;
}

/** A workspace folder inside a temp root, so a file beside it is "outside the workspace". */
export async function harness(): Promise<Harness> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'parallax-sandbox-')));
  const workspace = join(root, 'ws');
  const { mkdir } = await import('node:fs/promises');
  await mkdir(workspace);
  const sandbox = new Sandbox();
  // As a worker does before a run: the sandbox thread and the compute thread (calculator, search) started.
  await Promise.all([sandbox.warmUp(), warmUpTools()]);
  const bindings = standardBindings();
  return {
    workspace,
    sandbox,
    run: (code, extra = {}) =>
      runProgram(code, {
        tools: [...bindings.tools, ...TEST_TOOLS],
        hiddenTools: bindings.hiddenTools,
        ctx: { workspace, settings: DEFAULT_SETTINGS, signal: new AbortController().signal },
        returnTypes: true,
        sandbox,
        ...extra,
        limits: { ...LIMITS, ...extra.limits },
      }),
    close: async () => {
      sandbox.dispose();
      await rm(root, { recursive: true, force: true });
    },
  };
}
