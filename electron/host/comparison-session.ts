/**
 * One comparison in flight, run in rounds: each round has one run of every mode (one trial). A round spawns
 * a worker per run at once, each loading its engine; when every worker is ready they are released together
 * so process start-up skew does not favour one mode. A round starts when the provider's RoundScheduler gives
 * it a slot and gives the slot back once every run of it has ended (its run-finished stored; a worker's process
 * teardown is not waited for). With a limit of 1 (the default for a real provider) rounds run one after
 * another and never compete for the cores; with more, independent rounds run side by side (the comparison
 * records its concurrency, and every 429 that throttled it), while each round still starts its modes together.
 */
import type { ComparisonMeta } from '../../shared/ipc-contract.js';
import type { RunSpec } from '../../shared/run-spec.js';
import { workerProgramOf } from '../../shared/modes.js';
import type { ElicitAction } from '../../shared/mcp-elicitation.js';
import type { EventFanIn } from './fan-in.js';
import type { HistoryStore } from './history-store.js';
import type { WorkerLauncher } from './launcher.js';
import type { WorkerPool } from './worker-pool.js';
import type { CompositionTrackers } from './engine-services.js';
import { cancelledBeforeStart, RunSession, type RunTiming } from './run-session.js';
import { clockOf, timeWorker } from './worker-start.js';
import { RoundScheduler } from './round-scheduler.js';
import { writeCause, writeFailureMessage } from './write-failure.js';
import { launchOrFail, roundsOf, type Round } from './comparison-rounds.js';
import { DEFAULT_APPROVAL_TIMEOUT_MS, PendingAnswers } from './pending-answers.js';
import { workerEnv } from './worker-env.js';
import { SlotLending } from './slot-lending.js';

export interface SessionDeps {
  readonly launcher: WorkerLauncher;
  readonly store: HistoryStore;
  readonly fanIn: EventFanIn;
  readonly timing: RunTiming;
  readonly baseEnv: NodeJS.ProcessEnv;
  /** Warm workers to take a round's workers from (the rest are started fresh). */
  readonly pool?: WorkerPool;
  /**
   * Prompt-composition trackers (one per run: each model-response is recorded with what its request carried),
   * asked for at a run's first reply (undefined: recorded without); its events wait for them (tracked-events.ts).
   */
  readonly trackers?: () => Promise<CompositionTrackers | undefined>;
  warn(message: string): void;
  /** The web search backend's key, sent to each worker beside the API key. */
  readonly searchKey?: string | null;
  /** Slots for rounds, shared per provider; default: one round at a time, this comparison's own. */
  readonly scheduler?: RoundScheduler;
  /** How long an approval may wait for an answer before its run is stopped; default DEFAULT_APPROVAL_TIMEOUT_MS. */
  readonly approvalTimeoutMs?: number;
  /** Someone can answer an MCP server's form (the app's card, a terminal); otherwise the engine declines it. */
  readonly elicitation?: boolean;
}

/** A run's keys, sent in its init message only: its column's API key and web search key. */
export interface RunKeys {
  readonly apiKey: string | null;
  readonly searchKey: string | null;
}

export class ComparisonSession {
  /** Runs that got a worker so far, in start order. */
  readonly runs: RunSession[] = [];
  readonly done: Promise<void>;
  private readonly rounds: RunSpec[][];
  /** Rounds begun so far (the next one to start is rounds[begun]). */
  private begun = 0;
  private readonly active = new Set<Round>();
  /** Runs of rounds not begun that were cancelled: recorded without a worker. */
  private readonly skipped = new Set<string>();
  /** Runs whose record is complete on disk or whose worker has ended. */
  private readonly recorded = new Set<string>();
  private readonly scheduler: RoundScheduler;
  private readonly stop = new AbortController();
  /** What throttled this comparison (a 429 paused new rounds), one sentence each; stored in its meta at the end. */
  readonly throttled: string[] = [];
  private readonly env: NodeJS.ProcessEnv;
  /** Approvals and MCP forms its runs wait for from a person. */
  private readonly answers: PendingAnswers;
  /** Its rounds' slots, lent out while every run of a round waits for a person. */
  private readonly lending: SlotLending<Round>;
  private resolveDone!: () => void;
  private pendingLogs: Promise<void>[] = [];
  /** Runs whose record could not be written in full (a write to the history failed), and why. */
  readonly notRecorded = new Map<string, string>();
  /** Each run's keys: one key for every run, or each run's own (variants on several providers). */
  private readonly keysOf: (runId: string) => RunKeys;

