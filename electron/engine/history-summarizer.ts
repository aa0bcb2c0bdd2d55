/**
 * The `history: summarize:K` knob in the loop (shared/history-setting.ts): the last K steps go whole, and older
 * ones are replaced by one message holding a summary the run's own model writes, in a request of its own (no
 * tools), recorded as a history-summary event and counted in the run's totals. It summarises once when the
 * history first grows past K steps, then again only when K more steps have left the window, each time from
 * the previous summary plus the steps since (incremental, never the whole run again). A failed summary request
 * leaves the history whole and is recorded with its error: the run goes on, it loses nothing.
 */
import type { HistorySummaryEvent } from '../../shared/step-event.js';
import { streamChat, type ChatClient, type ChatMessage } from './provider/chat-client.js';
// The tokenizer loads only when a summary is due (after the run's first request), never at the worker's start.
const counter = () => import('./tokens/count-tokens.js');
type Counter = Awaited<ReturnType<typeof counter>>;

/** The summary request's system prompt; the simulated model knows the request by its first words. */
export const SUMMARY_SYSTEM =
  'You summarise the earlier steps of an agent run so it can go on without them.' +
  ' Keep every fact the task still needs: each tool call made (tool and arguments) and what it returned that matters' +
  ' (numbers, names, paths, errors). Leave out nothing the next step may need; write plain text, no preamble.';
/** The first words of the message that replaces the summarised steps (the simulated model reads them). */
export const SUMMARY_LEAD = '[summary of earlier steps';

export type SummaryRecord = Omit<HistorySummaryEvent, 'seq' | 't' | 'runId'>;

interface Mark {
  readonly step: number;
  start: number;
}

export class HistorySummarizer {
  /** Where each step's messages start in the history (its mode's messages, its reply, its results). */
  private readonly marks: Mark[] = [];
  private summarisedThrough = 0;
  /** The summary message's index, once there is one (it sits right after the task). */
  private summaryAt: number | null = null;
  private summary = '';

  constructor(private readonly keep: number) {}

  /** Step `step` starts at `index` in the history (called before its messages are added). */
  mark(step: number, index: number): void {
    this.marks.push({ step, start: index });
  }

  /**
   * Before the request of `step` (whose own messages start at its mark): summarise the steps that left the
   * window if it is time to, replacing them in `messages`. Returns the event to record, or null.
   */
  async beforeRequest(messages: ChatMessage[], step: number, ask: Ask): Promise<SummaryRecord | null> {
    const lastOld = step - 1 - this.keep;
    const fresh = lastOld - this.summarisedThrough;
    // Once when the history grows past K, then only when K more steps have left the window.
    if (fresh < 1 || (this.summarisedThrough > 0 && fresh < this.keep)) return null;
    const from = this.marks.find((m) => m.step === this.summarisedThrough + 1);
    const next = this.marks.find((m) => m.step === lastOld + 1);
    if (!from || !next) return null;
    const replaceFrom = this.summaryAt ?? from.start;
    const replaced = messages.slice(replaceFrom, next.start);
    const fromStep = this.summarisedThrough > 0 ? 1 : from.step;
    const transcript = [
      this.summary ? `Summary so far (steps 1–${this.summarisedThrough}):\n${this.summary}\n` : '',
      `Steps ${from.step}–${lastOld}:`,
      ...messages.slice(from.start, next.start).map(transcriptLine),
    ]
      .filter(Boolean)
      .join('\n');
    const sent = performance.now();
    const result = await ask([
      { role: 'system', content: SUMMARY_SYSTEM },
      { role: 'user', content: transcript },
    ]);
    const latencyMs = Math.round(performance.now() - sent);
    const count = await counter();
    const replacedTokens = replaced.reduce((n, m) => n + messageTokens(m, count), 0);
    const base = {
      type: 'history-summary' as const,
      step,
      fromStep,
      toStep: lastOld,
      replacedMessages: replaced.length,
      replacedTokens,
      latencyMs,
    };
    if ('error' in result)
      return { ...base, replacedMessages: 0, replacedTokens: 0, text: '', usage: result.usage, error: result.error };
    if (result.text.trim() === '')
      return {
        ...base,
        replacedMessages: 0,
        replacedTokens: 0,
        text: '',
        usage: result.usage,
        ...(result.usageSource ? { usageSource: result.usageSource } : {}),
        error: 'The model returned an empty summary; the history goes on whole.',
      };
    this.summary = result.text.trim();
    const text = `${SUMMARY_LEAD} 1–${lastOld}, written by the model to save context; the last ${this.keep === 1 ? 'step follows' : `${this.keep} steps follow`} whole]\n${this.summary}`;
    messages.splice(replaceFrom, replaced.length, { role: 'user', content: text });
    const shift = 1 - replaced.length;
    for (const m of this.marks) if (m.step > lastOld) m.start += shift;
    this.summaryAt = replaceFrom;
    this.summarisedThrough = lastOld;
    return {
      ...base,
      text,
      usage: result.usage,
      ...(result.usageSource ? { usageSource: result.usageSource } : {}),
      error: null,
    };
  }
}

export type AskResult =
  | {
      readonly text: string;
      readonly usage: HistorySummaryEvent['usage'];
      readonly usageSource?: HistorySummaryEvent['usageSource'];
    }
  | { readonly error: string; readonly usage: null };
export type Ask = (messages: ChatMessage[]) => Promise<AskResult>;

/** The summary request through the run's client; any failure comes back as an error, never thrown. */
export function askWith(client: ChatClient, model: string, temperature: number | null, signal: AbortSignal): Ask {
  return async (messages) => {
    try {
      const reply = await streamChat(client, { model, messages, tools: [], temperature }, signal);
      return { text: reply.text, usage: reply.usage, usageSource: reply.usageSource };
    } catch (err) {
      if (signal.aborted) throw err;
      return {
        error: `The summary request failed (${(err as Error).message}); the history goes on whole.`,
        usage: null,
      };
    }
  };
}

/** One history message as a transcript line for the summary request. */
function transcriptLine(m: ChatMessage): string {
  const text = contentText(m.content);
  if (m.role === 'assistant') {
    const calls =
      'tool_calls' in m && m.tool_calls
        ? m.tool_calls
            .map((c) => ('function' in c ? `${c.function.name} ${c.function.arguments || '{}'}` : ''))
            .filter(Boolean)
        : [];
    return `assistant: ${[text, ...calls.map((c) => `called ${c}`)].filter(Boolean).join('; ')}`;
  }
  if (m.role === 'tool') return `result of ${m.tool_call_id}: ${text}`;
  return `${m.role}: ${text}`;
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((p: { type?: string; text?: string }) => (p.type === 'text' ? (p.text ?? '') : `[${p.type ?? 'part'}]`))
      .join('');
  return '';
}

/** A history message's prompt tokens, by the formula the simulated model and the composition count with. */
function messageTokens(m: ChatMessage, { PER_MESSAGE, PER_TOOL_CALL, tok }: Counter): number {
  let n = PER_MESSAGE + tok(m.role) + tok(contentText(m.content));
  if (m.role === 'tool') n += tok(m.tool_call_id);
  if (m.role === 'assistant' && 'tool_calls' in m && m.tool_calls) {
    for (const c of m.tool_calls)
      if ('function' in c) n += PER_TOOL_CALL + tok(c.function.name) + tok(c.function.arguments);
  }
  return n;
}
