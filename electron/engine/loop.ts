/**
 * The agent loop (seed 000, section 04): ask the model with the whole history and the mode's tools, append
 * its reply verbatim, stop if it called no tool, else run every call (concurrently) and append one `tool`
 * message per call id; repeat up to maxSteps. Errors the model caused (unknown tool, bad JSON, a tool that
 * throws) go back to it as tool messages and the loop goes on.
 */
import type OpenAI from 'openai';
import type { RunSpec } from '../../shared/run-spec.js';
import type { RunStatus, ToolCallRequest } from '../../shared/step-event.js';
import type { ApprovalGate } from './approval/approval-gate.js';
import type { EventRecorder } from './event-recorder.js';
import type { ModeAdapter } from './modes/mode.js';
import {
  ModelRequestError, RequestCancelledError, backoffMs, sleep, streamChat, type ChatMessage,
} from './provider/chat-client.js';
import type { AccumulatedReply } from './provider/stream-accumulator.js';
import { unknownToolMessage } from './tools/index.js';

export interface LoopResult {
  readonly status: Exclude<RunStatus, 'crashed'>;
  readonly answer: string;
  readonly error?: string;
}

export interface LoopOptions {
  readonly spec: RunSpec;
  readonly mode: ModeAdapter;
  readonly client: OpenAI;
  readonly recorder: EventRecorder;
  readonly signal: AbortSignal;
  /** The approval policy for run_shell, write_file and fetch_url; absent: every call runs. */
  readonly approvals?: ApprovalGate;
}

/** Cut text to `limit` characters with a marker the model (and the user) can see. */
export function truncate(text: string, limit: number): { text: string; truncated: boolean } {
  if (text.length <= limit) return { text, truncated: false };
  return {
    text: `${text.slice(0, limit)}\n…[truncated: showing the first ${limit} of ${text.length} characters]`,
    truncated: true,
  };
}

export async function runLoop(opts: LoopOptions): Promise<LoopResult> {
  const { spec, mode, recorder, signal } = opts;
  const messages: ChatMessage[] = [
    { role: 'system', content: mode.systemPrompt },
    { role: 'user', content: spec.task.text },
  ];
  try {
    for (let step = 1; step <= spec.settings.maxSteps; step++) {
      const reply = await askModel(opts, messages, step);
      messages.push(assistantMessage(reply));
      if (reply.toolCalls.length === 0) return { status: 'answered', answer: reply.text || reply.refusal };
      const outputs = await Promise.all(reply.toolCalls.map((call) => runCall(opts, call, step)));
      reply.toolCalls.forEach((call, i) => messages.push({ role: 'tool', tool_call_id: call.id, content: outputs[i] }));
      if (signal.aborted) throw new RequestCancelledError();
    }
    return {
      status: 'max-steps',
      answer: '',
      error: `Stopped after ${spec.settings.maxSteps} steps without a final answer. Raise "max steps" if the task needs more.`,
    };
  } catch (err) {
    if (err instanceof RequestCancelledError || signal.aborted) return { status: 'cancelled', answer: '', error: 'The run was cancelled.' };
    if (err instanceof ModelRequestError) return { status: 'error', answer: '', error: err.message };
    throw err;
  }
}

/** One step's request, with retries for 429 / 5xx / network errors, each attempt recorded. */
async function askModel(opts: LoopOptions, messages: ChatMessage[], step: number): Promise<AccumulatedReply> {
  const { spec, mode, client, recorder, signal } = opts;
  for (let attempt = 1; ; attempt++) {
    const tools = mode.tools();
    recorder.emit({ type: 'model-request', step, attempt, messageCount: messages.length, toolNames: tools.map((t) => t.name) });
    const sent = performance.now();
    try {
      const reply = await streamChat(client, spec.provider, {
        model: spec.provider.model, messages, tools, temperature: spec.settings.temperature,
      }, signal);
      recorder.emit({
        type: 'model-response',
        step,
        usage: reply.usage,
        latencyMs: Math.round(performance.now() - sent),
        finishReason: reply.finishReason,
        text: reply.text,
        ...(reply.reasoningText ? { reasoningText: reply.reasoningText } : {}),
        toolCalls: reply.toolCalls,
      });
      return reply;
    } catch (err) {
      if (!(err instanceof ModelRequestError) || !err.retryable || attempt > spec.settings.maxRetries) {
        if (err instanceof ModelRequestError && err.retryable)
          throw new ModelRequestError(`${err.message} Gave up after ${attempt} attempts.`, err.status, false);
        throw err;
      }
      const delayMs = backoffMs(attempt + 1, err.retryAfterS);
      recorder.emit({ type: 'model-retry', step, attempt, status: err.status, message: err.message, delayMs });
      await sleep(delayMs, signal);
    }
  }
}

/** The assistant's reply as it goes back into the history, unchanged. */
function assistantMessage(reply: AccumulatedReply): ChatMessage {
  const msg: Record<string, unknown> = { role: 'assistant', content: reply.text || null };
  if (reply.toolCalls.length)
    msg.tool_calls = reply.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  // Reasoning models that think across tool calls (e.g. DeepSeek) need their reasoning sent back within the turn.
  if (reply.reasoningText) msg.reasoning_content = reply.reasoningText;
  return msg as unknown as ChatMessage;
}

function parseArgs(raw: string): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  if (raw.trim() === '') return { ok: true, value: {} };
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { ok: true, value: value as Record<string, unknown> };
    return { ok: false, error: `The arguments must be a JSON object of named parameters, not ${Array.isArray(value) ? 'an array' : typeof value}.` };
  } catch (e) {
    return { ok: false, error: `The arguments are not valid JSON (${(e as Error).message}). Send one JSON object, e.g. {"path": "notes.txt"}.` };
  }
}

/** Run one tool call through the mode and return the text of its `tool` message. Never throws. */
async function runCall(opts: LoopOptions, call: ToolCallRequest, step: number): Promise<string> {
  const { mode, recorder, signal, spec } = opts;
  const parsed = parseArgs(call.arguments);
  recorder.emit({ type: 'tool-started', step, callId: call.id, name: call.name, args: parsed.ok ? parsed.value : call.arguments });
  let t0 = performance.now();
  const available = mode.tools().map((t) => t.name);
  let output: string;
  let error: string | null = null;
  if (!available.includes(call.name)) {
    const hint = mode.unknownToolHint?.(call.name) ?? null;
    error = hint ? `${unknownToolMessage(call.name, available)} ${hint}` : unknownToolMessage(call.name, available);
  } else if (!parsed.ok) {
    error = `${call.name}: ${parsed.error}`;
  } else {
    try {
      // The approval check comes first; time spent waiting for the user is not the tool's duration.
      const gate = await opts.approvals?.check(call.name, parsed.value, { step, callId: call.id, inProgram: false }, signal);
      t0 = performance.now();
      if (gate && !gate.ok) throw new Error(gate.message);
      output = await mode.handleCall(call.name, parsed.value, {
        step, callId: call.id, signal, emit: (e) => recorder.emit(e),
      });
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
  }
  const full = error !== null ? `Error: ${error}` : output!;
  const cut = truncate(full, spec.settings.truncateChars);
  recorder.emit({
    type: 'tool-finished', step, callId: call.id, name: call.name, output: cut.text,
    rawSize: full.length, truncated: cut.truncated, durationMs: Math.round(performance.now() - t0), error,
  });
  return cut.text;
}
