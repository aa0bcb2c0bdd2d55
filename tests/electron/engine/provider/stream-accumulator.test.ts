import { describe, expect, it } from 'vitest';
import {
  StreamAccumulator,
  streamErrorOf,
  type RawChunk,
} from '../../../../electron/engine/provider/stream-accumulator.js';

/** Split a string into pieces of the given sizes (the rest goes in the last piece). */
function splitAt(s: string, sizes: number[]): string[] {
  const out: string[] = [];
  let i = 0;
  for (const n of sizes) {
    out.push(s.slice(i, i + n));
    i += n;
  }
  out.push(s.slice(i));
  return out.filter((p) => p.length > 0);
}

const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm' };
const delta = (d: Record<string, unknown>, finish: string | null = null): RawChunk => ({
  ...base,
  choices: [{ index: 0, delta: d, finish_reason: finish }],
});

describe('StreamAccumulator', () => {
  it('folds a first chunk carrying role, null content, tool_calls and refusal together', () => {
    const acc = new StreamAccumulator();
    acc.push(
      delta({
        role: 'assistant',
        content: null,
        refusal: null,
        tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '' } }],
      }),
    );
    acc.push(delta({ tool_calls: [{ index: 0, function: { arguments: '{"path":"a.txt"}' } }] }, 'tool_calls'));
    const r = acc.result();
    expect(r.text).toBe('');
    expect(r.refusal).toBe('');
    expect(r.toolCalls.map(({ id, name, arguments: a }) => ({ id, name, arguments: a }))).toEqual([
      { id: 'call_a', name: 'read_file', arguments: '{"path":"a.txt"}' },
    ]);
    expect(r.finishReason).toBe('tool_calls');
    expect(r.usage).toBeNull();
    expect(r.message).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } }],
    });
  });

  it('accumulates two parallel calls whose JSON is split mid-token and interleaved, then a usage-only final chunk', () => {
    const argsA = '{"timezone": "Asia/Shanghai"}';
    const argsB = '{"url": "http://127.0.0.1:8080/page?q=\\"x\\""}';
    const piecesA = splitAt(argsA, [1, 3, 2, 7, 1]);
    const piecesB = splitAt(argsB, [2, 1, 9, 4, 3, 1]);
    const chunks: RawChunk[] = [
      delta({
        role: 'assistant',
        content: null,
        tool_calls: [{ index: 0, id: 'call_0', type: 'function', function: { name: 'current_time', arguments: '' } }],
      }),
      delta({
        tool_calls: [{ index: 1, id: 'call_1', type: 'function', function: { name: 'fetch_url', arguments: '' } }],
      }),
    ];
    for (let i = 0; i < Math.max(piecesA.length, piecesB.length); i++) {
      // Fragments of both calls arrive interleaved, sometimes in one chunk.
      const frags = [];
      if (piecesB[i]) frags.push({ index: 1, function: { arguments: piecesB[i] } });
      if (piecesA[i]) frags.push({ index: 0, function: { arguments: piecesA[i] } });
      chunks.push(delta({ tool_calls: frags }));
    }
    chunks.push(delta({}, 'tool_calls'));
    chunks.push({
      choices: [],
      usage: {
        prompt_tokens: 812,
        completion_tokens: 47,
        total_tokens: 859,
        prompt_tokens_details: { cached_tokens: 512 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
    });
    const acc = new StreamAccumulator();
    for (const c of chunks) acc.push(c);
    const r = acc.result();
    expect(r.toolCalls.map((c) => c.id)).toEqual(['call_0', 'call_1']);
    expect(r.toolCalls.map((c) => c.name)).toEqual(['current_time', 'fetch_url']);
    expect(JSON.parse(r.toolCalls[0].arguments)).toEqual({ timezone: 'Asia/Shanghai' });
    expect(JSON.parse(r.toolCalls[1].arguments)).toEqual({ url: 'http://127.0.0.1:8080/page?q="x"' });
    expect(r.usage).toEqual({ prompt: 812, completion: 47, cached: 512, reasoning: 0, total: 859 });
    expect(r.chunks).toBe(chunks.length);
  });

  it('keeps DeepSeek reasoning_content and OpenRouter reasoning under their own names for the round trip', () => {
    const ds = new StreamAccumulator();
    ds.push(delta({ role: 'assistant', reasoning_content: 'Think ' }));
    ds.push(delta({ reasoning_content: 'hard.', content: null }));
    ds.push(delta({ content: 'The answer is 42.' }, 'stop'));
    const d = ds.result();
    expect(d.reasoningText).toBe('Think hard.');
    expect(d.message).toEqual({ role: 'assistant', content: 'The answer is 42.', reasoning_content: 'Think hard.' });

    const or = new StreamAccumulator();
    or.push(
      delta({
        reasoning: 'Plan',
        reasoning_details: [{ type: 'reasoning.text', text: 'Plan', format: 'f', index: 0 }],
      }),
    );
    or.push(
      delta({
        reasoning: ' it.',
        reasoning_details: [{ type: 'reasoning.text', text: ' it.', format: 'f', index: 0 }],
      }),
    );
    or.push(
      delta({
        reasoning_details: [
          { type: 'reasoning.text', signature: 'SIG', format: 'f', index: 0 },
          { type: 'reasoning.encrypted', data: 'ENC', index: 1 },
        ],
      }),
    );
    or.push(delta({ content: 'Done.' }, 'stop'));
    const o = or.result();
    expect(o.reasoningText).toBe('Plan it.');
    expect(o.message.reasoning).toBe('Plan it.');
    expect(o.message).not.toHaveProperty('reasoning_content');
    expect(o.message.reasoning_details).toEqual([
      { type: 'reasoning.text', text: 'Plan it.', format: 'f', index: 0, signature: 'SIG' },
      { type: 'reasoning.encrypted', data: 'ENC', index: 1 },
    ]);
  });

  it('keeps fields it does not know, on the message and on each call, verbatim', () => {
    const acc = new StreamAccumulator();
    acc.push(delta({ role: 'assistant', content: 'Hi', provider_specific_fields: { cache: 'x' }, annotations: [] }));
    acc.push(
      delta(
        {
          tool_calls: [
            {
              id: 'c1',
              type: 'function',
              function: { name: 'read_file', arguments: '{}', strict: true },
              extra_content: { google: { thought_signature: 'S1' } },
            },
          ],
        },
        'stop',
      ),
    );
    const m = acc.result().message;
    expect(m.provider_specific_fields).toEqual({ cache: 'x' });
    expect(m).not.toHaveProperty('annotations'); // empty: nothing to send back
    expect(m.tool_calls).toEqual([
      {
        id: 'c1',
        type: 'function',
        function: { name: 'read_file', arguments: '{}', strict: true },
        extra_content: { google: { thought_signature: 'S1' } },
      },
    ]);
  });

  it('takes the last usage object (vLLM repeats it on every chunk) and reads Groq x_groq.usage', () => {
    const acc = new StreamAccumulator();
    acc.push({ ...delta({ content: 'a' }), usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 } });
    acc.push({
      ...delta({ content: 'b' }, 'stop'),
      usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
    });
    expect(acc.result().usage).toEqual({ prompt: 10, completion: 2, total: 12 });
    const groq = new StreamAccumulator();
    groq.push({
      ...delta({}, 'stop'),
      x_groq: { id: 'req_1', usage: { prompt_tokens: 201, completion_tokens: 58, total_tokens: 259, queue_time: 0.2 } },
    });
    expect(groq.result().usage).toEqual({ prompt: 201, completion: 58, total: 259 });
  });

  it('keeps the last finish reason: Gemini gateways send "stop" on chunks before the end', () => {
    const acc = new StreamAccumulator();
    acc.push(delta({ content: 'Hel' }, 'stop'));
    acc.push(delta({ content: 'lo' }, 'length'));
    expect(acc.result()).toMatchObject({ text: 'Hello', finishReason: 'length' });
  });

  it('folds a non-streamed completion, message and usage', () => {
    const acc = new StreamAccumulator();
    acc.pushCompletion({
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'j1', type: 'function', function: { name: 'list_dir', arguments: '{}' } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 },
    });
    const r = acc.result();
    expect(r.toolCalls.map((c) => c.id)).toEqual(['j1']);
    expect(r.usage).toEqual({ prompt: 9, completion: 3, total: 12 });
    expect(r.finishReason).toBe('tool_calls');
  });

  it('ignores choices other than the first', () => {
    const acc = new StreamAccumulator();
    acc.push({
      choices: [
        { index: 1, delta: { content: 'other' } },
        { index: 0, delta: { content: 'ours' } },
      ],
    });
    expect(acc.result().text).toBe('ours');
  });
});

