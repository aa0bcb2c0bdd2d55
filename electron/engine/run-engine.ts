/**
 * Runs one mode of one task to the end and reports every step as a StepEvent. It always emits run-started
 * first and run-finished last, whatever happens; it never throws for model or tool problems.
 */
import { setMaxListeners } from 'node:events';
import { realpath } from 'node:fs/promises';
import { MODES, type WorkerProgram } from '../../shared/modes.js';
import { findPreset, protocolOfInfo } from '../../shared/providers.js';
import { DEFAULT_SETTINGS, type RunSpec } from '../../shared/run-spec.js';
import type { StepEvent, Validation } from '../../shared/step-event.js';
import { computeTotals } from '../../shared/summary.js';
import { resolveApprovalPolicy } from '../../shared/approval.js';
import { mcpToolKind } from '../../shared/mcp-tools.js';
import { ApprovalGate, type AskUser } from './approval/approval-gate.js';
import { EventRecorder } from './event-recorder.js';
import { runLoop, type LoopResult } from './loop.js';
import { dropCodeSandbox, dropPythonSandbox, prewarmCodeSandbox, prewarmPythonSandbox } from './modes/code-mode.js';
import { createMode, TOOL_SEARCH_MODES } from './modes/index.js';
import type { ModeAdapter, ModeDefinition } from './modes/mode.js';
import { createChatClient } from './provider/chat-client.js';
import { shellSandbox, shellSandboxAsync } from './sandbox/shell-sandbox.js';
import { warmUpTools } from './tools/index.js';
import { closeRunToolState, openRunToolState } from './tools/run-state.js';
import { disposeComputeThread } from './tools/compute/compute-thread.js';
import { searchTargetOf } from './tools/search-backends.js';
import { runStartedOf } from '../../shared/run-started.js';
import type { McpConnections } from './mcp/mcp-servers.js';
import { toolsetOf } from './modes/toolsets.js';
import { createSampler } from './mcp/mcp-sampling.js';
import { createElicitor, type AskElicitation } from './mcp/mcp-elicitation.js';
import { isAgentSpec, runAgent } from './agent/agent-run.js';
import type { RunTask } from './run-task.js';

export interface EngineIO {
  readonly apiKey: string | null;
  /** The search backend's key (Brave, Tavily), if the run's settings name one that needs it. */
  readonly searchKey?: string | null;
  readonly signal: AbortSignal;
  emit(event: StepEvent): void;
  /** Asks the user to allow a tool call (policy 'ask'); absent: such calls are refused, saying why. */
  readonly askApproval?: AskUser;
  /** Asks the person for the values an MCP server requests (elicitation); absent: each request is declined. */
  readonly askElicitation?: AskElicitation;
  /**
   * A model request's response headers arrived: the request is out and the run waits on the server, so work
   * begun now (loading a library) delays no request.
   */
  readonly onResponse?: () => void;
  /**
   * The definition to run spec.mode with; absent: the registry's (modes/index.ts). A test hands a mode of its own
   * here, as the recipe in docs/architecture.md ("A mode") is checked once without adding it to the registry.
   */
  readonly mode?: ModeDefinition;
}

/** Headers that let the simulated model keep per-run state (faults) and vary by trial, without reading anything secret. */
function simHeaders(spec: RunSpec): Record<string, string> | undefined {
  if (!spec.provider.simulated) return undefined;
  return {
    'x-parallax-run-id': spec.runId,
    'x-parallax-sim-faults': spec.settings.simFaults.join(','),
    'x-parallax-sim-trial': String(spec.trial ?? 1),
    // The tutorial profile is counted as the tutorial's provider counted it (electron/sim/accounting.ts).
    ...(spec.settings.toolset === 'seed' ? { 'x-parallax-sim-accounting': 'tutorial' } : {}),
  };
}

/** The connections a worker opened for its run before release (warmUpEngine), taken by runEngine. */
let pendingMcp: { readonly runId: string; readonly connections: Promise<McpConnections> } | null = null;

/** Servers opened ahead for a run that is not the one starting: closed, so no server process outlives its use. */
function dropPendingMcp(): void {
  const stale = pendingMcp;
  pendingMcp = null;
  void stale?.connections.then((c) => c.close()).catch(() => undefined);
}

/** Open the spec's MCP servers (the SDK is loaded only here); names the run's other tools already use are refused. */
async function openMcp(spec: RunSpec, task: RunTask | null, workspace: string): Promise<McpConnections> {
  const { openMcpServers } = await import('./mcp/mcp-servers.js');
  const reserved = [
    ...toolsetOf(spec.settings, task).tools.map((t) => t.name),
    'run_code',
    'search_tools',
    'call_tool',
  ];
  return openMcpServers(spec.mcpServers ?? [], workspace, reserved);
}

