/**
 * The host's side of one run: its worker, the seq check on what it sends, cancel with a kill after a grace
 * period, and — when the worker dies before run-finished — a synthetic run-finished so the run ends as
 * crashed (or cancelled) while every event received before it is kept.
 */
import { MODE_LABELS, type RunSpec } from '../../shared/run-spec.js';
import type {
  ApprovalRequestedEvent,
  ApprovalResolvedEvent,
  ElicitationEvent,
  ElicitationRequestedEvent,
  HostAddedField,
  RunFinishedEvent,
  RunStatus,
  StepEvent,
} from '../../shared/step-event.js';
import type { ElicitAction } from '../../shared/mcp-elicitation.js';
import { checkStepEvent } from '../../shared/step-event-schema.js';
import { computeTotals } from '../../shared/summary.js';
import { runStartedEvent } from '../../shared/run-started.js';
import type { WorkerExit, WorkerHandle } from './launcher.js';
import { clockOf } from './worker-start.js';
import { TrackedEvents, type EventTracker } from './tracked-events.js';

export interface RunTiming {
  /** After a cancel, how long the worker gets to end its run before it is killed. */
  readonly cancelGraceMs: number;
  /** How long a worker may take to load before it is killed. */
  readonly readyTimeoutMs: number;
  /** After run-finished, how long the worker gets to exit by itself. */
  readonly exitGraceMs: number;
}

export const DEFAULT_TIMING: RunTiming = { cancelGraceMs: 700, readyTimeoutMs: 60_000, exitGraceMs: 3000 };

export interface RunSessionHooks {
  /** The events kept of what the worker sent, at once (for the comparison's books: a 429, a request, the end). */
  accept(events: readonly StepEvent[]): void;
  /**
   * The same events with every host-added field, in order, for the record (the log, the pages). Later than
   * `accept` while the run's composition tracker loads (tracked-events.ts); `afterRecorded` follows them.
   */
  record(events: readonly StepEvent[]): void;
  ready(): void;
  /** The run has its run-finished event and its worker is gone. */
  ended(): void;
  warn(message: string): void;
  /** The run waits for the user to allow a tool call (an approval-requested event arrived). */
  approvalRequested?(event: ApprovalRequestedEvent): void;
  /** The wait ended (approval-resolved arrived). */
  approvalResolved?(event: ApprovalResolvedEvent): void;
  /** An MCP server's form waits for the person (an elicitation-requested event arrived). */
  elicitationRequested?(event: ElicitationRequestedEvent): void;
  /** The form was answered, cancelled or ran out of time (its `elicitation` event arrived). */
  elicitationResolved?(event: ElicitationEvent): void;
}

/**
 * The record of a run that was cancelled before its round began: no worker ever ran it, but history lists
 * it, so it gets what the engine would have said first and a cancelled ending (no steps, no tokens).
 */
export function cancelledBeforeStart(spec: RunSpec, reason: string): StepEvent[] {
  const startedAt = Date.now();
  const started: StepEvent = runStartedEvent(spec, startedAt);
  const finished: RunFinishedEvent = {
    type: 'run-finished',
    runId: spec.runId,
    seq: 1,
    t: 0,
    status: 'cancelled',
    answer: '',
    error: reason,
    validation: null,
    totals: computeTotals([started]),
  };
  return [started, finished];
}

/** The top-level fields only the host sets (HostAdded in shared/step-event.ts); the compiler proves the list whole. */
const HOST_FIELD_SET: Record<HostAddedField, true> = { workerStart: true, promptComposition: true };
const HOST_FIELDS = Object.keys(HOST_FIELD_SET) as HostAddedField[];

/** The event as the worker sent it, less any host-added field: a worker can never set one. */
function withoutHostFields(e: StepEvent): StepEvent {
  if (!HOST_FIELDS.some((field) => field in e)) return e;
  const sent: Record<string, unknown> = { ...e };
  for (const field of HOST_FIELDS) delete sent[field];
  return sent as unknown as StepEvent;
}

export class RunSession {
  readonly events: StepEvent[] = [];
  isReady = false;
  cancelRequested = false;
  private finished: RunFinishedEvent | null = null;
  private exited = false;
  private fatal: string | null = null;
  private timers: NodeJS.Timeout[] = [];
  private released = false;
  /** The kept events on their way to the record, through the run's composition tracker. */
  private readonly tracked: TrackedEvents;

