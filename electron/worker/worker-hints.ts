/**
 * What a host tells a worker at its start, before any spec, so the worker prepares only what its run will use:
 * the language of the programs its run will run (a ReAct worker then starts no QuickJS thread; a Code Mode
 * (Python) worker starts its Pyodide child at once), and the host's shell sandbox finding (the worker then runs
 * no probe of its own). Hints, not orders: a worker given another run than hinted still prepares that run at
 * init, only later. Carried in one environment variable, which the worker removes before it starts anything.
 * Neither is a secret: the spec and the key still travel only in 'init'.
 */
import type { WorkerProgram } from '../../shared/modes.js';
import { adoptShellSandbox, type ShellSandboxInfo } from '../engine/sandbox/shell-sandbox.js';
import { osSandboxSwitchedOff } from '../engine/sandbox/sandbox-switch.js';

export const WORKER_HINTS_ENV = 'PARALLAX_WORKER_HINTS';

export type { WorkerProgram };

export interface WorkerHints {
  /** 'none': the run has no run_code. Absent: unknown (a standing pool's worker), prepared as for JavaScript. */
  readonly program?: WorkerProgram;
  /** The host's finding, made with the sandbox switch (`PARALLAX_SANDBOX`) as `switchedOff` says. */
  readonly shellSandbox?: { readonly found: ShellSandboxInfo; readonly switchedOff: boolean };
}

/** The variable to add to a worker's environment ({} when there is nothing to say). */
export function hintsEnvironment(hints: WorkerHints): Record<string, string> {
  return hints.program || hints.shellSandbox ? { [WORKER_HINTS_ENV]: JSON.stringify(hints) } : {};
}

const PROGRAMS: readonly unknown[] = ['javascript', 'python', 'none'];
const optionalPath = (v: unknown): boolean => v === undefined || v === null || typeof v === 'string';

function isFinding(f: Record<string, unknown>): boolean {
  return (
    (f.kind === 'bubblewrap' || f.kind === 'seatbelt' || f.kind === 'none') &&
    typeof f.reason === 'string' &&
    (f.prlimit === null || typeof f.prlimit === 'string') &&
    ['bwrap', 'sandboxExec', 'reaper', 'unshare'].every((k) => optionalPath(f[k])) &&
    (f.disableUserns === undefined || typeof f.disableUserns === 'boolean')
  );
}

/**
 * Reads (and removes) the hints from this process's environment. The sandbox finding is taken only when it is
 * well formed and was made under the same switch as this process's; anything else is ignored, and the worker
 * probes and prepares as it would without hints.
 */
export function takeWorkerHints(env: NodeJS.ProcessEnv = process.env): { program?: WorkerProgram } {
  const text = env[WORKER_HINTS_ENV];
  delete env[WORKER_HINTS_ENV];
  if (!text) return {};
  let hints: { program?: unknown; shellSandbox?: { found?: unknown; switchedOff?: unknown } };
  try {
    hints = JSON.parse(text) as typeof hints;
  } catch {
    return {};
  }
  if (typeof hints !== 'object' || hints === null) return {};
  const sandbox = hints.shellSandbox;
  if (
    typeof sandbox === 'object' &&
    sandbox !== null &&
    typeof sandbox.found === 'object' &&
    sandbox.found !== null &&
    isFinding(sandbox.found as Record<string, unknown>) &&
    sandbox.switchedOff === osSandboxSwitchedOff(env)
  )
    adoptShellSandbox(sandbox.found as ShellSandboxInfo);
  return PROGRAMS.includes(hints.program) ? { program: hints.program as WorkerProgram } : {};
}
