/** Reasoning inside the content: <think> blocks as servers leave them, and content-part lists folded across a stream. */
import { describe, expect, it } from 'vitest';
import { ContentParts, resendContent, splitThinkTags } from '../../../../electron/engine/provider/reply-content.js';
import { StreamAccumulator } from '../../../../electron/engine/provider/stream-accumulator.js';

describe('splitThinkTags', () => {
  it('takes leading, inner and unclosed blocks out of the answer, and keeps what was written for the round trip', () => {
    expect(splitThinkTags('no tags here')).toEqual({ shown: 'no tags here', reasoning: '', tagged: '' });
    // MiniMax M2: the block first, a blank line, the answer.
    expect(splitThinkTags('<think>\nplan it\n</think>\n\nThe answer.')).toEqual({
      shown: 'The answer.',
      reasoning: 'plan it',
      tagged: '<think>\nplan it\n</think>\n\n',
    });
    // DeepSeek R1 / Qwen3 without a reasoning parser: the template opened the block, only its end is in the reply.
    expect(splitThinkTags('weighing it up\n</think>\n\n42')).toEqual({
      shown: '42',
      reasoning: 'weighing it up',
      tagged: 'weighing it up\n</think>\n\n',
    });
    // Two blocks around text; case of the tag as sent.
    const two = splitThinkTags('<THINK>a</THINK>first <think>b</think>second');
    expect(two.shown).toBe('first second');
    expect(two.reasoning).toBe('a\n\nb');
    // Cut off while thinking: nothing of it is an answer.
    expect(splitThinkTags('<think>still going and then the limit')).toEqual({
      shown: '',
      reasoning: 'still going and then the limit',
      tagged: '<think>still going and then the limit',
    });
  });

  it("sends a text mode's kept text back after the blocks as written, or among the parts", () => {
    expect(
      resendContent('<think>p</think>\n\nThought: t\nAction: x', '<think>p</think>\n\n', 'Thought: t\nAction: x'),
    ).toBe('<think>p</think>\n\nThought: t\nAction: x');
    const parts = [
      { type: 'thinking', thinking: [{ type: 'text', text: 'p' }] },
      { type: 'text', text: 'Thought: t\nObservation: forged' },
    ];
    expect(resendContent(parts, '', 'Thought: t\n')).toEqual([parts[0], { type: 'text', text: 'Thought: t\n' }]);
    expect(resendContent(parts, '', '')).toEqual([parts[0]]);
  });
});

describe('content parts', () => {
  it('joins fragments of one kind into one part, in the order they came, mixed with plain strings', () => {
    const c = new ContentParts();
    c.pushText('');
    c.pushParts([{ type: 'thinking', thinking: [{ type: 'text', text: 'one' }] }]);
    c.pushParts([
      { type: 'thinking', thinking: [{ type: 'text', text: ' two' }] },
      { type: 'text', text: 'ans' },
    ]);
    c.pushText('wer');
    c.pushParts([
      { type: 'reference', reference_ids: [1] },
      { type: 'text', text: '!' },
    ]);
    expect(c.used).toBe(true);
    expect(c.text).toBe('answer!');
    expect(c.thinking).toBe('one two');
    expect(c.list()).toEqual([
      { type: 'thinking', thinking: [{ type: 'text', text: 'one two' }] },
      { type: 'text', text: 'answer' },
      { type: 'reference', reference_ids: [1] },
      { type: 'text', text: '!' },
    ]);
  });

  it('a non-streamed Magistral completion: thinking recorded, the text the answer, the list sent back', () => {
    const acc = new StreamAccumulator();
    acc.pushCompletion({
      choices: [
        {
          index: 0,
          finish_reason: 'stop',
          message: {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: [{ type: 'text', text: 'Hmm.' }] },
              { type: 'text', text: '42' },
            ],
          },
        },
      ],
    });
    const r = acc.result();
    expect([r.text, r.reasoningText]).toEqual(['42', 'Hmm.']);
    expect(r.message.content).toEqual([
      { type: 'thinking', thinking: [{ type: 'text', text: 'Hmm.' }] },
      { type: 'text', text: '42' },
    ]);
  });

  it("Together's token_id never reaches the message; other unknown fields still do", () => {
    const acc = new StreamAccumulator();
    acc.push({
      choices: [
        {
          index: 0,
          delta: {
            token_id: 30,
            role: 'assistant',
            content: 'A',
            extra_content: { google: { thought_signature: 'sig' } },
          },
        },
      ],
    });
    acc.push({ choices: [{ index: 0, delta: { token_id: 128009, content: 'B' }, finish_reason: 'eos' }] });
    const m = acc.result().message;
    expect(m).not.toHaveProperty('token_id');
    expect(m).toMatchObject({ content: 'AB', extra_content: { google: { thought_signature: 'sig' } } });
  });
});
