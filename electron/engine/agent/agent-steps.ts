/**
 * The steps of an agent column, recorded from the requests its program sends through the recording proxy,
 * with the events the built-in loop records (loop.ts): model-request (what was sent: message count, tools, the
 * tools and messages not seen before), model-response (the usage exactly as the provider reported it, the
 * calls, the finish reason), tool-started for each call, and tool-finished when the next request carries the
 * call's `tool` message, so the timeline, charts, prompt composition, cost and reports read it unchanged.
 * run-started waits for the first request: the agent's own system prompt and tools are what it records.
 */
import type { RunSpec } from '../../../shared/run-spec.js';
import { runStartedOf } from '../../../shared/run-started.js';
import type { ShellSandboxRecord, ToolExposure } from '../../../shared/step-event.js';
import type { EventRecorder } from '../event-recorder.js';
import { nativeTurn, responseEvent } from '../modes/turns.js';
import {
  ModelRequestError,
  streamChat,
  type ChatClient,
  type ChatMessage,
  type ChatReply,
} from '../provider/chat-client.js';
import { ProxyError } from './agent-proxy.js';
import type { ProxiedChat } from './proxy-types.js';

interface PendingCall {
  readonly step: number;
  readonly name: string;
  readonly startedAt: number;
}

const contentText = (m: ChatMessage): string => {
  const c = (m as { content?: unknown }).content;
  if (typeof c === 'string') return c;
  if (Array.isArray(c))
    return c
      .map((p) =>
        typeof p === 'object' && p && typeof (p as { text?: unknown }).text === 'string'
          ? (p as { text: string }).text
          : '',
      )
      .join('');
  return c == null ? '' : JSON.stringify(c);
};

export class AgentSteps {
  /** Steps recorded (model requests answered or failed). */
  step = 0;
  /** The last step whose request failed, when nothing is in flight: the agent's next request is its next attempt. */
  private retry: { step: number; attempt: number } | null = null;
  private inFlight = 0;
  private started = false;
  private readonly offered = new Set<string>();
  private readonly pending = new Map<string, PendingCall>();
  /** Messages of the last request plus the reply: a new request that extends them adds only the calls' results. */
  private seen = 0;
  /** The simulated model said it has no policy for the task. */
  noPolicy = false;
  /** Set when a request came after the last step allowed: the run ends as max-steps. */
  overLimit = false;
  /** Set when one step's request failed 1 + maxRetries times: the run ends with this error. */
  gaveUp: string | null = null;

  constructor(
    private readonly spec: RunSpec,
    private readonly client: ChatClient,
    private readonly recorder: EventRecorder,
    private readonly signal: AbortSignal,
    private readonly sandbox: ShellSandboxRecord,
    private readonly onOverLimit: () => void,
  ) {}

  /** run-started, once: from the first request's system prompt and tools, or (no request at all) empty. */
  begin(first?: ProxiedChat, startedAt = Date.now()): void {
    if (this.started) return;
    this.started = true;
    const system = first?.messages.find((m) => m.role === 'system');
    const tools = first?.tools ?? [];
    for (const t of tools) this.offered.add(t.name);
    this.recorder.emit(
      runStartedOf(this.spec, {
        startedAt,
        systemPrompt: system ? contentText(system) : '',
        tools,
        shellSandbox: this.sandbox,
      }),
    );
  }

  async chat(req: ProxiedChat): Promise<ChatReply> {
    if (this.signal.aborted) throw new ProxyError('The run was cancelled.', 499);
    if (this.overLimit || this.gaveUp !== null)
      throw new ProxyError('The run is stopping; no more model requests are sent.', 429);
    // Every request that reaches the model is counted: one sent while another is in flight is a step of its own,
    // and only a request after a failed one, with nothing in flight, is that step's next attempt.
    const { maxSteps, maxRetries } = this.spec.settings;
    const retry = this.inFlight === 0 ? this.retry : null;
    this.retry = null;
    if (retry && retry.attempt > maxRetries) {
      this.gaveUp = `The model request of step ${retry.step} failed ${retry.attempt} times (max retries ${maxRetries}); the agent sent it again, so the run is stopped. Raise "max retries" or look at the model's errors in the timeline.`;
      this.onOverLimit();
      throw new ProxyError(this.gaveUp, 429);
    }
    if (!retry && this.step >= maxSteps) {
      this.overLimit = true;
      this.onOverLimit();
      throw new ProxyError(
        `This run allows ${maxSteps} model requests (max steps); the agent asked for one more, so the run is stopped.`,
        429,
      );
    }
    this.begin(req);
    const step = retry ? retry.step : ++this.step;
    const attempt = retry ? retry.attempt + 1 : 1;
    this.inFlight++;
    try {
      return await this.forward(req, step, attempt);
    } finally {
      this.inFlight--;
    }
  }

