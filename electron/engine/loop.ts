/**
 * The agent loop: ask the model with the whole history and the mode's tools, append
 * its reply verbatim, stop if it called no tool, else run every call (concurrently) and append one `tool`
 * message per call id; repeat up to maxSteps. A mode changes a step only through its hooks (modes/mode.ts):
 * prepareStep (given the step, the history and the steps done: the tools sent, tool choice, stop sequences,
 * messages it adds, the step's phase) and readReply (the turn: calls,
 * what answers them, whether the run stops); text ReAct's hooks parse its actions from the text and answer
 * them with one "Observation: …" user message (modes/turns.ts). Errors the model caused (unknown tool, bad
 * JSON, a tool that throws) go back to it as tool messages and the loop goes on.
 */
import type { RunSpec } from '../../shared/run-spec.js';
import type { McpContentRecord, RunStatus, ToolCallRequest } from '../../shared/step-event.js';
import type { ApprovalGate } from './approval/approval-gate.js';
import type { EventRecorder } from './event-recorder.js';
import type { ModeAdapter, StepRecord, StepRequest } from './modes/mode.js';
import { STEP_PHASE_PATTERN } from '../../shared/step-phase.js';
import { nativeTurn, responseEvent, type CallOutput, type Turn } from './modes/turns.js';
import { unfinishedReply } from './final-reply.js';
import {
  ModelRequestError,
  RequestCancelledError,
  backoffMs,
  sleep,
  streamChat,
  type ChatClient,
  type ChatMessage,
  type ChatReply,
} from './provider/chat-client.js';
import { unknownToolMessage } from './tools/index.js';
import { toolErrorText } from './tools/error-hints.js';
import type { ToolImage } from './tools/tool.js';
import { takesImages } from '../../shared/model-capabilities.js';
import { RepeatGuard, repeatNote } from './tools/repeat-guard.js';
import { HistoryEditor } from './history-editor.js';
import { askWith, HistorySummarizer } from './history-summarizer.js';
import { parseHistory } from '../../shared/history-setting.js';
import type { ClearedResult } from '../../shared/step-event.js';
import { isFiltered } from '../../shared/reply-ending.js';

export interface LoopResult {
  readonly status: Exclude<RunStatus, 'crashed'>;
  readonly answer: string;
  readonly error?: string;
}

export interface LoopOptions {
  readonly spec: RunSpec;
  readonly mode: ModeAdapter;
  readonly client: ChatClient;
  readonly recorder: EventRecorder;
  readonly signal: AbortSignal;
  /** The approval policy for run_shell, write_file and fetch_url; absent: every call runs. */
  readonly approvals?: ApprovalGate;
  /**
   * A task whose harness answers a wrong answer (a benchmark's protocol, e.g. M3ToolEval's "Your answer is
   * incorrect. Please try again…"): the message for this answer, or null when it stands. The message goes to
   * the model as a user message before the next step (recorded in its model-request's addedMessages) and the
   * run goes on while steps remain; the last answer given is the run's answer.
   */
  readonly answerFeedback?: (answer: string) => Promise<string | null>;
}

export const NO_POLICY_MESSAGE =
  'The simulated model has no policy for this task: it only knows the built-in tasks, so its reply is not an answer. ' +
  'Pick a built-in task, or choose a real provider (OpenAI, DeepSeek, OpenRouter, a local Ollama…) to run your own.';

interface LoopState extends LoopOptions {
  /** Names of the tools offered so far in this run. */
  readonly offered: Set<string>;
  /** The calls that ran, under repeatGuard 'on'; null when every call runs. */
  readonly guard: RepeatGuard | null;
}

/** Cut text to `limit` characters with a marker the model (and the user) can see. */
export function truncate(text: string, limit: number): { text: string; truncated: boolean } {
  if (text.length <= limit) return { text, truncated: false };
  return {
    text: `${text.slice(0, limit)}\n…[truncated: showing the first ${limit} of ${text.length} characters]`,
    truncated: true,
  };
}

