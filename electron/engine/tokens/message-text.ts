/**
 * The text of a chat message's content. Apart from the counter (count-tokens.ts) so that what only reads
 * messages (the simulated model's policies, which the built-in tasks carry into every run) does not load
 * the tokenizer with it.
 */

/** A message's content as the wire carries it: a string, or parts of which only `text` counts. */
export type MessageContent = string | readonly { readonly type: string; readonly text?: string }[] | null | undefined;

/** The text of a message's content: a string, or the concatenated `text` of its parts. */
export function textOf(content: MessageContent): string {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  return content.map((p) => (typeof p.text === 'string' ? p.text : '')).join('');
}
