import { spawn } from 'node:child_process';
import { z } from 'zod';
import { DEFAULT_TOOL_LIMITS, formatBytes, limitsOf } from './limits.js';
import { defineTool, ToolError } from './tool.js';

export interface ShellResult {
  /** null when the command was killed by a signal (timeout, cancel). */
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

/**
 * Variables a command may see. Everything else in the parent environment (API keys, tokens, cloud
 * credentials, the app's own settings) stays out: a model-written command must not be able to print them.
 */
const ALLOWED_ENV = ['PATH', 'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'LC_MESSAGES', 'LC_NUMERIC', 'LC_TIME', 'TZ', 'TMPDIR', 'USER', 'LOGNAME'];
/** Defence in depth: even an allowed name is dropped if it looks like a secret. */
const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|SESSION)|^(OPENAI|ANTHROPIC|DEEPSEEK|AWS|AZURE|GCP|GOOGLE|GITHUB|NPM)_/i;
const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** The environment for run_shell, built from an allowlist (HOME is set to the workspace by the caller). */
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
  run({ command }, ctx): Promise<ShellResult> {
    const limits = limitsOf(ctx);
    if (ctx.signal.aborted) return Promise.reject(new ToolError('run_shell was cancelled before it started.'));
    return new Promise<ShellResult>((resolve, reject) => {
      const child = spawn('/bin/sh', ['-c', command], {
        cwd: ctx.workspace,
        env: { ...sanitizedShellEnv(), HOME: ctx.workspace },
        stdio: ['ignore', 'pipe', 'pipe'],
        // Its own process group, so a timeout or cancel kills everything the command started.
        detached: true,
      });
      const stdout = capture(limits.shellOutputBytes);
      const stderr = capture(limits.shellOutputBytes);
      child.stdout.on('data', stdout.add);
      child.stderr.on('data', stderr.add);

      let timedOut = false;
      let cancelled = false;
      const killGroup = (): void => {
        if (child.pid === undefined) return;
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // ESRCH: the group is already gone.
        }
      };
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup();
      }, limits.shellTimeoutMs);
      const onAbort = (): void => {
        cancelled = true;
        killGroup();
      };
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      const cleanup = (): void => {
        clearTimeout(timer);
        ctx.signal.removeEventListener('abort', onAbort);
      };

      child.on('error', (error) => {
        cleanup();
        reject(new ToolError(`run_shell could not start /bin/sh: ${error.message}`));
      });
      // When the shell exits, stop anything it left running; the pipes then close and 'close' fires.
      child.on('exit', killGroup);
      child.on('close', (code) => {
        cleanup();
        if (cancelled) {
          reject(new ToolError('run_shell was cancelled; the command was killed.'));
          return;
        }
        let err = stderr.text();
        if (timedOut) err += `${err && !err.endsWith('\n') ? '\n' : ''}[killed: the command ran longer than ${limits.shellTimeoutMs / 1000} s]`;
        resolve({ exitCode: timedOut ? null : code, stdout: stdout.text(), stderr: err, timedOut });
      });
    });
  },
});

/** Keeps the first `cap` bytes of a stream and counts the rest, so a flood of output cannot fill memory. */
function capture(cap: number): { add: (chunk: Buffer) => void; text: () => string } {
  const chunks: Buffer[] = [];
  let kept = 0;
  let dropped = 0;
  return {
    add(chunk) {
      const room = cap - kept;
      if (room > 0) {
        const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
        chunks.push(part);
        kept += part.length;
      }
      dropped += Math.max(0, chunk.length - Math.max(0, room));
    },
    text() {
      const body = Buffer.concat(chunks).toString('utf8');
      if (dropped === 0) return body;
      return `${body}\n[output truncated: ${dropped} more bytes not shown — filter it, e.g. with grep, head or wc]`;
    },
  };
}
