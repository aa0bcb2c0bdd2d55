/**
 * The host adds to a worker's events in one step (RunSession.accept): the fields StepEvent marks HostAdded.
 * A worker's own value in one of them is never kept.
 */
import { describe, expect, it } from 'vitest';
import type { WorkerHandle } from '../../../electron/host/launcher.js';
import type { WorkerToHost } from '../../../electron/worker/worker-protocol.js';
import { DEFAULT_TIMING, RunSession } from '../../../electron/host/run-session.js';
import { timeWorker } from '../../../electron/host/worker-start.js';
import { DEFAULT_SETTINGS, type RunSpec } from '../../../shared/run-spec.js';
import { runStartedEvent } from '../../../shared/run-started.js';
import { computeTotals } from '../../../shared/summary.js';
import { PROMPT_PARTS, type PromptComposition } from '../../../shared/prompt-composition.js';
import type { ModelResponseEvent, RunFinishedEvent, StepEvent } from '../../../shared/step-event.js';

const spec: RunSpec = {
  runId: 'c1-react',
  comparisonId: 'c1',
  task: { id: null, text: 'a task' },
  mode: 'react',
  provider: { name: 'custom', baseUrl: 'http://127.0.0.1:9/v1', model: 'none', simulated: false },
  apiKeyEnv: null,
  settings: DEFAULT_SETTINGS,
  workspace: '/tmp',
};

const composition = (other: number): PromptComposition =>
  ({ ...Object.fromEntries(PROMPT_PARTS.map((p) => [p, 0])), other }) as PromptComposition;

/** A worker handle whose messages the test sends; it never exits. */
function fakeWorker() {
  const listeners: ((m: WorkerToHost) => void)[] = [];
  const handle: WorkerHandle = {
    pid: 1,
    send: () => {},
    onMessage: (l) => void listeners.push(l),
    onExit: () => {},
    kill: () => {},
  };
  return { handle, post: (m: WorkerToHost) => listeners.forEach((l) => l(m)) };
}

/** The worker's events of a one-step run, with a worker's values in every host-added field. */
function sentByWorker(): StepEvent[] {
  const started = { ...runStartedEvent(spec, 1_000), workerStart: { ms: 5, beforeRunMs: 0, pooled: true } };
  const response: ModelResponseEvent = {
    type: 'model-response',
    runId: spec.runId,
    seq: 1,
    t: 10,
    step: 1,
    usage: { prompt: 40, completion: 2 },
    latencyMs: 9,
    finishReason: 'stop',
    text: 'done',
    toolCalls: [],
    promptComposition: composition(1),
  };
  const ending = {
    type: 'run-finished' as const,
    runId: spec.runId,
    seq: 2,
    t: 11,
    status: 'answered' as const,
    answer: 'done',
    validation: null,
  };
  const finished: RunFinishedEvent = {
    ...ending,
    totals: { ...computeTotals([started, response, { ...ending, totals: computeTotals([]) }]), startupMs: 77 },
  };
  return [started, response, finished];
}

function session(opts: { clock: boolean; tracker: boolean }) {
  const worker = fakeWorker();
  const clock = opts.clock ? timeWorker(worker.handle, false) : null;
  const accepted: StepEvent[] = [];
  const observed: string[] = [];
  const tracker = {
    observe(e: StepEvent): StepEvent {
      observed.push(`${e.type}#${e.seq}`);
      return e.type === 'model-response' ? { ...e, promptComposition: composition(40) } : e;
    },
  };
  const warnings: string[] = [];
  const run = new RunSession(
    spec,
    worker.handle,
    {
      accept: () => {},
      record: (events) => accepted.push(...events),
      ready: () => {},
      ended: () => {},
      warn: (m) => warnings.push(m),
    },
    DEFAULT_TIMING,
    opts.tracker ? () => Promise.resolve(tracker) : undefined,
  );
  run.init(null);
  worker.post({ type: 'ready' });
  /** Every event kept so far has reached the record (the tracker, asked for at the first reply, has loaded). */
  const recorded = () => new Promise<void>((resolve) => run.afterRecorded(resolve));
  return { run, worker, clock, accepted, observed, warnings, recorded };
}

describe('RunSession.accept: the one step that adds host fields', () => {
  it("puts the measured start-up and the tracker's composition in place of the worker's values", async () => {
    const s = session({ clock: true, tracker: true });
    const start = s.clock!.record()!;
    // A repeated event and one of another run are dropped before the step: the tracker sees kept events only.
    const [started, response, finished] = sentByWorker();
    s.worker.post({ type: 'events', events: [started!, response!, response!, { ...response!, runId: 'x', seq: 2 }] });
    s.worker.post({ type: 'events', events: [finished!] });
    await s.recorded();

    expect(s.observed).toEqual(['run-started#0', 'model-response#1', 'run-finished#2']);
    const [a, b, c] = s.accepted as [StepEvent, ModelResponseEvent, RunFinishedEvent];
    expect(a.type === 'run-started' && a.workerStart).toEqual(start);
    expect(b.promptComposition).toEqual(composition(40));
    expect(c.totals.startupMs).toBe(start.ms);
    // The run's own copy (a dead worker's totals are computed from it) has the start-up too.
    expect(s.run.events[0]).toEqual(a);
    expect(s.warnings).toHaveLength(2);
  });

  it('without a measurement or a tracker, what the worker put in those fields is dropped', () => {
    const s = session({ clock: false, tracker: false });
    s.worker.post({ type: 'events', events: sentByWorker() });
    const [a, b, c] = s.accepted as [StepEvent, ModelResponseEvent, RunFinishedEvent];
    expect(a.type === 'run-started' && 'workerStart' in a).toBe(false);
    expect('promptComposition' in b).toBe(false);
    expect(c.totals.startupMs).toBe(0);
  });

  it('an event with no host field passes unchanged', () => {
    const s = session({ clock: false, tracker: false });
    const [started] = sentByWorker();
    const { workerStart: _, ...plain } = started as Extract<StepEvent, { type: 'run-started' }>;
    s.worker.post({ type: 'events', events: [plain] });
    expect(s.accepted[0]).toStrictEqual(plain);
  });
});
