/**
 * What a comparison's runs wait for from a person: approvals (each stops its run when nobody answers in time)
 * and MCP forms, keyed by `runId id`, with the tools allowed for the whole comparison. The session asks it which
 * runs of a round are waiting (to lend the round's slot out) and hands answers over once the round holds a slot.
 */
import type { ElicitAction } from '../../shared/mcp-elicitation.js';
import type {
  ApprovalRequestedEvent,
  ApprovalResolvedEvent,
  ElicitationEvent,
  ElicitationRequestedEvent,
} from '../../shared/step-event.js';
import type { Round } from './comparison-rounds.js';
import type { RunSession } from './run-session.js';

/**
 * An approval nobody answers stops its run after this long (the run is recorded as cancelled with that reason),
 * so a forgotten card in a closed tab does not keep a worker, and its share of the provider, forever.
 */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 10 * 60_000;

export function formatWait(ms: number): string {
  return ms >= 60_000 && ms % 60_000 === 0
    ? `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}`
    : `${Math.round(ms / 1000)} s`;
}

export class PendingAnswers {
  /** Approvals runs are waiting for, by `runId approvalId`, each with its round and its timeout. */
  private readonly pendingApprovals = new Map<
    string,
    { readonly run: RunSession; readonly tool: string; readonly round: Round; readonly timer: NodeJS.Timeout }
  >();
  /** MCP forms runs are waiting for, by `runId elicitationId` (the engine's own time limit ends each). */
  private readonly pendingElicitations = new Map<string, { readonly run: RunSession; readonly round: Round }>();
  /** Tools the user allowed for the whole comparison: later requests are answered at once. */
  private readonly granted = new Set<string>();

  constructor(
    private readonly timeoutMs: number,
    /** Runs `deliver` once the round holds a slot (the session's withSlot). */
    private readonly withSlot: (round: Round, deliver: () => void) => void,
  ) {}

  /** The run's record is complete: nothing of it waits any more. */
  forgetRun(runId: string): void {
    for (const [key, pending] of [...this.pendingApprovals]) {
      if (!key.startsWith(`${runId} `)) continue;
      clearTimeout(pending.timer);
      this.pendingApprovals.delete(key);
    }
    for (const key of [...this.pendingElicitations.keys()])
      if (key.startsWith(`${runId} `)) this.pendingElicitations.delete(key);
  }

  /** The runs of the round waiting for a person (an approval or a form). */
  waitingIn(round: Round): Set<RunSession> {
    return new Set(
      [...this.pendingApprovals.values(), ...this.pendingElicitations.values()]
        .filter((p) => p.round === round)
        .map((p) => p.run),
    );
  }

  /** A run asks for approval: answered at once for a tool allowed for the comparison; else `waiting` is called. */
  approvalRequested(run: RunSession, round: Round, e: ApprovalRequestedEvent, waiting: () => void): void {
    if (this.granted.has(e.tool)) {
      run.answerApproval(e.approvalId, 'allow-comparison');
      return;
    }
    const key = `${run.spec.runId} ${e.approvalId}`;
    const timeoutMs = this.timeoutMs;
    const timer = setTimeout(() => {
      if (!this.pendingApprovals.delete(key)) return;
      run.cancel(
        `Stopped: nobody answered the approval for ${e.tool} within ${formatWait(timeoutMs)} (the approval timeout). Run it again and answer the card, or set the tool to allow or deny.`,
      );
    }, timeoutMs);
    timer.unref?.();
    this.pendingApprovals.set(key, { run, tool: e.tool, round, timer });
    waiting();
  }

  approvalResolved(runId: string, e: ApprovalResolvedEvent): void {
    const key = `${runId} ${e.approvalId}`;
    clearTimeout(this.pendingApprovals.get(key)?.timer);
    this.pendingApprovals.delete(key);
  }

  elicitationRequested(run: RunSession, round: Round, e: ElicitationRequestedEvent): void {
    this.pendingElicitations.set(`${run.spec.runId} ${e.elicitationId}`, { run, round });
  }

  elicitationResolved(runId: string, e: ElicitationEvent): void {
    this.pendingElicitations.delete(`${runId} ${e.elicitationId}`);
  }

  /** The person's answer to a form a run waits for. Throws when nothing of that id waits. */
  answerElicitation(
    runId: string,
    elicitationId: string,
    answer: { readonly action: ElicitAction; readonly content?: Readonly<Record<string, unknown>> },
  ): void {
    const pending = this.pendingElicitations.get(`${runId} ${elicitationId}`);
    if (!pending)
      throw new Error(
        `Run ${runId} is not waiting for the answer to form ${elicitationId}: it was already answered, its time ran out, or the run ended.`,
      );
    this.pendingElicitations.delete(`${runId} ${elicitationId}`);
    this.withSlot(pending.round, () => pending.run.answerElicitation(elicitationId, answer));
  }

  /**
   * The user's answer to an approval a run waits for. 'allow-comparison' also answers every other waiting
   * request for that tool, and every later one, in this comparison. Throws when nothing of that id waits.
   */
  answerApproval(runId: string, approvalId: string, decision: 'allow' | 'deny' | 'allow-comparison'): void {
    const pending = this.pendingApprovals.get(`${runId} ${approvalId}`);
    if (!pending) {
      throw new Error(
        `Run ${runId} is not waiting for approval ${approvalId}: it was already answered, or the run ended.`,
      );
    }
    this.pendingApprovals.delete(`${runId} ${approvalId}`);
    clearTimeout(pending.timer);
    this.withSlot(pending.round, () => pending.run.answerApproval(approvalId, decision));
    if (decision !== 'allow-comparison') return;
    this.granted.add(pending.tool);
    for (const [key, other] of [...this.pendingApprovals]) {
      if (other.tool !== pending.tool) continue;
      this.pendingApprovals.delete(key);
      clearTimeout(other.timer);
      this.withSlot(other.round, () => other.run.answerApproval(key.slice(key.indexOf(' ') + 1), 'allow-comparison'));
    }
  }
}