  constructor(
    readonly meta: ComparisonMeta,
    specs: readonly RunSpec[],
    apiKeys: string | null | ReadonlyMap<string, RunKeys>,
    private readonly deps: SessionDeps,
  ) {
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    const perRun = typeof apiKeys === 'object' && apiKeys !== null ? apiKeys : null;
    const shared: RunKeys = { apiKey: perRun ? null : (apiKeys as string | null), searchKey: deps.searchKey ?? null };
    this.keysOf = (runId) => perRun?.get(runId) ?? shared;
    const all = specs.map((s) => this.keysOf(s.runId));
    this.env = workerEnv(
      deps.baseEnv,
      all.flatMap((k) => [k.apiKey, k.searchKey]),
      specs.map((s) => s.apiKeyEnv),
    );
    this.rounds = roundsOf(meta, specs);
    this.scheduler = deps.scheduler ?? new RoundScheduler(meta.id, 1);
    this.lending = new SlotLending(this.scheduler, this.active, this.stop.signal, (round) => {
      const going = round.runs.filter((r) => !r.done && !this.recorded.has(r.spec.runId));
      const waiting = this.answers.waitingIn(round);
      return going.length > 0 && going.every((r) => waiting.has(r));
    });
    this.answers = new PendingAnswers(deps.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS, (round, deliver) =>
      this.lending.withSlot(round, deliver),
    );
    void this.schedule();
  }

  get id(): string {
    return this.meta.id;
  }

  /** Still to be recorded in full: running, or waiting for its round. */
  isLive(runId: string): boolean {
    return this.hasRun(runId) && !this.recorded.has(runId);
  }

  hasRun(runId: string): boolean {
    return this.meta.runs.some((r) => r.runId === runId);
  }

  /** Starts each round as the scheduler gives it a slot; resolves `done` once every run is recorded. */
  private async schedule(): Promise<void> {
    const ended: Promise<void>[] = [];
    while (this.begun < this.rounds.length) {
      let release: (() => void) | null = null;
      try {
        // A slot one of this comparison's rounds lent out while it waits for a person is for other
        // comparisons: taking it for the next round would run more rounds at once than asked for.
        while (!release) {
          if (this.lending.anyLent()) await this.lending.untilNoneLent();
          release = await this.scheduler.acquire(this.stop.signal);
          if (this.lending.anyLent()) {
            release();
            release = null;
          }
        }
      } catch {
        break; // cancelled: every round not begun is recorded by cancel()
      }
      const index = this.begun++;
      const specs = this.rounds[index].filter((s) => !this.skipped.has(s.runId));
      if (specs.length === 0) {
        release();
        continue;
      }
      const round = this.startRound(index, specs, release);
      ended.push(round.ended.then(() => this.lending.giveBack(round.round)));
    }
    await Promise.all(ended);
    await Promise.all(this.pendingLogs);
    if (this.throttled.length > 0) {
      await this.deps.store
        .writeMeta({ ...this.meta, throttled: [...this.throttled] })
        .catch((err: Error) =>
          this.deps.warn(`The comparison's throttling could not be recorded: ${writeCause(err)}.`),
        );
    }
    await this.deps.store
      .finishRecording(this.meta.id, this.notRecorded)
      .catch((err: Error) =>
        this.deps.warn(`The comparison's recording note could not be updated: ${writeCause(err)}.`),
      );
    if (this.notRecorded.size > 0) this.deps.warn(writeFailureMessage(this.deps.store.root, this.firstFailure));
    this.resolveDone();
  }

