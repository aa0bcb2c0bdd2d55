import { describe, expect, it } from 'vitest';
import { estimateUsage, rawUsageOf, usageFromRaw } from '../../../../electron/engine/provider/usage.js';
import { countCompletionTokens, countPromptTokens, tok } from '../../../../electron/engine/tokens/count-tokens.js';

describe('usageFromRaw', () => {
  it('maps OpenAI usage with cached and reasoning details, and keeps the provider total', () => {
    expect(
      usageFromRaw({
        prompt_tokens: 812,
        completion_tokens: 47,
        total_tokens: 859,
        prompt_tokens_details: { cached_tokens: 512 },
        completion_tokens_details: { reasoning_tokens: 0 },
      }),
    ).toEqual({ prompt: 812, completion: 47, cached: 512, reasoning: 0, total: 859 });
  });

  it('keeps xAI reasoning outside completion (total above prompt + completion) and converts its cost ticks', () => {
    expect(
      usageFromRaw({
        prompt_tokens: 432,
        completion_tokens: 68,
        total_tokens: 636,
        completion_tokens_details: { reasoning_tokens: 136 },
        cost_in_usd_ticks: 1654500,
      }),
    ).toEqual({ prompt: 432, completion: 68, reasoning: 136, total: 636, cost: 0.00016545 });
  });

  it('reads DeepSeek cache hits, OpenRouter cache writes and cost, and Anthropic-style cache writes', () => {
    expect(
      usageFromRaw({
        prompt_tokens: 100,
        completion_tokens: 20,
        prompt_cache_hit_tokens: 64,
        prompt_cache_miss_tokens: 36,
      }),
    ).toEqual({ prompt: 100, completion: 20, cached: 64 });
    expect(
      usageFromRaw({
        prompt_tokens: 685,
        completion_tokens: 120,
        cost: 0.001285,
        prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 600 },
      }),
    ).toEqual({ prompt: 685, completion: 120, cached: 0, cacheWrite: 600, cost: 0.001285 });
    expect(usageFromRaw({ prompt_tokens: 50, completion_tokens: 5, cache_creation_input_tokens: 40 })).toEqual({
      prompt: 50,
      completion: 5,
      cacheWrite: 40,
    });
  });

  it("adds the provider's charge to OpenRouter's fee under BYOK, reads Perplexity's cost object, and no more", () => {
    // tailcallhq/forgecode#1641: BYOK with the fee waived (cost 0), the provider's charge in cost_details.
    expect(
      usageFromRaw({
        prompt_tokens: 9171,
        completion_tokens: 113,
        cost: 0,
        is_byok: true,
        cost_details: {
          upstream_inference_cost: 0.0360795,
          upstream_inference_prompt_cost: 0.0343845,
          upstream_inference_completions_cost: 0.001695,
        },
      } as never)?.cost,
    ).toBe(0.0360795);
    // BYOK with OpenRouter's 5 % fee: fee + upstream.
    expect(
      usageFromRaw({
        prompt_tokens: 10,
        completion_tokens: 2,
        cost: 0.0001,
        is_byok: true,
        cost_details: { upstream_inference_cost: 0.002 },
      })?.cost,
    ).toBe(0.0021);
    // Not BYOK: `cost` already holds the provider's charge; the upstream figure is not added twice.
    expect(
      usageFromRaw({
        prompt_tokens: 10,
        completion_tokens: 2,
        cost: 0.0021,
        is_byok: false,
        cost_details: { upstream_inference_cost: 0.002 },
      })?.cost,
    ).toBe(0.0021);
    expect(
      usageFromRaw({
        prompt_tokens: 10,
        completion_tokens: 2,
        cost: 0.0021,
        cost_details: { upstream_inference_cost: null },
      })?.cost,
    ).toBe(0.0021);
    // Perplexity (Sonar response contract): an object whose total_cost is the whole charge.
    expect(
      usageFromRaw({
        prompt_tokens: 9,
        completion_tokens: 163,
        total_tokens: 172,
        search_context_size: 'low',
        cost: { input_tokens_cost: 0, output_tokens_cost: 0, request_cost: 0.005, total_cost: 0.005 },
      } as never)?.cost,
    ).toBe(0.005);
    // A cost object without a usable total is no figure: the step is priced from its tokens.
    expect(
      usageFromRaw({ prompt_tokens: 9, completion_tokens: 1, cost: { request_cost: 0.005 } })?.cost,
    ).toBeUndefined();
    expect(
      usageFromRaw({ prompt_tokens: 9, completion_tokens: 1, cost: { total_cost: 'lots' } })?.cost,
    ).toBeUndefined();
  });

  it('reports nothing rather than inventing zeros: missing, partial, non-numeric or all-zero usage', () => {
    expect(usageFromRaw(undefined)).toBeNull();
    expect(usageFromRaw({ prompt_tokens: 5 })).toBeNull();
    expect(usageFromRaw({ prompt_tokens: 'five', completion_tokens: 2 })).toBeNull();
    expect(usageFromRaw({ prompt_tokens: '-5', completion_tokens: 2 })).toBeNull();
    expect(usageFromRaw({ prompt_tokens: {}, completion_tokens: 2 })).toBeNull();
    expect(usageFromRaw({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 })).toBeNull();
    expect(usageFromRaw({ prompt_tokens: 5, completion_tokens: 2 })).toEqual({ prompt: 5, completion: 2 });
  });

  it('reads counts a gateway sent as numeric strings (the wire said them), and Moonshot cache hits at the top level', () => {
    expect(
      usageFromRaw({
        prompt_tokens: '1336',
        completion_tokens: ' 31 ',
        total_tokens: '1367',
        prompt_tokens_details: { cached_tokens: '1280' },
      }),
    ).toEqual({ prompt: 1336, completion: 31, total: 1367, cached: 1280 });
    expect(usageFromRaw({ prompt_tokens: 19, completion_tokens: 21, total_tokens: 40, cached_tokens: 10 })).toEqual({
      prompt: 19,
      completion: 21,
      total: 40,
      cached: 10,
    });
    // The nested OpenAI figure wins when both are sent.
    expect(
      usageFromRaw({
        prompt_tokens: 19,
        completion_tokens: 21,
        cached_tokens: 10,
        prompt_tokens_details: { cached_tokens: 12 },
      })?.cached,
    ).toBe(12);
  });

  it('finds usage inside the first choice (Moonshot / Kimi native API), never in another choice', () => {
    const u = { prompt_tokens: 19, completion_tokens: 13, total_tokens: 32 };
    expect(rawUsageOf({ choices: [{ index: 0, delta: {}, finish_reason: 'stop', usage: u }] })).toEqual(u);
    expect(rawUsageOf({ choices: [{ index: 1, delta: {}, usage: u }] })).toBeNull();
    // Top-level usage wins over a choice's.
    expect(
      rawUsageOf({ usage: { prompt_tokens: 1, completion_tokens: 1 }, choices: [{ index: 0, usage: u }] }),
    ).toEqual({ prompt_tokens: 1, completion_tokens: 1 });
  });

  it('finds usage at the top level or in Groq x_groq.usage', () => {
    expect(rawUsageOf({ usage: { prompt_tokens: 1, completion_tokens: 1 } })).toEqual({
      prompt_tokens: 1,
      completion_tokens: 1,
    });
    expect(rawUsageOf({ x_groq: { id: 'r', usage: { prompt_tokens: 2, completion_tokens: 3 } } })).toEqual({
      prompt_tokens: 2,
      completion_tokens: 3,
    });
    expect(rawUsageOf({ x_groq: { id: 'r' } })).toBeNull();
  });
});