/** This run's connections: those opened before release, else opened now (a spec run without a worker). */
function mcpFor(spec: RunSpec, task: RunTask | null, workspace: string): Promise<McpConnections> | null {
  if (!spec.mcpServers?.length) return null;
  if (pendingMcp?.runId === spec.runId) {
    const { connections } = pendingMcp;
    pendingMcp = null;
    return connections;
  }
  dropPendingMcp();
  return openMcp(spec, task, workspace);
}

/**
 * Pay one-off loading costs (lazily loaded libraries) before a run is released, so they land in no mode's
 * measured steps. Workers call it before saying they are ready.
 */
export async function warmUpEngine(spec?: RunSpec, task: RunTask | null = null): Promise<void> {
  // The sandbox of the mode's programs: QuickJS (pre-started by preloadEngine, dropped when the mode runs none),
  // or Pyodide (Code Mode (Python): its worker loads Python, ~2 s, instead).
  const program = spec ? MODES[spec.mode].program : null;
  if (spec && program !== 'javascript') dropCodeSandbox();
  if (spec && program !== 'python') dropPythonSandbox();
  // A compute thread a standing pool started: kept only for a mode that searches tools from its first step;
  // others start it on their first calculator or fetch_url call, as a run always did.
  if (spec && !TOOL_SEARCH_MODES.has(spec.mode)) disposeComputeThread();
  await Promise.all([
    warmUpTools({ computeThread: !spec || TOOL_SEARCH_MODES.has(spec.mode) }),
    program === 'python'
      ? prewarmPythonSandbox()
      : spec && program === 'javascript'
        ? prewarmCodeSandbox(spec.settings)
        : undefined,
    // The Anthropic SDK and its client are loaded only for runs that speak its protocol.
    spec && protocolOfInfo(spec.provider) === 'anthropic' ? import('./provider/anthropic-client.js') : undefined,
    // MCP servers are started and their tools listed before release: a slow server is not the first step's cost.
    spec?.mcpServers?.length
      ? (dropPendingMcp(),
        (pendingMcp = { runId: spec.runId, connections: openMcp(spec, task, spec.workspace) }).connections)
      : undefined,
  ]);
}

/**
 * What a worker loads before it knows its run (a pooled worker, or one waiting for its spec): the tools (not the
 * compute thread, see warmUpTools), and the sandbox of the programs the host says its run will run: a QuickJS
 * thread for the default limits (also when the host does not know), which a Code Mode or Hybrid run then adopts
 * and a ReAct run stops; Pyodide's child for Code Mode (Python); nothing for a run without run_code.
 */
export async function preloadEngine(program?: WorkerProgram): Promise<void> {
  // Node loads its fetch (undici, which the model client sends with) on first use: here, not after release.
  void globalThis.fetch;
  await Promise.all([
    warmUpTools({ computeThread: false }),
    // The host said which programs the run will run (worker-hints.ts): only their sandbox starts; unknown, QuickJS.
    program === undefined || program === 'javascript'
      ? prewarmCodeSandbox(DEFAULT_SETTINGS)
      : program === 'python'
        ? // A failure here is the run's to report: warmUpEngine starts the child again and says why it failed.
          shellSandboxAsync()
            .then(() => prewarmPythonSandbox())
            .catch(() => dropPythonSandbox())
        : undefined,
  ]);
}

/**
 * What a worker of a standing warm pool adds while it waits (idle time, before any Run): the compute thread, so
 * that a tool-search run is released without waiting for it to boot. warmUpEngine stops it for other modes.
 */
export async function preloadStanding(): Promise<void> {
  await warmUpTools({ computeThread: true });
}

/** The run's model client: the loop's, and an agent column's proxy's (one client, so both send alike). */
function clientFor(spec: RunSpec, io: EngineIO) {
  return createChatClient(spec.provider, io.apiKey, {
    timeoutMs: spec.settings.requestTimeoutMs,
    idleTimeoutMs: spec.settings.streamIdleTimeoutMs,
    deadlineMs: spec.settings.requestDeadlineMs,
    streamOptions: spec.settings.streamOptions && findPreset(spec.provider.name)?.streamOptions !== false,
    stop: findPreset(spec.provider.name)?.stop !== false,
    headers: simHeaders(spec),
    promptCache: spec.settings.promptCache,
    ...(io.onResponse ? { onResponse: io.onResponse } : {}),
  });
}