export async function runLoop(options: LoopOptions): Promise<LoopResult> {
  // run-started recorded the tools offered at the start (run-engine.ts).
  const opts: LoopState = {
    ...options,
    offered: new Set(options.mode.tools().map((t) => t.name)),
    guard: options.spec.settings.repeatGuard === 'on' ? new RepeatGuard() : null,
  };
  const { spec, mode, signal } = opts;
  const messages: ChatMessage[] = [
    { role: 'system', content: mode.systemPrompt },
    { role: 'user', content: spec.task.text },
  ];
  const history = HistoryEditor.of(spec.settings.toolHistory);
  const policy = parseHistory(spec.settings.toolHistory);
  const summarizer = policy?.kind === 'summarize' ? new HistorySummarizer(policy.keep) : null;
  const ask = askWith(opts.client, spec.provider.model, spec.settings.temperature, signal);
  // The harness's reply to a wrong answer, sent with the next request.
  let feedback: ChatMessage[] = [];
  // The steps done, for the mode's prepareStep.
  const steps: StepRecord[] = [];
  try {
    for (let step = 1; step <= spec.settings.maxSteps; step++) {
      summarizer?.mark(step, messages.length);
      const prepared = mode.prepareStep?.({ step, messages, steps }) ?? {};
      checkPhase(mode.id, prepared.phase);
      const request = feedback.length
        ? { ...prepared, messages: [...feedback, ...(prepared.messages ?? [])] }
        : prepared;
      feedback = [];
      if (request.messages?.length) messages.push(...request.messages);
      const summary = await summarizer?.beforeRequest(messages, step, ask);
      if (summary) opts.recorder.emit(summary);
      if (signal.aborted) throw new RequestCancelledError();
      const cleared = history?.beforeRequest(messages, step) ?? [];
      // A cleared result is out of the model's sight: asking for it again is a re-read, not a repeat.
      for (const c of cleared) opts.guard?.forget(c.callId);
      const { reply, turn } = await askModel(opts, messages, step, request, cleared);
      messages.push(turn.message);
      if (turn.calls.length === 0 && reply.noPolicy) {
        return { status: 'no-policy', answer: reply.text, error: NO_POLICY_MESSAGE };
      }
      // The finish reason decides before the text does: a refused or filtered reply is no answer, and its calls do not run.
      const refused = refusalMessage(reply);
      if (refused) return { status: 'refused', answer: '', error: refused };
      // Anthropic pause_turn: the server paused its own tool loop; the turn goes back as it is, to be continued.
      if (reply.stopReason === 'pause_turn' && turn.calls.length === 0) {
        // Every block goes back, whatever a text mode would have cut: the server continues from them.
        messages[messages.length - 1] = reply.message as unknown as ChatMessage;
        steps.push(stepRecord(step, request.phase, reply, turn, []));
        continue;
      }
      // A final reply cut short or empty is no answer (final-reply.ts), whatever the mode read in it.
      const unfinished = unfinishedReply(reply, turn);
      if (unfinished) return { status: unfinished.status, answer: '', error: unfinished.error };
      if (turn.answer !== null) {
        const again = step < spec.settings.maxSteps ? await opts.answerFeedback?.(turn.answer) : null;
        if (!again) return { status: 'answered', answer: turn.answer };
        feedback = [{ role: 'user', content: again }];
        steps.push(stepRecord(step, request.phase, reply, turn, []));
        continue;
      }
      const outputs = await Promise.all(turn.calls.map((call) => runCall(opts, call, step)));
      if (signal.aborted) throw new RequestCancelledError();
      const results = turn.results(outputs);
      history?.add(step, turn, outputs, messages.length, results.length);
      messages.push(...results);
      const images = imagesMessage(turn.calls, outputs);
      if (images) messages.push(images);
      steps.push(stepRecord(step, request.phase, reply, turn, outputs));
    }
    return {
      status: 'max-steps',
      answer: '',
      error: `Stopped after ${spec.settings.maxSteps} steps without a final answer. Raise "max steps" if the task needs more.`,
    };
  } catch (err) {
    // A host that stops a run for a reason of its own (an approval nobody answered) gives it as the abort reason.
    if (err instanceof RequestCancelledError || signal.aborted)
      return {
        status: 'cancelled',
        answer: '',
        error: typeof signal.reason === 'string' ? signal.reason : 'The run was cancelled.',
      };
    if (err instanceof ModelRequestError) return { status: 'error', answer: '', error: err.message };
    throw err;
  }
}