  private async forward(req: ProxiedChat, step: number, attempt: number): Promise<ChatReply> {
    this.finishCalls(req.messages);
    const added = req.tools.filter((t) => !this.offered.has(t.name));
    for (const t of added) this.offered.add(t.name);
    const addedMessages = this.addedMessages(req.messages);
    this.recorder.emit({
      type: 'model-request',
      step,
      attempt,
      messageCount: req.messages.length,
      toolNames: req.tools.map((t) => t.name),
      ...(added.length ? { addedTools: added as ToolExposure[] } : {}),
      ...(addedMessages.length ? { addedMessages } : {}),
    });
    const sent = performance.now();
    let reply: ChatReply;
    try {
      reply = await streamChat(
        this.client,
        {
          model: this.spec.provider.model,
          messages: req.messages,
          temperature: req.temperature,
          tools: req.tools,
          ...(req.toolChoice !== undefined ? { toolChoice: req.toolChoice } : {}),
          ...(req.stop && this.client.stop ? { stop: req.stop } : {}),
          ...(req.maxTokens !== undefined ? { maxTokens: req.maxTokens } : {}),
        },
        this.signal,
      );
    } catch (err) {
      // The agent gets the error and may send again: its next request is this step's next attempt.
      const status = err instanceof ModelRequestError ? err.status : null;
      const message = this.client.redact(err instanceof Error ? err.message : String(err));
      this.recorder.emit({
        type: 'model-retry',
        step,
        attempt,
        status,
        message: `${message} (passed to the agent, which decides whether to send again)`,
        delayMs: 0,
      });
      this.retry = { step, attempt };
      throw new ProxyError(message, status ?? 502);
    }
    if (reply.noPolicy) this.noPolicy = true;
    const turn = nativeTurn(reply, step, this.client);
    this.recorder.emit(responseEvent(reply, step, sent, turn));
    for (const call of turn.calls) {
      let args: unknown = call.arguments;
      try {
        const parsed: unknown = JSON.parse(call.arguments || '{}');
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) args = parsed;
      } catch {
        /* recorded as the model wrote it */
      }
      this.recorder.emit({
        type: 'tool-started',
        step,
        callId: call.id,
        name: call.name,
        args: args as Record<string, unknown>,
      });
      this.pending.set(call.id, { step, name: call.name, startedAt: performance.now() });
    }
    this.seen = req.messages.length + 1;
    return reply;
  }

  /** The calls a request answers with its `tool` messages: their results, as the agent sent them. */
  private finishCalls(messages: readonly ChatMessage[]): void {
    for (const m of messages) {
      if (m.role !== 'tool') continue;
      const id = (m as { tool_call_id?: unknown }).tool_call_id;
      const call = typeof id === 'string' ? this.pending.get(id) : undefined;
      if (!call) continue;
      this.pending.delete(id as string);
      const output = contentText(m);
      this.recorder.emit({
        type: 'tool-finished',
        step: call.step,
        callId: id as string,
        name: call.name,
        output,
        rawSize: output.length,
        truncated: false,
        durationMs: Math.round(performance.now() - call.startedAt),
        error: null,
      });
    }
  }

  /**
   * Messages the built-in loop would not have added: on the first request, all but the system prompt and the
   * task; later, those after the last request's history and reply that are not tool results.
   */
  private addedMessages(messages: readonly ChatMessage[]): { role: string; content: string }[] {
    const fresh =
      this.step === 1 && this.seen === 0
        ? messages.filter(
            (m, i) =>
              !(m.role === 'system' && i === 0) &&
              !(m.role === 'user' && messages.findIndex((x) => x.role === 'user') === i),
          )
        : messages.slice(this.seen).filter((m) => m.role !== 'tool');
    return fresh.map((m) => ({ role: m.role, content: contentText(m) }));
  }

  /** The run is over: calls whose results never came back are closed, saying so. */
  end(): void {
    for (const [id, call] of this.pending) {
      this.recorder.emit({
        type: 'tool-finished',
        step: call.step,
        callId: id,
        name: call.name,
        output: '',
        rawSize: 0,
        truncated: false,
        durationMs: Math.round(performance.now() - call.startedAt),
        error: "The agent ended without sending this call's result back to the model.",
      });
    }
    this.pending.clear();
  }
}
