import { describe, expect, it } from 'vitest';
import { isFiltered, replyEnding } from '../../shared/reply-ending.js';

const r = (
  finishReason: string | null,
  text = 'a.txt holds "alpha"',
  extra: { stopReason?: string; refusal?: string } = {},
) => ({ finishReason, text, ...extra });

describe('how a reply ended', () => {
  it('reads a filter or refusal first, in any case the provider wrote it: its text is no answer', () => {
    for (const reason of [
      'content_filter',
      'SAFETY',
      'RECITATION',
      'BLOCKLIST',
      'PROHIBITED_CONTENT',
      'SPII',
      'IMAGE_SAFETY',
      'safety',
    ])
      expect(replyEnding(r(reason)), reason).toBe('filtered');
    // Anthropic's refusal as sent beside the mapped finish reason; an OpenAI refusal delta with finish "stop".
    expect(replyEnding(r('content_filter', '', { stopReason: 'refusal' }))).toBe('filtered');
    expect(replyEnding(r('stop', "I can't help with that.", { refusal: "I can't help with that." }))).toBe('filtered');
    expect(isFiltered(r('stop', '', { refusal: '' }))).toBe(false);
  });

  it('then a limit, then emptiness; anything else can be an answer', () => {
    for (const reason of ['length', 'max_tokens', 'MAX_TOKENS']) expect(replyEnding(r(reason))).toBe('cut-short');
    expect(replyEnding(r('stop', '', { stopReason: 'model_context_window_exceeded' }))).toBe('cut-short');
    expect(replyEnding(r('stop', ' \n'))).toBe('empty');
    expect(replyEnding(r(null, ''))).toBe('empty');
    for (const reason of ['stop', 'eos', 'end_turn', 'tool_calls', null]) expect(replyEnding(r(reason))).toBe('reply');
  });
});