describe('estimateUsage', () => {
  it('counts the exact request and reply with the same counter as the simulated model', async () => {
    const messages = [
      { role: 'system', content: 'You are a careful agent.' },
      { role: 'user', content: 'Read a.txt' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } }],
        reasoning_content: 'I will read it.',
      },
      { role: 'tool', tool_call_id: 'c1', content: 'alpha' },
    ];
    const tools = [
      { type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: { type: 'object' } } },
    ];
    const u = await estimateUsage({ messages, tools, text: 'It says alpha.', reasoningText: 'Short.', toolCalls: [] });
    expect(u.prompt).toBe(countPromptTokens(messages, tools));
    expect(u.completion).toBe(countCompletionTokens('It says alpha.', [], 'Short.'));
    expect(u.reasoning).toBe(tok('Short.'));
    // The reasoning sent back and the tools are part of the prompt.
    expect(u.prompt).toBeGreaterThan(
      countPromptTokens(
        messages.map((m) => ({ ...m, reasoning_content: undefined })),
        [],
      ),
    );
  });

  it('counts tool calls of the reply and leaves reasoning out when there is none', async () => {
    const calls = [
      { name: 'read_file', arguments: '{"path":"a.txt"}' },
      { name: 'read_file', arguments: '{"path":"b.txt"}' },
    ];
    const u = await estimateUsage({
      messages: [{ role: 'user', content: 'x' }],
      tools: [],
      text: '',
      reasoningText: '',
      toolCalls: calls,
    });
    expect(u.completion).toBe(countCompletionTokens('', calls));
    expect(u).not.toHaveProperty('reasoning');
  });
});