  private firstFailure: unknown = null;

  /** A run's log; its first failed write marks the run not recorded (the run itself goes on). */
  private openLog(runId: string) {
    return this.deps.store.openRunLog(this.meta.id, runId, (cause) => {
      this.notRecorded.set(runId, cause);
      this.firstFailure ??= Object.assign(new Error(cause), { code: /\((E[A-Z]+)\)$/.exec(cause)?.[1] });
    });
  }

  /** Spawns the round's workers; `ended` resolves when every run of it is recorded and its logs are on disk. */
  private startRound(
    index: number,
    specs: readonly RunSpec[],
    slot: () => void,
  ): { round: Round; ended: Promise<void> } {
    const round: Round = {
      index,
      runs: [],
      released: false,
      refilled: false,
      requested: new Set(),
      logs: [],
      slot,
      held: [],
      reacquiring: false,
    };
    this.active.add(round);
    let resolveEnded!: () => void;
    const ended = new Promise<void>((resolve) => (resolveEnded = resolve));
    const { deps } = this;
    const warm =
      deps.pool?.takeFor(
        specs.map((s) => workerProgramOf(s.mode)),
        this.env,
      ) ?? [];
    let settled = 0;
    for (const [i, spec] of specs.entries()) {
      const log = this.openLog(spec.runId);
      const handle = warm[i] ?? launchOrFail(deps.launcher, this.env, spec.runId, workerProgramOf(spec.mode));
      if (!clockOf(handle)) timeWorker(handle, false);
      const { trackers } = deps;
      /**
       * The run's record is complete: at its run-finished (the worker only exits after it, and what it sends
       * later is dropped) or, when it dies first, at the exit with the run-finished made for it. The round
       * ends when every run is settled, so the next one does not wait for the processes' teardown.
       */
      let done = false;
      const settle = (): void => {
        if (done) return;
        done = true;
        this.answers.forgetRun(spec.runId);
        deps.fanIn.flush();
        const finished = log.finish();
        round.logs.push(finished);
        this.pendingLogs.push(finished);
        this.recorded.add(spec.runId);
        this.lending.maybeLend(round);
        if (++settled === specs.length) {
          this.active.delete(round);
          this.lending.wakeIfNoneLent();
          // The slot is given back once this round's logs are on disk, so their syncing does not overlap the next start.
          void Promise.all(round.logs).then(resolveEnded);
        }
      };
      const run: RunSession = new RunSession(
        spec,
        handle,
        {
          accept: (events) => {
            for (const e of events) if (e.type === 'model-retry' && e.status === 429) this.throttle(e.delayMs);
            if (events.some((e) => e.type === 'model-request')) {
              round.requested.add(spec.runId);
              this.maybeRefill(round);
            }
            if (events.some((e) => e.type === 'run-finished')) run.afterRecorded(settle);
          },
          record: (events) => deps.fanIn.push(log, events),
          ready: () => this.maybeRelease(round),
          ended: () => {
            run.afterRecorded(settle);
            this.maybeRelease(round);
            this.maybeRefill(round);
          },
          warn: deps.warn,
          approvalRequested: (e) => this.answers.approvalRequested(run, round, e, () => this.lending.maybeLend(round)),
          approvalResolved: (e) => this.answers.approvalResolved(spec.runId, e),
          elicitationRequested: (e) => {
            this.answers.elicitationRequested(run, round, e);
            this.lending.maybeLend(round);
          },
          elicitationResolved: (e) => this.answers.elicitationResolved(spec.runId, e),
        },
        deps.timing,
        trackers && (() => trackers().then((make) => make?.())),
      );
      round.runs.push(run);
      this.runs.push(run);
    }
    // Every worker of the round is spawned before any gets its spec, so they load side by side.
    for (const run of round.runs)
      run.init(this.keysOf(run.spec.runId).apiKey, this.keysOf(run.spec.runId).searchKey, deps.elicitation === true);
    return { round, ended };
  }

