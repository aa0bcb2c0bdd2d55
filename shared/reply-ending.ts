/**
 * How a reply that calls no tool ended, read the same way by the engine (which ends the run on it,
 * electron/engine/final-reply.ts), the terminal's step lines and the app's step cards: cut short at a limit, empty,
 * or a reply that can be an answer.
 */

/** Finish reasons of a reply stopped by a limit: OpenAI's, and Anthropic's as mapped and as sent. */
export const CUT_SHORT_REASONS: ReadonlySet<string> = new Set(['length', 'max_tokens', 'model_context_window_exceeded']);

export type ReplyEnding = 'cut-short' | 'empty' | 'reply';

export interface EndingInput {
  readonly finishReason: string | null;
  readonly stopReason?: string | null;
  /** The reply's text as shown (thinking left out). */
  readonly text: string;
  readonly refusal?: string;
}

export function replyEnding(r: EndingInput): ReplyEnding {
  const cut = [r.stopReason, r.finishReason].some((x) => typeof x === 'string' && CUT_SHORT_REASONS.has(x.toLowerCase()));
  if (cut) return 'cut-short';
  if (r.text.trim() === '' && !r.refusal) return 'empty';
  return 'reply';
}
