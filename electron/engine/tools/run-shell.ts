import { z } from 'zod';
import type { ShellBudget } from '../sandbox/shell-budget.js';
import { runShellCommand, SHELL_MEMORY_SLACK, type ShellRun } from '../sandbox/shell-runner.js';
import { shellSandbox } from '../sandbox/shell-sandbox.js';
import { DEFAULT_TOOL_LIMITS, formatBytes, limitsOf } from './limits.js';
import { runToolState, workspaceBytes, writeBudgetLeft } from './run-state.js';
import { defineTool, ToolError, type ToolContext } from './tool.js';

export interface ShellResult {
  /** null when the command was killed (timeout, cancel, a limit). */
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

/**
 * Variables a command may see. Everything else in the parent environment (API keys, tokens, cloud
 * credentials, the app's own settings) stays out: a model-written command must not be able to print them.
 */
const ALLOWED_ENV = [
  'PATH',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'LC_MESSAGES',
  'LC_NUMERIC',
  'LC_TIME',
  'TZ',
  'TMPDIR',
  'USER',
  'LOGNAME',
];
/** Defence in depth: even an allowed name is dropped if it looks like a secret. */
const SECRET_NAME =
  /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|SESSION)|^(OPENAI|ANTHROPIC|DEEPSEEK|AWS|AZURE|GCP|GOOGLE|GITHUB|NPM)_/i;
const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** The environment for run_shell, built from an allowlist (HOME is set by the runner). */
export function sanitizedShellEnv(base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ALLOWED_ENV) {
    const value = base[name];
    if (typeof value === 'string' && !SECRET_NAME.test(name)) env[name] = value;
  }
  env.PATH ??= DEFAULT_PATH;
  env.LANG ??= 'C.UTF-8';
  // Plain, non-interactive output: no colours, no pagers waiting for a key press.
  env.TERM = 'dumb';
  env.NO_COLOR = '1';
  env.PAGER = 'cat';
  env.GIT_PAGER = 'cat';
  env.SHELL = '/bin/sh';
  return env;
}

export const runShell = defineTool({
  name: 'run_shell',
  description:
    'Run a shell command (/bin/sh -c) in the workspace folder and return {exitCode, stdout, stderr, timedOut}. ' +
    `Commands are killed after ${DEFAULT_TOOL_LIMITS.shellTimeoutMs / 1000} s, each output is capped at ` +
    `${formatBytes(DEFAULT_TOOL_LIMITS.shellOutputBytes)}, there is no stdin, and background ` +
    'processes are stopped when the command ends.',
  args: z.object({
    command: z.string().min(1).describe('The shell command line, e.g. "wc -l *.txt" or "grep -c ERROR app.log".'),
  }),
  returns: '{exitCode: number | null, stdout: string, stderr: string, timedOut: boolean}',
  async run({ command }, ctx): Promise<ShellResult> {
    if (ctx.signal.aborted) throw new ToolError('run_shell was cancelled before it started.');
    // A few commands of the run at once; the rest wait their turn (their time limit starts with it).
    const shell = runToolState(ctx).shell;
    let done: () => void;
    try {
      done = await shell.turn(ctx.signal);
    } catch {
      throw new ToolError('run_shell was cancelled before it started.');
    }
    try {
      return await runOne(command, ctx, shell);
    } finally {
      done();
    }
  },
});

async function runOne(command: string, ctx: ToolContext, shell: ShellBudget): Promise<ShellResult> {
  const limits = limitsOf(ctx);
  // Without bubblewrap, a run whose commands already hold their temp budget in the host's memory starts no more.
  if (shellSandbox().kind !== 'bubblewrap' && (await shell.memoryTaken()) > limits.shellTmpBytes + SHELL_MEMORY_SLACK) {
    return {
      exitCode: null,
      stdout: '',
      stderr: memoryNote(limits.shellTmpBytes, 'so this command was not run'),
      timedOut: false,
    };
  }
  const budget = writeBudgetLeft(ctx);
  const before = await workspaceBytes(ctx.workspace);
  let run: ShellRun;
  try {
    run = await runShellCommand(command, {
      budget: shell,
      workspace: ctx.workspace,
      env: sanitizedShellEnv(),
      signal: ctx.signal,
      limits: {
        timeoutMs: limits.shellTimeoutMs,
        outputBytes: limits.shellOutputBytes,
        maxProcesses: limits.shellMaxProcesses,
        fileBytes: budget,
        writeBudgetBytes: budget,
        tmpBytes: limits.shellTmpBytes,
      },
    });
  } catch (error) {
    throw new ToolError(`run_shell ${(error as Error).message}`);
  }
  await chargeGrowth(ctx, before);
  if (run.stop === 'cancel') throw new ToolError('run_shell was cancelled; the command was killed.');
  const notes: string[] = [];
  if (run.stop === 'time') notes.push(`[killed: the command ran longer than ${limits.shellTimeoutMs / 1000} s]`);
  if (run.stop === 'processes') {
    notes.push(
      `[killed: the command started more than ${limits.shellMaxProcesses} processes, or the run's commands together had more (they share that limit); run fewer at once]`,
    );
  }
  if (run.stop === 'memory') {
    notes.push(memoryNote(limits.shellTmpBytes, 'so the command was killed'));
  }
  if (run.stop === 'write-budget' || writeBudgetLeft(ctx) === 0) {
    notes.push(
      `[the run's workspace write budget of ${formatBytes(limits.workspaceWriteBytes)} is used up` +
        `${run.stop === 'write-budget' ? ', so the command was killed' : ''}: files can no longer grow (writes fail with "File size limit exceeded"). Delete files you no longer need or write less]`,
    );
  }
  let stderr = run.stderr;
  for (const note of notes) stderr += `${stderr && !stderr.endsWith('\n') ? '\n' : ''}${note}`;
  return { exitCode: run.exitCode, stdout: run.stdout, stderr, timedOut: run.stop === 'time' };
}

/** Adds what the command added to the workspace to the run's written bytes (unknown for a huge workspace). */
async function chargeGrowth(ctx: ToolContext, before: number | null): Promise<void> {
  if (before === null) return;
  const after = await workspaceBytes(ctx.workspace);
  if (after !== null) runToolState(ctx).written += Math.max(0, after - before);
}

const memoryNote = (bytes: number, what: string) =>
  `[the run's commands hold more than ${formatBytes(bytes)} in memory-backed folders (/dev/shm, /dev, a tmpfs /tmp), ${what}; delete what they left there]`;