  /** A run was answered 429: the provider's scheduler pauses new rounds and lowers its limit; recorded here. */
  private throttle(retryAfterMs: number): void {
    const t = this.scheduler.throttle(retryAfterMs);
    if (t) this.throttled.push(t.note);
  }

  /**
   * Once every run of the round has sent its first request (or ended), warm workers start loading for the next
   * round (or, for a pool that stays warm, for the next comparison): late enough not to slow the round's
   * start, early enough to be loaded when the round ends.
   */
  private maybeRefill(round: Round): void {
    const { pool } = this.deps;
    if (!pool || round.refilled || !round.released) return;
    if (!round.runs.every((r) => round.requested.has(r.spec.runId) || r.done || r.cancelRequested)) return;
    round.refilled = true;
    const next = this.rounds.slice(this.begun).find((specs) => specs.some((s) => !this.skipped.has(s.runId)));
    pool.prepare(next ? next.filter((s) => !this.skipped.has(s.runId)).map((s) => workerProgramOf(s.mode)) : 0);
  }

  /** Release every ready worker of the round at once, when no worker of it is still loading. */
  private maybeRelease(round: Round): void {
    if (round.released) return;
    if (!round.runs.every((r) => r.isReady || r.done || r.cancelRequested)) return;
    round.released = true;
    for (const run of round.runs) if (run.isReady) run.release();
  }

  private get current(): RunSession[] {
    return [...this.active].flatMap((r) => r.runs);
  }

  /** Cancel every round in flight and record every run of the rounds not begun as cancelled. */
  cancel(): void {
    for (const spec of this.rounds.slice(this.begun).flat()) {
      this.skip(
        spec,
        'Cancelled before it started: the comparison was cancelled before this trial began. No worker ran it.',
      );
    }
    this.stop.abort();
    this.lending.wakeIfNoneLent();
    for (const round of [...this.active]) {
      for (const run of round.runs) run.cancel();
      this.maybeRelease(round);
    }
  }

  /** Cancel one run: the running one stops; one whose round has not begun is recorded as cancelled. */
  cancelRun(runId: string): void {
    const round = [...this.active].find((r) => r.runs.some((run) => run.spec.runId === runId));
    if (round) {
      round.runs.find((r) => r.spec.runId === runId)!.cancel();
      this.maybeRelease(round);
      return;
    }
    const later = this.rounds
      .slice(this.begun)
      .flat()
      .find((s) => s.runId === runId);
    if (later)
      this.skip(later, 'Cancelled before it started: this run was cancelled before its trial began. No worker ran it.');
  }

  private skip(spec: RunSpec, reason: string): void {
    if (this.skipped.has(spec.runId)) return;
    this.skipped.add(spec.runId);
    const log = this.openLog(spec.runId);
    this.deps.fanIn.push(log, cancelledBeforeStart(spec, reason));
    this.deps.fanIn.flush();
    const finished = log.finish();
    this.pendingLogs.push(finished);
    void finished.then(() => this.recorded.add(spec.runId));
  }

  kill(): void {
    for (const run of this.current) run.kill();
  }

  /** The person's answer to a form a run waits for. Throws when nothing of that id waits. */
  answerElicitation(
    runId: string,
    elicitationId: string,
    answer: { readonly action: ElicitAction; readonly content?: Readonly<Record<string, unknown>> },
  ): void {
    this.answers.answerElicitation(runId, elicitationId, answer);
  }

  /**
   * The user's answer to an approval a run waits for. 'allow-comparison' also answers every other waiting
   * request for that tool, and every later one, in this comparison. Throws when nothing of that id waits.
   */
  answerApproval(runId: string, approvalId: string, decision: 'allow' | 'deny' | 'allow-comparison'): void {
    this.answers.answerApproval(runId, approvalId, decision);
  }
}
