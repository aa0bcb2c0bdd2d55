/**
 * A reply that would end the run but is no answer: cut short at a token limit, or empty. The finish reason and
 * the text decide before the mode's reading of them does, so a fragment never becomes the run's answer and an
 * empty reply never reads "answered" — nor goes back into the history, where providers refuse an empty assistant
 * message (a 400 in ReAct (text)).
 */
import type { ChatReply } from './provider/chat-client.js';
import type { Turn } from './modes/turns.js';
import { replyEnding } from '../../shared/reply-ending.js';

export interface UnfinishedReply {
  readonly status: 'truncated' | 'empty';
  readonly error: string;
}

const chars = (n: number, what: string) => `${n.toLocaleString('en-US')} character${n === 1 ? '' : 's'} of ${what}`;

/** Why the reply that ends this turn is not an answer, or null when it is one (or the run goes on). */
export function unfinishedReply(reply: ChatReply, turn: Turn): UnfinishedReply | null {
  if (turn.calls.length > 0) return null;
  const said = reply.stopReason ?? reply.finishReason;
  const field = reply.stopReason !== undefined ? 'stop_reason' : 'finish_reason';
  const reasoning = reply.reasoningText ? `, and ${chars(reply.reasoningText.length, 'reasoning')}` : '';
  const ending = replyEnding(reply);
  if (ending === 'cut-short') {
    const window = (reply.stopReason ?? '').toLowerCase() === 'model_context_window_exceeded';
    const had = reply.text.trim() ? chars(reply.text.length, 'text') : 'no text';
    return {
      status: 'truncated',
      error: window
        ? `The reply stopped because the conversation filled the model's context window (${field} "${said}"): what it held (${had}${reasoning}) is not an answer. Lower "max steps" or "truncate tool results", or use a model with a larger window.`
        : `The reply reached its token limit before it was finished (${field} "${said}"): what it held (${had}${reasoning}) is not an answer. Ask for a shorter answer, or raise the provider's output limit for the model; a reply cut short never counts as answered.`,
    };
  }
  if (ending === 'empty') {
    return {
      status: 'empty',
      error: `The model's final reply was empty (${field} "${said ?? 'none'}"): no text and no tool call${reasoning}. Some models (Gemini among them) do this at times; run again or try another model. An empty reply never counts as answered.`,
    };
  }
  return null;
}
