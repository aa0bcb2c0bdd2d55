/**
 * A comparison's rounds: how its runs are grouped (one round per trial), what one round in flight holds, and how
 * a worker is launched for a round's run (a failed launch becomes a handle that has already exited).
 */
import type { ComparisonMeta } from '../../shared/ipc-contract.js';
import type { WorkerProgram } from '../../shared/modes.js';
import type { RunSpec } from '../../shared/run-spec.js';
import type { WorkerExit, WorkerHandle, WorkerLauncher } from './launcher.js';
import type { RunSession } from './run-session.js';

/** One round in flight: its runs, whether they were released, and the pool refill made for what follows. */
export interface Round {
  readonly index: number;
  readonly runs: RunSession[];
  released: boolean;
  refilled: boolean;
  /** Runs of this round that have sent their first model request. */
  readonly requested: Set<string>;
  /** Its runs' logs, synced before its slot is given back. */
  readonly logs: Promise<void>[];
  /** Gives its scheduler slot back; null while it holds none (lent out while all its runs wait for a person). */
  slot: (() => void) | null;
  /** Answers held until the round has a slot again. */
  readonly held: (() => void)[];
  /** Whether a slot is being asked for again. */
  reacquiring: boolean;
}

/** Specs grouped by trial (meta.runs order); a run without a trial (stored before trials) is trial 1. */
export function roundsOf(meta: ComparisonMeta, specs: readonly RunSpec[]): RunSpec[][] {
  const trialOf = new Map(meta.runs.map((r) => [r.runId, r.trial ?? 1]));
  const rounds = new Map<number, RunSpec[]>();
  for (const spec of specs) {
    const trial = trialOf.get(spec.runId) ?? 1;
    let list = rounds.get(trial);
    if (!list) rounds.set(trial, (list = []));
    list.push(spec);
  }
  return [...rounds.keys()].sort((a, b) => a - b).map((k) => rounds.get(k)!);
}

/** A launcher that throws (no memory for a process, a missing entry) gives a handle that has already exited. */
export function launchOrFail(
  launcher: WorkerLauncher,
  env: NodeJS.ProcessEnv,
  name: string,
  program?: WorkerProgram,
): WorkerHandle {
  try {
    return launcher.launch({ env, name, ...(program ? { program } : {}) });
  } catch (err) {
    const exit: WorkerExit = {
      code: null,
      signal: null,
      stderrTail: `The worker process could not be started: ${(err as Error).message}`,
    };
    return {
      pid: undefined,
      send: () => {},
      onMessage: () => {},
      onExit: (listener) => void setImmediate(() => listener(exit)),
      kill: () => {},
    };
  }
}