  constructor(
    readonly spec: RunSpec,
    private readonly handle: WorkerHandle,
    private readonly hooks: RunSessionHooks,
    private readonly timing: RunTiming,
    /**
     * The run's prompt-composition tracker (engine/tokens/prompt-composition.ts), asked for at its first reply
     * (absent, or resolving to undefined: the events are recorded without a composition).
     */
    composition?: () => Promise<EventTracker | undefined>,
  ) {
    this.tracked = new TrackedEvents(composition, (events) => hooks.record(events));
    handle.onMessage((m) => {
      if (m.type === 'ready') {
        this.isReady = true;
        hooks.ready();
      } else if (m.type === 'events') this.receive(m.events);
      else if (m.type === 'fatal') this.fatal = m.message;
    });
    handle.onExit((exit) => this.onExit(exit));
    this.timers.push(
      setTimeout(() => {
        if (this.isReady || this.released || this.exited) return;
        this.fatal = `the worker did not get ready within ${Math.round(timing.readyTimeoutMs / 1000)} s and was stopped`;
        handle.kill();
      }, timing.readyTimeoutMs),
    );
  }

  get label(): string {
    return MODE_LABELS[this.spec.mode] ?? this.spec.mode;
  }

  get done(): boolean {
    return this.exited && this.finished !== null;
  }

  get status(): RunStatus | 'running' {
    return this.finished?.status ?? 'running';
  }

  /** Send the worker its run: spec and key over IPC only. */
  init(apiKey: string | null, searchKey: string | null = null, elicitation = false): void {
    clockOf(this.handle)?.markInit();
    this.handle.send({
      type: 'init',
      spec: this.spec,
      apiKey,
      ...(searchKey ? { searchKey } : {}),
      ...(elicitation ? { elicitation } : {}),
    });
  }

  /** Pass the person's answer to a form the worker is waiting for (the engine checks it against the form). */
  answerElicitation(
    elicitationId: string,
    answer: { readonly action: ElicitAction; readonly content?: Readonly<Record<string, unknown>> },
  ): void {
    if (!this.finished && !this.exited)
      this.handle.send({
        type: 'elicitation-answer',
        elicitationId,
        action: answer.action,
        ...(answer.content ? { content: answer.content } : {}),
      });
  }

  /** Pass the user's answer to an approval the worker is waiting for. */
  answerApproval(approvalId: string, decision: 'allow' | 'deny' | 'allow-comparison'): void {
    if (!this.finished && !this.exited) this.handle.send({ type: 'approval-answer', approvalId, decision });
  }

  release(): void {
    if (this.released || this.exited) return;
    this.released = true;
    this.handle.send({ type: 'go' });
  }

  cancel(reason?: string): void {
    if (this.finished || this.exited || this.cancelRequested) return;
    this.cancelRequested = true;
    this.handle.send(reason ? { type: 'cancel', reason } : { type: 'cancel' });
    this.timers.push(setTimeout(() => this.handle.kill(), this.timing.cancelGraceMs));
  }

  /** Stop the worker now, whatever it is doing (host shutdown after the grace period). */
  kill(): void {
    if (!this.exited) this.handle.kill();
  }

  private receive(batch: readonly StepEvent[]): void {
    const accepted: StepEvent[] = [];
    for (const raw of batch) {
      // The worker runs model-driven code: what it sends is checked against the wire format before it is kept.
      const checked = checkStepEvent(raw);
      if (!checked.ok) {
        this.hooks.warn(`Run ${this.spec.runId}: dropped a malformed event from the worker: ${checked.problem}.`);
        continue;
      }
      const e = checked.event;
      if (e.runId !== this.spec.runId) {
        this.hooks.warn(`Run ${this.spec.runId}: dropped an event of another run (${String(e.runId)}).`);
        continue;
      }
      if (this.finished) {
        this.hooks.warn(`Run ${this.spec.runId}: dropped a ${e.type} event (seq ${e.seq}) sent after run-finished.`);
        continue;
      }
      const expected = this.events.length === 0 ? 0 : this.events[this.events.length - 1].seq + 1;
      if (e.seq < expected) {
        this.hooks.warn(
          `Run ${this.spec.runId}: dropped a repeated or out-of-order event (seq ${e.seq}, expected ${expected}).`,
        );
        continue;
      }
      if (e.seq > expected)
        this.hooks.warn(
          `Run ${this.spec.runId}: seq jumps from ${expected - 1} to ${e.seq}; ${e.seq - expected} events are missing.`,
        );
      const kept = this.accept(e);
      this.events.push(kept);
      accepted.push(kept);
      if (e.type === 'approval-requested') this.hooks.approvalRequested?.(e);
      else if (e.type === 'approval-resolved') this.hooks.approvalResolved?.(e);
      else if (e.type === 'elicitation-requested') this.hooks.elicitationRequested?.(e);
      else if (e.type === 'elicitation' && e.elicitationId) this.hooks.elicitationResolved?.(e);
      if (e.type === 'run-finished') {
        this.finished = e;
        this.timers.push(setTimeout(() => this.handle.kill(), this.timing.exitGraceMs));
      }
    }
    if (accepted.length > 0) {
      this.tracked.push(accepted);
      this.hooks.accept(accepted);
    }
  }