describe('streamErrorOf', () => {
  it('recognises OpenAI, vLLM and OpenRouter errors inside a stream, and nothing else', () => {
    expect(streamErrorOf({ error: { message: 'The server had an error', type: 'server_error' } })).toEqual({
      message: 'The server had an error',
      code: null,
      codes: { code: null, type: 'server_error' },
    });
    expect(streamErrorOf({ error: { message: 'Too many', code: 429 } })).toEqual({
      message: 'Too many',
      code: 429,
      codes: { code: null, type: null },
    });
    // A status written as text is the status; a code that is a name is kept as the error's code (LiteLLM, Groq).
    expect(
      streamErrorOf({ error: { message: 'Rate limit reached', type: 'None', param: 'None', code: '429' } }),
    ).toEqual({ message: 'Rate limit reached', code: 429, codes: { code: null, type: null } });
    expect(
      streamErrorOf({ error: { message: 'quota', type: 'insufficient_quota', code: 'insufficient_quota' } })?.codes,
    ).toEqual({ code: 'insufficient_quota', type: 'insufficient_quota' });
    expect(streamErrorOf({ object: 'error', message: 'Input validation error', code: 400 })).toEqual({
      message: 'Input validation error',
      code: 400,
    });
    expect(
      streamErrorOf({
        choices: [{ index: 0, delta: {}, finish_reason: 'error', native_finish_reason: 'Provider disconnected' }],
      })?.message,
    ).toMatch(/finish_reason "error" \(Provider disconnected\)/);
    expect(streamErrorOf(delta({ content: 'fine' }, 'stop'))).toBeNull();
    expect(streamErrorOf({ choices: [], usage: { prompt_tokens: 1, completion_tokens: 1 } })).toBeNull();
  });
});
