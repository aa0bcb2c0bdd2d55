import { describe, expect, it } from 'vitest';
import { StreamAccumulator, usageFromRaw, type RawChunk } from '../../../../electron/engine/provider/stream-accumulator.js';

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

describe('StreamAccumulator', () => {
  it('folds a first chunk carrying role, null content, tool_calls and refusal together', () => {
    const acc = new StreamAccumulator();
    acc.push({
      ...base,
      choices: [{
        index: 0,
        delta: {
          role: 'assistant', content: null, refusal: null,
          tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '' } }],
        },
        finish_reason: null,
      }],
    } as RawChunk);
    acc.push({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"path":"a.txt"}' } }] }, finish_reason: 'tool_calls' }] });
    const r = acc.result();
    expect(r.text).toBe('');
    expect(r.refusal).toBe('');
    expect(r.toolCalls).toEqual([{ id: 'call_a', name: 'read_file', arguments: '{"path":"a.txt"}' }]);
    expect(r.finishReason).toBe('tool_calls');
    expect(r.usage).toBeNull();
  });

  it('accumulates two parallel calls whose JSON is split mid-token and interleaved, then a usage-only final chunk', () => {
    const argsA = '{"timezone": "Asia/Shanghai"}';
    const argsB = '{"url": "http://127.0.0.1:8080/page?q=\\"x\\""}';
    const piecesA = splitAt(argsA, [1, 3, 2, 7, 1]);
    const piecesB = splitAt(argsB, [2, 1, 9, 4, 3, 1]);
    const chunks: RawChunk[] = [
      { choices: [{ index: 0, delta: { role: 'assistant', content: null, tool_calls: [
        { index: 0, id: 'call_0', type: 'function', function: { name: 'current_time', arguments: '' } },
      ] } }] },
      { choices: [{ index: 0, delta: { tool_calls: [
        { index: 1, id: 'call_1', type: 'function', function: { name: 'fetch_url', arguments: '' } },
      ] } }] },
    ];
    const n = Math.max(piecesA.length, piecesB.length);
    for (let i = 0; i < n; i++) {
      // Fragments of both calls arrive interleaved, sometimes in one chunk.
      const frags = [];
      if (piecesB[i]) frags.push({ index: 1, function: { arguments: piecesB[i] } });
      if (piecesA[i]) frags.push({ index: 0, function: { arguments: piecesA[i] } });
      chunks.push({ choices: [{ index: 0, delta: { tool_calls: frags } }] });
    }
    chunks.push({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] });
    chunks.push({ choices: [], usage: {
      prompt_tokens: 812, completion_tokens: 47, total_tokens: 859,
      prompt_tokens_details: { cached_tokens: 512 }, completion_tokens_details: { reasoning_tokens: 0 },
    } });
    const acc = new StreamAccumulator();
    for (const c of chunks) acc.push(c);
    const r = acc.result();
    expect(r.toolCalls.map((c) => c.id)).toEqual(['call_0', 'call_1']);
    expect(r.toolCalls.map((c) => c.name)).toEqual(['current_time', 'fetch_url']);
    expect(JSON.parse(r.toolCalls[0].arguments)).toEqual({ timezone: 'Asia/Shanghai' });
    expect(JSON.parse(r.toolCalls[1].arguments)).toEqual({ url: 'http://127.0.0.1:8080/page?q="x"' });
    expect(r.usage).toEqual({ prompt: 812, completion: 47, cached: 512, reasoning: 0, total: 859 });
    expect(r.finishReason).toBe('tool_calls');
  });

  it('collects text and DeepSeek reasoning_content, and reads prompt_cache_hit_tokens as cached', () => {
    const acc = new StreamAccumulator();
    acc.push({ choices: [{ index: 0, delta: { role: 'assistant', reasoning_content: 'Think ' } }] });
    acc.push({ choices: [{ index: 0, delta: { reasoning_content: 'hard.', content: null } }] });
    acc.push({ choices: [{ index: 0, delta: { content: 'The answer ' } }] });
    acc.push({ choices: [{ index: 0, delta: { content: 'is 42.' }, finish_reason: 'stop' }] });
    acc.push({ choices: [], usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120, prompt_cache_hit_tokens: 64, prompt_cache_miss_tokens: 36 } });
    const r = acc.result();
    expect(r.text).toBe('The answer is 42.');
    expect(r.reasoningText).toBe('Think hard.');
    expect(r.toolCalls).toEqual([]);
    expect(r.usage).toEqual({ prompt: 100, completion: 20, cached: 64, total: 120 });
  });

  it('keeps a name sent once, split, or repeated whole in every fragment', () => {
    const acc = new StreamAccumulator();
    acc.push({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'a', function: { name: 'read_', arguments: '{' } }] } }] });
    acc.push({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { name: 'file', arguments: '}' } }] } }] });
    acc.push({ choices: [{ index: 0, delta: { tool_calls: [{ index: 1, id: 'b', function: { name: 'list_dir', arguments: '{}' } }] } }] });
    acc.push({ choices: [{ index: 0, delta: { tool_calls: [{ index: 1, function: { name: 'list_dir', arguments: '' } }] } }] });
    expect(acc.result().toolCalls.map((c) => c.name)).toEqual(['read_file', 'list_dir']);
  });

  it('reports no usage rather than inventing zeros when the provider sends none or a partial one', () => {
    expect(usageFromRaw(undefined)).toBeNull();
    expect(usageFromRaw({ prompt_tokens: 5 })).toBeNull();
    expect(usageFromRaw({ prompt_tokens: 5, completion_tokens: 2 })).toEqual({ prompt: 5, completion: 2 });
  });
});