  /** Runs `step` once every event kept so far has gone to `record` (at once unless some wait for the tracker). */
  afterRecorded(step: () => void): void {
    this.tracked.then(step);
  }

  /**
   * The one step that adds to what the worker sent, for each event it sent that was kept (checked, of this run,
   * in seq order): the fields StepEvent marks HostAdded, whatever the worker put in them dropped. The worker's
   * start-up goes on its run-started (measured here, where the process was started) and into run-finished's
   * totals, so the stored totals stay those of the stored events; a model-response's prompt composition is added
   * on the way to the record (`tracked`), by the run's tracker, which sees every kept event in order.
   */
  private accept(sent: StepEvent): StepEvent {
    const e = withoutHostFields(sent);
    if (e.type === 'run-started') {
      const start = clockOf(this.handle)?.record();
      return start ? { ...e, workerStart: start } : e;
    }
    if (e.type === 'run-finished') {
      const startupMs = clockOf(this.handle)?.record()?.ms ?? 0;
      return e.totals.startupMs === startupMs ? e : { ...e, totals: { ...e.totals, startupMs } };
    }
    return e;
  }

  private onExit(exit: WorkerExit): void {
    if (this.exited) return;
    this.exited = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
    if (!this.finished) this.synthesizeEnd(exit);
    this.hooks.ended();
  }

  private synthesizeEnd(exit: WorkerExit): void {
    const now = Date.now();
    const kept = this.events.length;
    const added: StepEvent[] = [];
    if (kept === 0) {
      // The worker died before the engine could say anything: record what was asked, as the engine would.
      const { spec } = this;
      added.push(runStartedEvent(spec, now));
    }
    const prior = [...this.events, ...added];
    const started = prior.find((e) => e.type === 'run-started');
    const startedAt = started?.type === 'run-started' ? started.startedAt : now;
    const finishing = {
      type: 'run-finished' as const,
      runId: this.spec.runId,
      seq: prior[prior.length - 1].seq + 1,
      t: Math.max(0, now - startedAt),
      status: (this.cancelRequested ? 'cancelled' : 'crashed') as RunStatus,
      answer: '',
      error: this.describeExit(exit, kept),
      validation: null,
    };
    // Totals of the whole run as stored, this event included (its t is the run's wall time).
    const totals = computeTotals([...prior, { ...finishing, totals: computeTotals(prior) }]);
    const finished: RunFinishedEvent = { ...finishing, totals };
    added.push(finished);
    this.events.push(...added);
    this.finished = finished;
    // Made whole here: not enriched, but recorded after every event that waits for the tracker.
    this.tracked.push(added);
    this.hooks.accept(added);
  }

  private describeExit(exit: WorkerExit, kept: number): string {
    const keptText = `The ${kept} event${kept === 1 ? '' : 's'} received before it ${kept === 1 ? 'is' : 'are'} kept.`;
    if (this.cancelRequested) {
      return `Cancelled. The worker did not end its run within ${this.timing.cancelGraceMs} ms, so it was stopped. ${keptText}`;
    }
    const oom = /heap out of memory|Allocation failed/i.test(exit.stderrTail);
    const how = oom
      ? 'ran out of memory'
      : exit.signal
        ? `was killed by ${exit.signal}${exit.signal === 'SIGKILL' ? ' (stopped from outside, or by the system when memory ran out)' : ''}`
        : exit.code !== null
          ? `exited with code ${exit.code}`
          : 'ended unexpectedly';
    const reason = this.fatal?.split('\n').slice(0, 3).join(' ').trim();
    const why = reason ? ` Reason: ${reason}${/[.!?]$/.test(reason) ? '' : '.'}` : '';
    const tail = !this.fatal && exit.stderrTail ? ` Its last output: ${exit.stderrTail.slice(-300)}` : '';
    return `The ${this.label} worker process ${how} before the run finished.${why}${tail} ${keptText} Start the comparison again to retry.`;
  }
}
