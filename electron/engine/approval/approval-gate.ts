/**
 * The approval policy at the point where a dangerous tool is about to run: 'allow' runs it, 'deny' refuses it
 * with a tool error the model can act on, 'ask' records approval-requested, waits for the user's answer (only
 * this run waits) and records approval-resolved with the time waited, which the totals keep apart from the
 * run's own time. "Allow for this comparison" is remembered for the rest of the run (the host remembers it
 * for the comparison's other runs). Cancel while waiting ends the wait as 'cancelled'.
 */
import {
  isApprovalTool,
  mcpApprovalMode,
  MCP_SAMPLING_APPROVAL,
  samplingApprovalMode,
  type ApprovalMode,
  type ApprovalPolicy,
} from '../../../shared/approval.js';
import { mcpToolKind, type McpToolKind } from '../../../shared/mcp-tools.js';
import type { StepEventInput } from '../../../shared/step-event.js';

/** What the user answered. */
export type ApprovalAnswer = 'allow' | 'deny' | 'allow-comparison';

export interface ApprovalRequest {
  readonly approvalId: string;
  /** run_shell, write_file, fetch_url, or an MCP tool's name. */
  readonly tool: string;
  readonly args: unknown;
}

/** Asks the user (through the host, or a terminal prompt); rejects or never settles only if the run ends. */
export type AskUser = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalAnswer>;

export interface CallPlace {
  readonly step: number;
  readonly callId: string;
  /** The call was made inside a run_code program. */
  readonly inProgram: boolean;
  /** The MCP server that asks, for a request that is no tool of its own (mcp-sampling). */
  readonly server?: string;
}

export type GateResult = { readonly ok: true } | { readonly ok: false; readonly message: string };

const ALLOWED: GateResult = { ok: true };

export class ApprovalCancelledError extends Error {
  override readonly name = 'ApprovalCancelledError';
}

export class ApprovalGate {
  private readonly granted = new Set<string>();
  private count = 0;

  constructor(
    readonly policy: ApprovalPolicy,
    private readonly emit: (event: StepEventInput) => void,
    private readonly ask: AskUser | null,
    /** The run's MCP tools, each with its server: the policy's `mcp` entry governs each (allow when it has none). */
    private readonly mcpTools: ReadonlyMap<string, string> = new Map(),
    /** Each MCP tool's kind by its annotations, for the policy's mcp-readonly / mcp-destructive entries. */
    private readonly mcpKinds: ReadonlyMap<string, McpToolKind> = new Map(),
  ) {}

  private modeOf(name: string): ApprovalMode | null {
    if (isApprovalTool(name)) return this.policy[name];
    if (name === MCP_SAMPLING_APPROVAL) return samplingApprovalMode(this.policy);
    return this.mcpTools.has(name)
      ? mcpApprovalMode(this.policy, this.mcpKinds.get(name) ?? mcpToolKind(undefined))
      : null;
  }

  /**
   * Whether `name` may run now with `args`; waits for the user when the policy says ask. `pauseClock` stops the
   * caller's own deadline while the user decides (a program's time limit) and returns the function that
   * restarts it.
   */
  async check(
    name: string,
    args: unknown,
    place: CallPlace,
    signal: AbortSignal,
    pauseClock?: () => () => void,
  ): Promise<GateResult> {
    const mode = this.modeOf(name);
    if (mode === null || mode === 'allow' || this.granted.has(name)) return ALLOWED;
    if (mode === 'deny') {
      return {
        ok: false,
        message: `${name} is not allowed in this run (the approval policy says deny), so it was not run. Do the task with the other tools, or answer with what you have.`,
      };
    }
    if (!this.ask) {
      return {
        ok: false,
        message: `${name} needs the user's approval and this run has no way to ask, so it was not run. Do the task with the other tools, or answer with what you have.`,
      };
    }
    if (signal.aborted) throw new ApprovalCancelledError('The run was cancelled.');
    const approvalId = `${place.callId}-approval-${++this.count}`;
    const { step, callId, inProgram } = place;
    const server = this.mcpTools.get(name) ?? place.server;
    this.emit({
      type: 'approval-requested',
      step,
      callId,
      approvalId,
      tool: name,
      ...(server !== undefined ? { server } : {}),
      args,
      inProgram,
    });
    const started = performance.now();
    const waited = (): number => Math.round((performance.now() - started) * 10) / 10;
    const resumeClock = pauseClock?.();
    let answer: ApprovalAnswer;
    try {
      answer = await waitOrAbort(this.ask({ approvalId, tool: name, args }, signal), signal);
    } catch (err) {
      resumeClock?.();
      this.emit({
        type: 'approval-resolved',
        step,
        callId,
        approvalId,
        tool: name,
        decision: 'cancelled',
        waitedMs: waited(),
      });
      throw err instanceof ApprovalCancelledError
        ? err
        : new ApprovalCancelledError(err instanceof Error ? err.message : String(err));
    }
    resumeClock?.();
    this.emit({
      type: 'approval-resolved',
      step,
      callId,
      approvalId,
      tool: name,
      decision: answer,
      waitedMs: waited(),
    });
    if (answer === 'allow-comparison') this.granted.add(name);
    if (answer === 'deny') {
      return {
        ok: false,
        message: `The user denied ${name}; it was not run. Do not ask for the same call again: do the task another way, or answer with what you have.`,
      };
    }
    return ALLOWED;
  }
}

function waitOrAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted)
    return Promise.reject(new ApprovalCancelledError('The run was cancelled while it waited for approval.'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void =>
      reject(new ApprovalCancelledError('The run was cancelled while it waited for approval.'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
      (e: unknown) => (signal.removeEventListener('abort', onAbort), reject(e)),
    );
  });
}
