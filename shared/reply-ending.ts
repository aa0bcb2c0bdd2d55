/**
 * How a reply ended, read the same way by the engine (which ends the run on it: refusalMessage in
 * electron/engine/loop.ts, electron/engine/final-reply.ts), the terminal's step lines and the app's step cards:
 * refused or filtered by the provider, cut short at a limit, empty, or a reply that can be an answer.
 */

/** Finish reasons of a reply stopped by a limit: OpenAI's, and Anthropic's as mapped and as sent. */
export const CUT_SHORT_REASONS: ReadonlySet<string> = new Set([
  'length',
  'max_tokens',
  'model_context_window_exceeded',
]);

/**
 * Finish reasons of a reply the provider refused or filtered, lower-cased: OpenAI and Azure `content_filter`,
 * Anthropic `refusal`, and Gemini's own reasons, which its OpenAI-compatible endpoint passes on as they are
 * (SAFETY, RECITATION, BLOCKLIST, PROHIBITED_CONTENT, SPII and their IMAGE_ kin).
 */
export const FILTER_REASONS: ReadonlySet<string> = new Set([
  'content_filter',
  'refusal',
  'safety',
  'recitation',
  'prohibited_content',
  'blocklist',
  'spii',
  'image_safety',
  'image_prohibited_content',
  'image_recitation',
]);

export type ReplyEnding = 'filtered' | 'cut-short' | 'empty' | 'reply';

export interface EndingInput {
  readonly finishReason: string | null;
  readonly stopReason?: string | null;
  /** The reply's text as shown (thinking left out). */
  readonly text: string;
  readonly refusal?: string;
}

const said = (r: EndingInput, reasons: ReadonlySet<string>) =>
  [r.stopReason, r.finishReason].some((x) => typeof x === 'string' && reasons.has(x.toLowerCase()));

/** Whether the provider refused or filtered the reply: by its finish reason, or by refusal text (OpenAI `delta.refusal`). */
export const isFiltered = (r: EndingInput): boolean => said(r, FILTER_REASONS) || Boolean(r.refusal);

/** The finish reason decides before the text does, a filter before a limit: calls of a filtered reply never run either. */
export function replyEnding(r: EndingInput): ReplyEnding {
  if (isFiltered(r)) return 'filtered';
  if (said(r, CUT_SHORT_REASONS)) return 'cut-short';
  if (r.text.trim() === '') return 'empty';
  return 'reply';
}
