/**
 * The timeline's model of one run, built from its StepEvents. Pure (no React, no DOM) so that it can be
 * tested in Node and benchmarked.
 *
 * `applyEvents` applies a batch copy-on-write: every container it touches is copied at most once per batch,
 * then mutated in place. The result therefore equals applying the events one at a time, while a batch of
 * thousands of events (a comparison reopened from history) costs O(n) instead of O(n²).
 */
import type {
  ApprovalRequestedEvent,
  ApprovalResolvedEvent,
  CodeRunEvent,
  ModelRequestEvent,
  ModelResponseEvent,
  ModelRetryEvent,
  RunFinishedEvent,
  RunStartedEvent,
  RunWarningEvent,
  SamplingEvent,
  HistorySummaryEvent,
  ElicitationEvent,
  ElicitationRequestedEvent,
  StepEvent,
  ToolProgressEvent,
  ToolFinishedEvent,
  ToolSearchEvent,
} from '../../shared/step-event.js';
import type { McpToolRecord } from '../../shared/mcp-tools.js';

export interface ToolCallView {
  readonly callId: string;
  readonly name: string;
  /** Parsed arguments from tool-started; until then the raw string the model produced. */
  readonly args: unknown;
  /** The arguments exactly as the model wrote them (from model-response), when known. */
  readonly rawArgs: string | null;
  readonly started: boolean;
  /** The generic tool the model called to reach this one (call_tool), whose name `name` then replaces. */
  readonly forwardedBy?: string;
  readonly finished: ToolFinishedEvent | null;
  readonly codeRun: CodeRunEvent | null;
  readonly searches: readonly ToolSearchEvent[];
  /** Approvals this call waited for (a program's: one per dangerous inner call), in order. */
  readonly approvals: readonly ApprovalView[];
  /** The MCP tool's server, title and annotations, from run-started (absent for other tools). */
  readonly mcp?: McpToolRecord;
  /** The latest progress the tool reported (inside a program: any of its tools). */
  readonly progress?: ToolProgressEvent;
  /** Sampling requests its server made while it ran. */
  readonly samplings?: readonly SamplingEvent[];
  /** The values its server asked the user for (MCP elicitation), and what went back. */
  readonly elicitations?: readonly ElicitationEvent[];
  /** Its server's forms waiting for the person's answer (each leaves when its `elicitation` event arrives). */
  readonly asking?: readonly ElicitationRequestedEvent[];
}

/** One approval: waiting for the user while `resolved` is null. */
export interface ApprovalView {
  readonly requested: ApprovalRequestedEvent;
  readonly resolved: ApprovalResolvedEvent | null;
}

export interface StepView {
  readonly step: number;
  /** One per attempt (1 + retries). */
  readonly requests: readonly ModelRequestEvent[];
  readonly retries: readonly ModelRetryEvent[];
  readonly response: ModelResponseEvent | null;
  readonly calls: readonly ToolCallView[];
  readonly callIndex: Readonly<Record<string, number>>;
  /** The history summary asked for just before this step's request (summarize:K), which that request carried. */
  readonly summary?: HistorySummaryEvent;
}

export interface RunView {
  readonly runId: string;
  /** The seq the next event should carry; lower seqs are duplicates and are ignored. */
  readonly nextSeq: number;
  /** Seq gaps seen (events lost in transit); shown as a warning. */
  readonly gaps: number;
  /** Every applied event, in seq order: the input of the report math (shared/summary.ts). */
  readonly events: readonly StepEvent[];
  readonly started: RunStartedEvent | null;
  readonly finished: RunFinishedEvent | null;
  readonly warnings: readonly RunWarningEvent[];
  /** In step order. */
  readonly steps: readonly StepView[];
  readonly stepIndex: Readonly<Record<number, number>>;
  /** Approvals asked for and not answered yet: the run is paused on them. */
  readonly pendingApprovals: number;
  /** MCP servers' forms waiting for the person's answer (absent: none). */
  readonly pendingForms?: number;
}

export type RunMap = Readonly<Record<string, RunView>>;

export function emptyRun(runId: string): RunView {
  return {
    runId,
    nextSeq: 0,
    gaps: 0,
    events: [],
    started: null,
    finished: null,
    warnings: [],
    steps: [],
    stepIndex: {},
    pendingApprovals: 0,
  };
}

