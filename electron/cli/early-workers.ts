/**
 * `parallax compare` forks its first round's workers before commander, the command file and its schemas load:
 * on a small machine the workers' own loading then overlaps the rest of the CLI's start instead of following
 * it. How many is read from the arguments as compare reads them (--modes, else the default modes); with
 * --variants or --models (columns known only once they are read) nothing starts early and compare forks as
 * before. compare.ts takes the pool; one nobody took (a mistyped flag, a missing key) is closed when the command
 * ends or the process exits, so no worker outlives the command.
 */
import { DEFAULT_MODES, workerProgramOf, type WorkerProgram } from '../../shared/modes.js';
import type { WorkerLauncher } from '../host/launcher.js';
import type { WorkerPool } from '../host/worker-pool.js';
import { warn } from './terminal.js';

export interface EarlyWorkers {
  readonly launcher: WorkerLauncher;
  readonly pool: WorkerPool;
}

let early: EarlyWorkers | null = null;

/**
 * The program language of each column compare's first round takes for these arguments (what follows `parallax`),
 * one per distinct mode of --modes (else the default modes); empty when unknown.
 */
export function earlyWorkerPrograms(args: readonly string[]): WorkerProgram[] {
  if (args[0] !== 'compare') return [];
  let modes: string | undefined;
  for (let i = 1; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--help' || a === '-h' || a === '--') return [];
    if (/^--(variants|models)(=|$)/.test(a)) return [];
    if (a === '--modes') modes = args[i + 1];
    else if (a.startsWith('--modes=')) modes = a.slice('--modes='.length);
  }
  const names =
    modes === undefined
      ? DEFAULT_MODES
      : new Set(
          modes
            .split(',')
            .map((m) => m.trim())
            .filter(Boolean),
        );
  return [...names].slice(0, 8).map(workerProgramOf); // a long list is left to compare's own checks and rounds
}

/** Forks the workers these arguments will take, if any; compare.ts takes them with takeEarlyWorkers(). */
export async function startEarlyWorkers(args: readonly string[]): Promise<void> {
  const programs = earlyWorkerPrograms(args);
  if (programs.length === 0) return;
  const [{ forkLauncher, workerEnvironment }, { WorkerPool }] = await Promise.all([
    import('../host/launcher.js'),
    import('../host/worker-pool.js'),
  ]);
  const launcher = forkLauncher();
  // The same pool compare makes (its environment, its warnings), only sooner.
  const pool = new WorkerPool(launcher, workerEnvironment(process.env), { warn: (m) => warn(`warning: ${m}`) });
  void pool.warm(programs, false);
  early = { launcher, pool };
  // Commander ends the process itself on a flag it rejects (process.exit, past main.ts's finally): workers
  // nobody took are killed with it, not left to notice their host is gone.
  process.once('exit', closeUntakenWorkers);
}

/** The workers forked early, handed over once (null when none were). */
export function takeEarlyWorkers(): EarlyWorkers | null {
  const taken = early;
  early = null;
  return taken;
}

/** Closes workers forked early that no command took. */
export function closeUntakenWorkers(): void {
  takeEarlyWorkers()?.pool.close();
}
