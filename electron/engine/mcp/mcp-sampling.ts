/**
 * MCP sampling: a server asks the client for a model reply to a prompt of its own (sampling/createMessage).
 * Parallax answers with the run's own model and provider, only while one of that server's tools runs, under
 * the approval policy's `mcp-sampling` entry, and records each request as a `sampling` event whose tokens
 * count in the run's totals (shared/summary.ts computeTotals). The request is the server's: its size, token cap
 * and count are bounded here, and its binary parts reach the model as described text. No tools are offered
 * and none of the run's own conversation is shared (includeContext is treated as "none").
 */
import type { RunSpec } from '../../../shared/run-spec.js';
import type { StepEventInput } from '../../../shared/step-event.js';
import { MCP_SAMPLING_APPROVAL } from '../../../shared/approval.js';
import type { ApprovalGate } from '../approval/approval-gate.js';
import { streamChat, type ChatClient, type ChatMessage } from '../provider/chat-client.js';
import type { ToolReporter } from '../tools/tool.js';
import { base64Bytes } from './mcp-content.js';

/** Sampling requests a run answers in all; later ones are refused. */
export const MAX_SAMPLING_PER_RUN = 20;
/** The reply's token cap: the server's maxTokens, never more than this. */
export const MAX_SAMPLING_TOKENS = 4096;
/** Characters of the server's messages and system prompt together; a longer request is refused. */
export const MAX_SAMPLING_CHARS = 100_000;

/** The fields of sampling/createMessage Parallax reads (the SDK has checked their shapes). */
export interface SamplingParams {
  readonly messages: readonly { readonly role: string; readonly content: unknown }[];
  readonly systemPrompt?: string;
  readonly maxTokens: number;
  readonly temperature?: number;
}

export interface SamplingAnswer {
  readonly model: string;
  readonly role: 'assistant';
  readonly content: { readonly type: 'text'; readonly text: string };
  readonly stopReason: string;
  readonly [key: string]: unknown;
}

/** Answers one server's request during one call (the reporter says which); rejects with a message for the server. */
export type Sampler = (
  server: string,
  params: SamplingParams,
  call: ToolReporter | null,
  signal: AbortSignal,
) => Promise<SamplingAnswer>;

function partText(part: unknown): string {
  if (typeof part !== 'object' || part === null) return '';
  const p = part as Record<string, unknown>;
  if (p.type === 'text') return typeof p.text === 'string' ? p.text : '';
  const mime = typeof p.mimeType === 'string' ? p.mimeType.slice(0, 100) : 'data';
  const size = typeof p.data === 'string' ? `, ${base64Bytes(p.data)} bytes` : '';
  return `[${String(p.type).slice(0, 40)} ${mime}${size}: not shown]`;
}

/** One message's content (a block or a list of blocks) as text. */
export function samplingText(content: unknown): string {
  return (Array.isArray(content) ? content : [content]).map(partText).filter(Boolean).join('\n');
}

export function createSampler(opts: {
  readonly client: ChatClient;
  readonly spec: RunSpec;
  readonly approvals: ApprovalGate;
  /** The run's: a cancelled run stops a sampling request too. */
  readonly signal: AbortSignal;
  emit(event: StepEventInput): void;
}): Sampler {
  let answered = 0;
  return async (server, params, call, requestSignal) => {
    const signal = AbortSignal.any([opts.signal, requestSignal]);
    const messages = params.messages.map((m) => ({
      role: m.role === 'assistant' ? 'assistant' : 'user',
      text: samplingText(m.content),
    }));
    const systemPrompt =
      typeof params.systemPrompt === 'string' && params.systemPrompt ? params.systemPrompt : undefined;
    const maxTokens = Math.max(1, Math.min(Math.floor(params.maxTokens) || 1, MAX_SAMPLING_TOKENS));
    const refuse = (error: string): never => {
      if (call) {
        opts.emit({
          type: 'sampling',
          step: call.step,
          callId: call.callId,
          server,
          messages: messages.slice(0, 20),
          ...(systemPrompt ? { systemPrompt } : {}),
          maxTokens,
          usage: null,
          latencyMs: 0,
          text: '',
          finishReason: null,
          error,
        });
      }
      throw new Error(error);
    };
    if (!call)
      return refuse(
        `Parallax answers sampling only while one of the server's tools runs in a run; "${server}" asked outside a call, so it was refused.`,
      );
    const chars = messages.reduce((n, m) => n + m.text.length, systemPrompt?.length ?? 0);
    if (chars > MAX_SAMPLING_CHARS)
      return refuse(
        `The sampling request has ${chars} characters; Parallax answers at most ${MAX_SAMPLING_CHARS}. Send a shorter prompt.`,
      );
    if (messages.length === 0) return refuse('The sampling request has no messages.');
    if (answered >= MAX_SAMPLING_PER_RUN)
      return refuse(`This run already answered ${MAX_SAMPLING_PER_RUN} sampling requests, the most one run answers.`);
    answered += 1;
    const shown = {
      server,
      maxTokens,
      messages: messages.map((m) => ({ role: m.role, text: m.text.slice(0, 2000) })),
      ...(systemPrompt ? { systemPrompt: systemPrompt.slice(0, 2000) } : {}),
    };
    const gate = await opts.approvals.check(
      MCP_SAMPLING_APPROVAL,
      shown,
      { step: call.step, callId: call.callId, inProgram: call.inProgram, server },
      signal,
    );
    if (!gate.ok) return refuse(gate.message.replace(`${MCP_SAMPLING_APPROVAL} `, `Sampling for "${server}" `));
    const chat: ChatMessage[] = [
      ...(systemPrompt ? [{ role: 'system' as const, content: systemPrompt }] : []),
      ...messages.map((m) => ({ role: m.role as 'user' | 'assistant', content: m.text })),
    ];
    const temperature =
      typeof params.temperature === 'number' && Number.isFinite(params.temperature)
        ? Math.min(Math.max(params.temperature, 0), 2)
        : opts.spec.settings.temperature;
    const sent = performance.now();
    try {
      const reply = await streamChat(
        opts.client,
        { model: opts.spec.provider.model, messages: chat, tools: [], temperature, maxTokens },
        signal,
      );
      opts.emit({
        type: 'sampling',
        step: call.step,
        callId: call.callId,
        server,
        messages,
        ...(systemPrompt ? { systemPrompt } : {}),
        maxTokens,
        usage: reply.usage,
        usageSource: reply.usageSource,
        latencyMs: Math.round(reply.receivedAt - sent),
        text: reply.text,
        finishReason: reply.finishReason,
        error: null,
      });
      return {
        model: opts.spec.provider.model,
        role: 'assistant',
        content: { type: 'text', text: reply.text },
        stopReason: reply.finishReason === 'length' ? 'maxTokens' : 'endTurn',
      };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      opts.emit({
        type: 'sampling',
        step: call.step,
        callId: call.callId,
        server,
        messages,
        ...(systemPrompt ? { systemPrompt } : {}),
        maxTokens,
        usage: null,
        latencyMs: Math.round(performance.now() - sent),
        text: '',
        finishReason: null,
        error: message,
      });
      throw new Error(`The run's model could not answer the sampling request: ${message}`);
    }
  };
}