// Writable twins of the views, used only inside a batch on objects the batch owns.
interface MCall extends Omit<
  ToolCallView,
  'searches' | 'approvals' | 'name' | 'forwardedBy' | 'mcp' | 'progress' | 'samplings' | 'elicitations' | 'asking'
> {
  name: string;
  mcp?: McpToolRecord;
  progress?: ToolProgressEvent;
  samplings?: SamplingEvent[];
  elicitations?: ElicitationEvent[];
  asking?: ElicitationRequestedEvent[];
  forwardedBy?: string;
  searches: ToolSearchEvent[];
  approvals: ApprovalView[];
  args: unknown;
  rawArgs: string | null;
  started: boolean;
  finished: ToolFinishedEvent | null;
  codeRun: CodeRunEvent | null;
}
interface MStep {
  step: number;
  requests: ModelRequestEvent[];
  retries: ModelRetryEvent[];
  response: ModelResponseEvent | null;
  calls: MCall[];
  callIndex: Record<string, number>;
  summary?: HistorySummaryEvent;
}
interface MRun {
  runId: string;
  nextSeq: number;
  gaps: number;
  events: StepEvent[];
  started: RunStartedEvent | null;
  finished: RunFinishedEvent | null;
  warnings: RunWarningEvent[];
  steps: MStep[];
  stepIndex: Record<number, number>;
  pendingApprovals: number;
  pendingForms?: number;
}

/** Tracks which objects this batch already copied, so each is copied once and then mutated. */
class Draft {
  private readonly owned = new WeakSet<object>();
  own<T extends object>(value: T): T {
    if (this.owned.has(value)) return value;
    const copy = (Array.isArray(value) ? value.slice() : { ...value }) as T;
    this.owned.add(copy);
    return copy;
  }
  fresh<T extends object>(value: T): T {
    this.owned.add(value);
    return value;
  }
}

function stepOf(d: Draft, run: MRun, step: number): MStep {
  const i = run.stepIndex[step];
  if (i === undefined) {
    run.steps = d.own(run.steps);
    run.stepIndex = d.own(run.stepIndex);
    const view: MStep = d.fresh({ step, requests: [], retries: [], response: null, calls: [], callIndex: {} });
    const last = run.steps[run.steps.length - 1];
    run.steps.push(view);
    if (last && last.step > step) {
      // Steps arrive in order from the engine; keep the list sorted if one ever does not.
      run.steps.sort((a, b) => a.step - b.step);
      for (const k of Object.keys(run.stepIndex)) delete run.stepIndex[Number(k)];
      run.steps.forEach((s, idx) => (run.stepIndex[s.step] = idx));
    } else run.stepIndex[step] = run.steps.length - 1;
    return view;
  }
  run.steps = d.own(run.steps);
  const s = d.own(run.steps[i]);
  run.steps[i] = s;
  return s;
}

function callOf(d: Draft, s: MStep, callId: string, name: string): MCall {
  const i = s.callIndex[callId];
  s.calls = d.own(s.calls);
  if (i === undefined) {
    s.callIndex = d.own(s.callIndex);
    const call: MCall = d.fresh({
      callId,
      name,
      args: undefined,
      rawArgs: null,
      started: false,
      finished: null,
      codeRun: null,
      searches: [],
      approvals: [],
    });
    s.calls.push(call);
    s.callIndex[callId] = s.calls.length - 1;
    return call;
  }
  const c = d.own(s.calls[i]);
  s.calls[i] = c;
  return c;
}

