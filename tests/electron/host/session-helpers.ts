/** Shared set-up for tests that run real worker processes through a ComparisonSession. */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ComparisonMeta } from '../../../shared/ipc-contract.js';
import { DEFAULT_SETTINGS, type ModeId, type RunSpec } from '../../../shared/run-spec.js';
import type { StepEvent } from '../../../shared/step-event.js';
import { ComparisonSession, type SessionDeps } from '../../../electron/host/comparison-session.js';
import { EventFanIn } from '../../../electron/host/fan-in.js';
import { HistoryStore } from '../../../electron/host/history-store.js';
import { forkLauncher, type WorkerLauncher } from '../../../electron/host/launcher.js';
import { SYNTHETIC_WORKER } from '../../helpers/synthetic-worker-path.js';
import { DEFAULT_TIMING, type RunTiming } from '../../../electron/host/run-session.js';

export function syntheticLauncher(perMode: Partial<Record<ModeId, string[]>>, fallback: string[] = []): WorkerLauncher {
  const launchers = new Map<string, WorkerLauncher>();
  return {
    launch(opts) {
      // Run ids end in the mode, then the trial when there are several: <comparison>-react or <comparison>-react-t2.
      const mode = /-([a-z]+)(?:-t\d+)?$/.exec(opts.name)?.[1] as ModeId;
      const args = perMode[mode] ?? fallback;
      const key = args.join(' ');
      let l = launchers.get(key);
      if (!l) launchers.set(key, (l = forkLauncher({ entry: SYNTHETIC_WORKER, args })));
      return l.launch(opts);
    },
  };
}

export interface SessionRig {
  readonly session: ComparisonSession;
  readonly store: HistoryStore;
  readonly emitted: StepEvent[];
  readonly warnings: string[];
  readonly meta: ComparisonMeta;
}

export async function startSession(
  launcher: WorkerLauncher,
  opts: {
    modes?: ModeId[];
    apiKey?: string | null;
    env?: NodeJS.ProcessEnv;
    timing?: Partial<RunTiming>;
    dataDir?: string;
    trackers?: SessionDeps['trackers'];
  } = {},
): Promise<SessionRig> {
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'parallax-host-')));
  const warnings: string[] = [];
  const emitted: StepEvent[] = [];
  const store = new HistoryStore(dataDir, (m) => warnings.push(m));
  const fanIn = new EventFanIn(
    (batch) => emitted.push(...batch),
    (m) => warnings.push(m),
  );
  const id = `test-${Math.random().toString(36).slice(2, 10)}`;
  const modes = opts.modes ?? ['react', 'code'];
  const provider = { name: 'custom', baseUrl: 'http://127.0.0.1:9/v1', model: 'none', simulated: false };
  const task = { id: null, text: 'synthetic' };
  const specs: RunSpec[] = modes.map((mode) => ({
    runId: `${id}-${mode}`,
    comparisonId: id,
    task,
    mode,
    provider,
    apiKeyEnv: null,
    settings: DEFAULT_SETTINGS,
    workspace: dataDir,
  }));
  const meta: ComparisonMeta = {
    id,
    createdAt: Date.now(),
    task,
    provider,
    settings: DEFAULT_SETTINGS,
    workspaceSource: 'empty',
    runs: specs.map((s) => ({ runId: s.runId, mode: s.mode })),
  };
  await store.create(meta);
  const session = new ComparisonSession(meta, specs, opts.apiKey ?? null, {
    launcher,
    store,
    fanIn,
    timing: { ...DEFAULT_TIMING, ...opts.timing },
    baseEnv: opts.env ?? process.env,
    warn: (m) => warnings.push(m),
    ...(opts.trackers ? { trackers: opts.trackers } : {}),
  });
  return { session, store, emitted, warnings, meta };
}

export function eventsOf(events: readonly StepEvent[], runId: string): StepEvent[] {
  return events.filter((e) => e.runId === runId);
}

export async function waitFor(check: () => boolean, timeoutMs = 30_000, what = 'condition'): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