/**
 * Why a reply is a refusal and not an answer, in the provider's words, or null: a finish reason of its content
 * filter or refusal (shared/reply-ending.ts: OpenAI and Azure content_filter, Anthropic stop_reason refusal, Gemini's
 * SAFETY and RECITATION through its OpenAI-compatible endpoint), or refusal text (OpenAI `delta.refusal`).
 */
export function refusalMessage(reply: ChatReply): string | null {
  if (!isFiltered(reply)) return null;
  const reason = (reply.stopReason ?? reply.finishReason ?? '').toLowerCase();
  const said = reply.stopReason ?? reply.finishReason;
  const parts = [
    reply.refusal
      ? `The model refused: "${clip(reply.refusal)}"${said && said !== 'stop' ? ` (finish reason "${said}")` : ''}.`
      : `The provider stopped the reply with ${reply.stopReason !== undefined ? 'stop_reason' : 'finish_reason'} "${said}"${reason === 'refusal' ? ' (a refusal)' : ' (its content filter)'}.`,
    reply.stopDetails ? `It said: ${clip(reply.stopDetails)}.` : '',
    reply.text ? `The ${reply.text.length} characters of text before it are not an answer.` : '',
    reply.toolCalls.length
      ? `Its ${reply.toolCalls.length} tool call${reply.toolCalls.length === 1 ? ' was' : 's were'} not run.`
      : '',
    'Rephrase the task or try another model; a refused run never counts as answered.',
  ];
  return parts.filter(Boolean).join(' ');
}