/** `task`: the run's built-in task (its tools and validator; electron/tasks/ makes it), null for a free-text task. */
export async function runEngine(spec: RunSpec, io: EngineIO, task: RunTask | null): Promise<void> {
  // Every call in flight listens on the run's signal until it ends (a queued calculation, a command waiting for its
  // turn, an approval), and a reply may hold MAX_CALLS_PER_REPLY calls at once: past Node's default of 10 such a reply
  // printed "Possible EventTarget memory leak detected" where the user reads the run. Each listener goes with its call.
  setMaxListeners(0, io.signal);
  const recorder = new EventRecorder(spec.runId, io.emit);
  const startedAt = Date.now();
  let mode: ModeAdapter | null = null;
  let openedState: string | null = null;
  let mcp: McpConnections | null = null;
  let result: LoopResult;
  try {
    const workspace = await realpath(spec.workspace).catch(() => {
      throw new Error(
        `The workspace folder ${spec.workspace} does not exist. Pick an existing folder or a built-in task.`,
      );
    });
    if (isAgentSpec(spec)) {
      // An agent column runs its own program; its proxy records the steps (engine/agent/).
      result = await runAgent({
        spec: { ...spec, workspace },
        client: clientFor(spec, io),
        recorder,
        signal: io.signal,
      });
    } else {
      // The run's tool state: its write budget, and the one local origin fetch_url may reach (its fixture page).
      const search = searchTargetOf({
        taskId: spec.task.id,
        backend: spec.settings.webSearch,
        url: spec.settings.webSearchUrl,
        fixtureUrl: spec.fixtureUrl,
        key: io.searchKey ?? null,
      });
      openRunToolState(workspace, { localOrigins: spec.fixtureUrl ? [new URL(spec.fixtureUrl).origin] : [], search });
      openedState = workspace;
      const sandbox = shellSandbox();
      // A spec from the host carries the whole policy; one made elsewhere gets the defaults for this machine.
      const policy = resolveApprovalPolicy(spec.settings.approvals, { shellSandbox: sandbox.kind, userFolder: false });
      mcp = await mcpFor(spec, task, workspace);
      const mcpRecords = (mcp?.tools ?? []).flatMap((t) => (t.mcp ? [t.mcp] : []));
      const approvals = new ApprovalGate(
        policy,
        (e) => recorder.emit(e),
        io.askApproval ?? null,
        new Map(mcp?.tools.map((t) => [t.name, t.source ?? ''])),
        new Map(mcpRecords.map((r) => [r.name, mcpToolKind(r.annotations)])),
      );
      const options = { workspace, settings: spec.settings, task, approvals, mcpTools: mcp?.tools ?? [] };
      mode = io.mode ? io.mode.create(options) : createMode(spec.mode, options);
      recorder.emit(
        runStartedOf(spec, {
          startedAt,
          systemPrompt: mode.systemPrompt,
          tools: mode.tools(),
          shellSandbox: { kind: sandbox.kind, reason: sandbox.reason },
          mcpTools: mcpRecords,
        }),
      );
      // A server that failed is said once, with its name; the run goes on with the tools the others brought.
      for (const problem of mcp?.problems ?? []) recorder.emit({ type: 'run-warning', message: problem.message });
      const client = clientFor(spec, io);
      // A server's sampling request is answered by this run's model, through the same client and policy.
      mcp?.attach({
        sample: createSampler({ client, spec, approvals, signal: io.signal, emit: (e) => recorder.emit(e) }),
        elicit: createElicitor({ ask: io.askElicitation ?? null, signal: io.signal, emit: (e) => recorder.emit(e) }),
      });
      result = await runLoop({
        spec: { ...spec, workspace },
        mode,
        client,
        recorder,
        signal: io.signal,
        approvals,
        ...(task?.answerFeedback ? { answerFeedback: task.answerFeedback } : {}),
      });
    }
  } catch (err) {
    result = { status: 'error', answer: '', error: err instanceof Error ? err.message : String(err) };
  } finally {
    mode?.dispose?.();
    await mcp?.close();
    if (openedState) closeRunToolState(openedState);
  }
  if (recorder.events.length === 0) {
    // Setup failed before the run could start: still record what was asked, so the failure is visible.
    recorder.emit(runStartedOf(spec, { startedAt }));
  }
  let validation: Validation | null = null;
  if (result.status === 'answered' && task) {
    validation = await task
      .validate(result.answer, { workspace: spec.workspace, taskText: spec.task.text, fixtureUrl: spec.fixtureUrl })
      .catch((e: unknown) => ({
        ok: false,
        detail: `The answer could not be checked: ${e instanceof Error ? e.message : String(e)}`,
      }));
  }
  recorder.emit({
    type: 'run-finished',
    status: result.status,
    answer: result.answer,
    ...(result.error ? { error: result.error } : {}),
    validation,
    totals: computeTotals(recorder.events),
  });
}