function applyOne(d: Draft, run: MRun, e: StepEvent): void {
  if (e.seq > run.nextSeq) run.gaps += 1;
  run.nextSeq = e.seq + 1;
  run.events = d.own(run.events);
  run.events.push(e);
  switch (e.type) {
    case 'run-started':
      run.started = e;
      break;
    case 'run-finished':
      run.finished = e;
      break;
    case 'run-warning':
      run.warnings = d.own(run.warnings);
      run.warnings.push(e);
      break;
    case 'model-request': {
      const s = stepOf(d, run, e.step);
      s.requests = d.own(s.requests);
      s.requests.push(e);
      break;
    }
    case 'model-retry': {
      const s = stepOf(d, run, e.step);
      s.retries = d.own(s.retries);
      s.retries.push(e);
      break;
    }
    case 'model-response': {
      const s = stepOf(d, run, e.step);
      s.response = e;
      for (const tc of e.toolCalls) {
        const c = callOf(d, s, tc.id, tc.name);
        c.rawArgs = tc.arguments;
        if (!c.started) c.args = tc.arguments;
      }
      break;
    }
    case 'tool-started': {
      const c = callOf(d, stepOf(d, run, e.step), e.callId, e.name);
      c.started = true;
      c.args = e.args;
      const mcp = run.started?.mcpTools?.find((t) => t.name === e.name);
      if (mcp) c.mcp = mcp;
      if (e.forwardedBy) {
        c.name = e.name;
        c.forwardedBy = e.forwardedBy;
      }
      break;
    }
    case 'tool-finished': {
      const c = callOf(d, stepOf(d, run, e.step), e.callId, e.name);
      c.finished = e;
      break;
    }
    case 'code-run': {
      const c = callOf(d, stepOf(d, run, e.step), e.callId, 'run_code');
      c.codeRun = e;
      break;
    }
    case 'tool-search': {
      const c = callOf(d, stepOf(d, run, e.step), e.callId, 'search_tools');
      c.searches = d.own(c.searches);
      c.searches.push(e);
      break;
    }
    case 'tool-progress': {
      const c = callOf(d, stepOf(d, run, e.step), e.callId, e.inProgram ? 'run_code' : e.name);
      c.progress = e;
      break;
    }
    case 'history-summary':
      stepOf(d, run, e.step).summary = e;
      break;
    case 'sampling': {
      const s = stepOf(d, run, e.step);
      const c = callOf(d, s, e.callId, s.calls[s.callIndex[e.callId] ?? -1]?.name ?? e.server);
      c.samplings = [...(c.samplings ?? []), e];
      break;
    }
    case 'elicitation': {
      const s = stepOf(d, run, e.step);
      const c = callOf(d, s, e.callId, s.calls[s.callIndex[e.callId] ?? -1]?.name ?? e.server);
      c.elicitations = [...(c.elicitations ?? []), e];
      const waiting =
        e.elicitationId !== undefined ? (c.asking ?? []).filter((q) => q.elicitationId !== e.elicitationId) : c.asking;
      if (waiting && waiting.length !== (c.asking?.length ?? 0)) {
        c.asking = waiting;
        run.pendingForms = Math.max(0, (run.pendingForms ?? 0) - 1);
      }
      break;
    }
    case 'elicitation-requested': {
      const s = stepOf(d, run, e.step);
      const c = callOf(d, s, e.callId, s.calls[s.callIndex[e.callId] ?? -1]?.name ?? e.server);
      c.asking = [...(c.asking ?? []), e];
      run.pendingForms = (run.pendingForms ?? 0) + 1;
      break;
    }
    case 'approval-requested': {
      const c = callOf(d, stepOf(d, run, e.step), e.callId, e.inProgram ? 'run_code' : e.tool);
      c.approvals = d.own(c.approvals);
      c.approvals.push({ requested: e, resolved: null });
      run.pendingApprovals += 1;
      break;
    }
    case 'approval-resolved': {
      const c = callOf(d, stepOf(d, run, e.step), e.callId, e.tool);
      const i = c.approvals.findIndex((a) => a.requested.approvalId === e.approvalId);
      if (i < 0) break;
      c.approvals = d.own(c.approvals);
      c.approvals[i] = { requested: c.approvals[i]!.requested, resolved: e };
      run.pendingApprovals = Math.max(0, run.pendingApprovals - 1);
      break;
    }
  }
}

/**
 * Apply a batch of events (from any runs, in arrival order) to the run map. Returns the same map when nothing
 * changed (every event was a duplicate), so subscribers do not re-render.
 */
export function applyEvents(runs: RunMap, events: readonly StepEvent[]): RunMap {
  const d = new Draft();
  let next: Record<string, MRun> | null = null;
  for (const e of events) {
    const current = (next ?? runs)[e.runId];
    if (current && e.seq < current.nextSeq) continue; // already applied (replayed after a reconnect or reopen)
    if (!next) next = d.own(runs as unknown as Record<string, MRun>);
    const run = current ? d.own(current as unknown as MRun) : d.fresh(emptyRun(e.runId) as unknown as MRun);
    next[e.runId] = run;
    applyOne(d, run, e);
  }
  return (next as unknown as RunMap | null) ?? runs;
}

/** 'pending' before run-started arrives; the run-finished status afterwards. */
export function runStatus(run: RunView | undefined): RunFinishedEvent['status'] | 'running' | 'pending' {
  if (!run || !run.started) return run && run.events.length > 0 ? 'running' : 'pending';
  return run.finished ? run.finished.status : 'running';
}