const clip = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}…` : s);

/**
 * One step's request, with retries for 429 / 5xx / network errors and broken streams, each attempt recorded.
 * A provider that refuses stream_options gets the request again at once without it (a recorded retry that
 * does not count against maxRetries); the usage is then estimated if it sends none.
 */
async function askModel(
  opts: LoopState,
  messages: ChatMessage[],
  step: number,
  request: StepRequest,
  cleared: readonly ClearedResult[],
): Promise<{ reply: ChatReply; turn: Turn }> {
  const { spec, mode, client, recorder, signal } = opts;
  let failures = 0;
  for (let attempt = 1; ; attempt++) {
    const tools = mode.tools();
    // Tools beyond those of run-started go into the record in full, once, so the request can be reconstructed.
    const added = tools.filter((t) => !opts.offered.has(t.name));
    for (const t of added) opts.offered.add(t.name);
    recorder.emit({
      type: 'model-request',
      step,
      attempt,
      messageCount: messages.length,
      toolNames: tools.map((t) => t.name),
      ...(added.length ? { addedTools: added } : {}),
      // Messages the mode added before this step go into the record once, so the request can be reconstructed.
      ...(attempt === 1 && request.messages?.length ? { addedMessages: request.messages.map(recordedMessage) } : {}),
      // Results the history knob cleared from this request on, with the placeholder sent instead (once, like the above).
      ...(attempt === 1 && cleared.length ? { clearedResults: cleared } : {}),
      // The kind of step the mode made this (absent: an ordinary step), on every attempt: surfaces name the step by it.
      ...(request.phase ? { phase: request.phase } : {}),
    });
    const sent = performance.now();
    try {
      const reply = await streamChat(
        client,
        {
          model: spec.provider.model,
          messages,
          temperature: spec.settings.temperature,
          // A text mode lists its tools in the system prompt and sends no tools parameter.
          tools: request.tools ?? tools,
          ...(request.toolChoice !== undefined ? { toolChoice: request.toolChoice } : {}),
          ...(request.stop && client.stop ? { stop: request.stop } : {}),
        },
        signal,
      );
      const turn = (mode.readReply ?? nativeTurn)(reply, step, client);
      recorder.emit(responseEvent(reply, step, sent, turn));
      return { reply, turn };
    } catch (err) {
      if (err instanceof ModelRequestError && err.kind === 'stream-options' && client.streamOptions) {
        client.streamOptions = false;
        recorder.emit({
          type: 'model-retry',
          step,
          attempt,
          status: err.status,
          delayMs: 0,
          message: `${err.message} Sent again without it; usage will be estimated if the provider reports none.`,
        });
        continue;
      }
      if (err instanceof ModelRequestError && err.kind === 'stop' && client.stop && request.stop) {
        client.stop = false;
        recorder.emit({
          type: 'model-retry',
          step,
          attempt,
          status: err.status,
          delayMs: 0,
          message: `${err.message} Sent again without it; whatever the model writes from a line starting "Observation:" on is dropped, never read as a tool result.`,
        });
        continue;
      }
      failures++;
      if (!(err instanceof ModelRequestError) || !err.retryable || failures > spec.settings.maxRetries) {
        if (err instanceof ModelRequestError && err.retryable)
          throw new ModelRequestError(
            `${err.message} Gave up after ${attempt} attempt${attempt === 1 ? '' : 's'}.`,
            err.status,
            false,
            null,
            err.kind,
          );
        throw err;
      }
      const delayMs = backoffMs(failures + 1, err.retryAfterS);
      recorder.emit({ type: 'model-retry', step, attempt, status: err.status, message: err.message, delayMs });
      await sleep(delayMs, signal);
    }
  }
}

/** A phase is a word every surface prints as it is (shared/step-phase.ts); any other value is the mode's bug. */
function checkPhase(mode: string, phase: string | undefined): void {
  if (phase !== undefined && !STEP_PHASE_PATTERN.test(phase))
    throw new Error(
      `Mode "${mode}" gave a step the phase ${JSON.stringify(phase)}: a phase is a lowercase word (or words joined by "-"), e.g. "planning". Fix its prepareStep.`,
    );
}

/** A step done, as the next steps' prepareStep sees it. */
function stepRecord(
  step: number,
  phase: string | undefined,
  reply: ChatReply,
  turn: Turn,
  outputs: readonly CallOutput[],
): StepRecord {
  return {
    step,
    ...(phase ? { phase } : {}),
    text: reply.text,
    toolCalls: turn.calls,
    outputs: outputs.map((o) => o.text),
    answer: turn.answer,
  };
}

/** A message as model-request's addedMessages records it: role and text. */
function recordedMessage(m: ChatMessage): { role: string; content: string } {
  const content = typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '');
  return { role: m.role, content };
}

function parseArgs(raw: string): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  if (raw.trim() === '') return { ok: true, value: {} };
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return { ok: true, value: value as Record<string, unknown> };
    return {
      ok: false,
      error: `The arguments must be a JSON object of named parameters, not ${Array.isArray(value) ? 'an array' : typeof value}.`,
    };
  } catch (e) {
    return {
      ok: false,
      error: `The arguments are not valid JSON (${(e as Error).message}). Send one JSON object, e.g. {"path": "notes.txt"}.`,
    };
  }
}

/** Run one tool call through the mode and return the text of its `tool` message, and whether it failed. Never throws. */
async function runCall(opts: LoopState, call: ToolCallRequest, step: number): Promise<CallOutput> {
  const { mode, recorder, signal, spec } = opts;
  const parsed = parseArgs(call.arguments);
  const available = mode.tools().map((t) => t.name);
  // A forwarder's call runs, is approved and is recorded as the tool it names (noted as forwarded).
  const forwarded =
    parsed.ok && available.includes(call.name) ? (mode.forward?.(call.name, parsed.value, step) ?? null) : null;
  const target = forwarded?.ok ? { name: forwarded.name, args: forwarded.args, forwardedBy: call.name } : null;
  const name = target?.name ?? call.name;
  const via = target ? { forwardedBy: target.forwardedBy } : {};
  recorder.emit({
    type: 'tool-started',
    step,
    callId: call.id,
    name,
    args: target?.args ?? (parsed.ok ? parsed.value : call.arguments),
    ...via,
  });
  let t0 = performance.now();
  let output: string;
  let error: string | null = null;
  let mcpContent: readonly McpContentRecord[] | undefined;
  let images: readonly ToolImage[] | undefined;
  // Images go to the model as image parts only where it reads them and the turn is native tool calling.
  const seesImages = takesImages(spec.provider.model, spec.provider.simulated) && !mode.text;
  const imageIo = seesImages
    ? {
        keepImages: (list: readonly ToolImage[]) => {
          images = list;
        },
      }
    : {
        noImages: mode.text
          ? 'text ReAct returns tool results as text observations'
          : `the model ${spec.provider.model} takes no image input`,
      };
  let repeatOf: { step: number; callId: string } | null = null;
  if (call.cut) {
    error = `${call.name || 'the call'}: the reply reached its token limit (finish reason "length") inside this call, so its arguments are unfinished and it was not run. Make the call again with shorter arguments, or split the work.`;
  } else if (!available.includes(call.name)) {
    const hint = mode.unknownToolHint?.(call.name) ?? null;
    error = hint ? `${unknownToolMessage(call.name, available)} ${hint}` : unknownToolMessage(call.name, available);
  } else if (!parsed.ok) {
    error = `${call.name}: ${parsed.error}`;
  } else if (forwarded && !forwarded.ok) {
    error = `${call.name}: ${forwarded.error}`;
  } else if ((repeatOf = opts.guard?.check(name, target?.args ?? parsed.value, { step, callId: call.id }) ?? null)) {
    // Identical to a call that ran: the note goes back instead, and the tool is not run (nor asked for approval).
    output = repeatNote(name, target?.args ?? parsed.value, repeatOf, step);
  } else {
    const args = target?.args ?? parsed.value;
    try {
      // The approval check comes first; time spent waiting for the user is not the tool's duration.
      const gate = await opts.approvals?.check(name, args, { step, callId: call.id, inProgram: false }, signal);
      t0 = performance.now();
      if (gate && !gate.ok) throw new Error(gate.message);
      output = await mode.handleCall(name, args, {
        step,
        callId: call.id,
        signal,
        emit: (e) => recorder.emit(e),
        keepContent: (blocks) => {
          mcpContent = blocks;
        },
        ...imageIo,
      });
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
  }
  const known = available.includes(call.name);
  const failed = {
    cut: !!call.cut,
    unknownTool: !call.cut && !known,
    badArguments: !call.cut && known && (!parsed.ok || !!(forwarded && !forwarded.ok)),
  };
  const full = error !== null ? toolErrorText(error, failed, spec.settings.errorHints) : output!;
  const cut = truncate(full, spec.settings.truncateChars);
  recorder.emit({
    type: 'tool-finished',
    step,
    callId: call.id,
    name,
    output: cut.text,
    rawSize: full.length,
    truncated: cut.truncated,
    durationMs: Math.round(performance.now() - t0),
    error,
    ...via,
    ...(repeatOf ? { repeatOf } : {}),
    ...(mcpContent?.length ? { mcpContent } : {}),
    // Stopped by a cancel: the loop ends the run without another request, so nothing goes back to the model.
    ...(signal.aborted ? { cancelled: true as const } : {}),
  });
  return { text: cut.text, failed: error !== null, ...(images && error === null && !signal.aborted ? { images } : {}) };
}

/**
 * The images the calls returned, as one user message after their tool messages (chat completions' tool
 * messages carry text only): a line naming each call, then its images as data URLs. The Messages API client
 * turns the parts into image blocks of the same user turn (anthropic-messages.ts).
 */
function imagesMessage(calls: readonly ToolCallRequest[], outputs: readonly CallOutput[]): ChatMessage | null {
  const parts: ({ type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } })[] = [];
  outputs.forEach((o, i) => {
    if (!o.images?.length) return;
    parts.push({
      type: 'text',
      text: `The images ${calls[i]!.name} returned (call ${calls[i]!.id}), in the order its result lists them:`,
    });
    for (const img of o.images)
      parts.push({ type: 'image_url', image_url: { url: `data:${img.mimeType};base64,${img.data}` } });
  });
  return parts.length ? ({ role: 'user', content: parts } as ChatMessage) : null;
}
