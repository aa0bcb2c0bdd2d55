/**
 * Recorded reply shapes of real OpenAI-compatible providers, rebuilt as replay scripts. Each successful shape is
 * a two-request conversation: the model reads a.txt and b.txt with two parallel `read_file` calls (in that
 * provider's wire format), then answers in text. The source of every shape is noted beside it; ids, token
 * figures and signatures are kept in the providers' formats. What each shape should be recorded as is in
 * `expect`, so the same table drives the tests and the before/after report.
 */
import type { Usage } from '../../shared/step-event.js';
import { jsonReply, sse, type BodyPart, type RecordedRequest, type ReplayReply } from './replay-server.js';

/** The workspace every shape's run reads. */
export const WORKSPACE_FILES: Record<string, string> = { 'a.txt': 'alpha\n', 'b.txt': 'beta\nbeta\n' };
export const TASK = 'Read a.txt and b.txt and say what each one holds.';
export const ANSWER = 'a.txt holds "alpha"; b.txt holds "beta" twice.';

export interface ExpectedCall {
  readonly id: string | RegExp;
  readonly name: string;
  readonly arguments: string;
}

/** A step's usage as Parallax should record it: the provider's figures, or 'estimated' when it sent none. */
export type ExpectedUsage = Usage | 'estimated';

export interface WireShape {
  readonly name: string;
  /** Where the shape comes from (recorded stream, provider docs, issue with a capture). */
  readonly source: string;
  readonly replies: readonly ReplayReply[];
  readonly expect: {
    readonly calls: readonly ExpectedCall[];
    /** One entry per model response. */
    readonly usage: readonly ExpectedUsage[];
    readonly reasoningText?: string;
    /** Checks on the second request (what went back to the provider); returns problems, empty when fine. */
    readonly roundTrip?: (second: RecordedRequest) => string[];
  };
}

export const created = 1773345615;
export const chunk = (
  id: string,
  model: string,
  delta: Record<string, unknown>,
  finish: string | null = null,
  extra: Record<string, unknown> = {},
) => ({
  id,
  object: 'chat.completion.chunk',
  created,
  model,
  choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  ...extra,
});
export const usageChunk = (
  id: string,
  model: string,
  usage: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) => ({
  id,
  object: 'chat.completion.chunk',
  created,
  model,
  choices: [],
  usage,
  ...extra,
});
/** The answer split in three text deltas. */
export const answerDeltas = (id: string, model: string, extra: Record<string, unknown> = {}) =>
  [ANSWER.slice(0, 9), ANSWER.slice(9, 30), ANSWER.slice(30)].map((t, i) =>
    chunk(id, model, i === 0 ? { role: 'assistant', content: t } : { content: t }, null, extra),
  );

const A = '{"path": "a.txt"}';
const B = '{"path": "b.txt"}';
const twoReads = (idA: string | RegExp, idB: string | RegExp): ExpectedCall[] => [
  { id: idA, name: 'read_file', arguments: A },
  { id: idB, name: 'read_file', arguments: B },
];

/** The assistant message of the second request (the first reply as sent back). */
export function sentAssistant(second: RecordedRequest): Record<string, unknown> | undefined {
  const messages = (second.body?.messages ?? []) as Record<string, unknown>[];
  return messages.find((m) => m.role === 'assistant');
}

function expectEqual(label: string, actual: unknown, expected: unknown): string[] {
  return JSON.stringify(actual) === JSON.stringify(expected)
    ? []
    : [`${label}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
}

// OpenAI: openai-python test fixture .inline-snapshot/external/f82268f2fefd…bin (gpt-4o, two parallel tools):
// index-keyed fragments, id/name once, arguments split mid-token; with stream_options.include_usage the last
// chunk has empty choices and the usage (cached and reasoning details as in OpenAI's chat completion object).
const openai: WireShape = (() => {
  const id = 'chatcmpl-ABfwAwrNePHUgBBezonVC6MX3zd63';
  const m = 'gpt-4o-2024-08-06';
  const frag = (index: number, args: string) =>
    chunk(id, m, { tool_calls: [{ index, function: { arguments: args } }] });
  return {
    name: 'openai',
    source: 'openai-python tests: .inline-snapshot/external/f82268f2fefd…bin; include_usage final chunk',
    replies: [
      {
        body: sse([
          chunk(id, m, { role: 'assistant', content: null }),
          chunk(id, m, {
            tool_calls: [
              {
                index: 0,
                id: 'call_JMW1whyEaYG438VE1OIflxA2',
                type: 'function',
                function: { name: 'read_file', arguments: '' },
              },
            ],
          }),
          frag(0, '{"pa'),
          frag(0, 'th": "a'),
          frag(0, '.txt"}'),
          chunk(id, m, {
            tool_calls: [
              {
                index: 1,
                id: 'call_DNYTawLBoN8fj3KN6qU9N1Ou',
                type: 'function',
                function: { name: 'read_file', arguments: '' },
              },
            ],
          }),
          frag(1, '{"path"'),
          frag(1, ': "b.t'),
          frag(1, 'xt"}'),
          chunk(id, m, {}, 'tool_calls'),
          usageChunk(id, m, {
            prompt_tokens: 812,
            completion_tokens: 47,
            total_tokens: 859,
            prompt_tokens_details: { cached_tokens: 512, audio_tokens: 0 },
            completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
          }),
        ]),
      },
      {
        body: sse([
          ...answerDeltas(id, m),
          chunk(id, m, {}, 'stop'),
          usageChunk(id, m, {
            prompt_tokens: 930,
            completion_tokens: 14,
            total_tokens: 944,
            prompt_tokens_details: { cached_tokens: 768 },
          }),
        ]),
      },
    ],
    expect: {
      calls: twoReads('call_JMW1whyEaYG438VE1OIflxA2', 'call_DNYTawLBoN8fj3KN6qU9N1Ou'),
      usage: [
        { prompt: 812, completion: 47, cached: 512, reasoning: 0, total: 859 },
        { prompt: 930, completion: 14, cached: 768, total: 944 },
      ],
    },
  };
})();

// Gemini's OpenAI endpoint: captures in noho/dayu-agent#45 (tool calls without `index`, short ids, the
// signature in extra_content.google.thought_signature) and open-webui/computer#224 (arguments split across
// indexless deltas, the signature as a metadata-only delta, finish_reason "stop" on a tool-call reply).
const gemini: WireShape = (() => {
  const id = 'gTzSab2kFYqFz7IPmL3kCA';
  const m = 'gemini-3-flash-preview';
  const sigA = 'EjQKMgEMOdbHJChLX75QUCJjyYlmQeP1bh3Zf6p0u7aB';
  const sigB = 'EjQKMgEMOdbHkJxR6ymAEgQGz1qCdA0vBnhty0KPBjiA';
  return {
    name: 'gemini',
    source: 'Gemini OpenAI compatibility captures: noho/dayu-agent#45, open-webui/computer#224',
    replies: [
      {
        body: sse([
          chunk(id, m, {
            role: 'assistant',
            tool_calls: [
              {
                id: 'jm4owj31',
                type: 'function',
                function: { name: 'read_file', arguments: A },
                extra_content: { google: { thought_signature: sigA } },
              },
            ],
          }),
          chunk(id, m, {
            role: 'assistant',
            tool_calls: [{ id: 'k2f9qp1x', type: 'function', function: { name: 'read_file', arguments: '{"path": ' } }],
          }),
          chunk(id, m, { role: 'assistant', tool_calls: [{ function: { arguments: '"b.txt"}' } }] }),
          chunk(id, m, {
            role: 'assistant',
            tool_calls: [{ id: 'k2f9qp1x', extra_content: { google: { thought_signature: sigB } } }],
          }),
          chunk(id, m, { role: 'assistant' }, 'stop', {
            usage: { prompt_tokens: 301, completion_tokens: 38, total_tokens: 339 },
          }),
        ]),
      },
      {
        body: sse([
          ...answerDeltas(id, m),
          chunk(id, m, { role: 'assistant' }, 'stop', {
            usage: { prompt_tokens: 372, completion_tokens: 15, total_tokens: 387 },
          }),
        ]),
      },
    ],
    expect: {
      calls: twoReads('jm4owj31', 'k2f9qp1x'),
      usage: [
        { prompt: 301, completion: 38, total: 339 },
        { prompt: 372, completion: 15, total: 387 },
      ],
      roundTrip: (second) => {
        const calls = (sentAssistant(second)?.tool_calls ?? []) as Record<string, unknown>[];
        return [
          ...expectEqual(
            'call ids sent back',
            calls.map((c) => c.id),
            ['jm4owj31', 'k2f9qp1x'],
          ),
          ...expectEqual(
            'thought signatures sent back',
            calls.map((c) => c.extra_content),
            [{ google: { thought_signature: sigA } }, { google: { thought_signature: sigB } }],
          ),
        ];
      },
    },
  };
})();

// Ollama: ollama/ollama#15457 — every call of a parallel batch streams with index 0 and its own id; the
// second call's arguments continue in an index-0 fragment without an id.
const ollama: WireShape = (() => {
  const id = 'chatcmpl-417';
  const m = 'qwen2.5-coder:7b';
  return {
    name: 'ollama',
    source: 'ollama/ollama#15457 (index 0 reused for every parallel call)',
    replies: [
      {
        body: sse([
          chunk(id, m, {
            role: 'assistant',
            content: '',
            tool_calls: [
              { id: 'call_lyywui55', index: 0, type: 'function', function: { name: 'read_file', arguments: A } },
            ],
          }),
          chunk(id, m, {
            role: 'assistant',
            content: '',
            tool_calls: [
              {
                id: 'call_0scw2dos',
                index: 0,
                type: 'function',
                function: { name: 'read_file', arguments: '{"path": "b' },
              },
            ],
          }),
          chunk(id, m, {
            role: 'assistant',
            content: '',
            tool_calls: [{ index: 0, function: { arguments: '.txt"}' } }],
          }),
          chunk(id, m, { role: 'assistant', content: '' }, 'tool_calls'),
          usageChunk(id, m, { prompt_tokens: 402, completion_tokens: 51, total_tokens: 453 }),
        ]),
      },
      {
        body: sse([
          ...answerDeltas(id, m),
          chunk(id, m, { role: 'assistant', content: '' }, 'stop'),
          usageChunk(id, m, { prompt_tokens: 489, completion_tokens: 16, total_tokens: 505 }),
        ]),
      },
    ],
    expect: {
      calls: twoReads('call_lyywui55', 'call_0scw2dos'),
      usage: [
        { prompt: 402, completion: 51, total: 453 },
        { prompt: 489, completion: 16, total: 505 },
      ],
    },
  };
})();

// Legacy function calling: openai-python's ChoiceDeltaFunctionCall (delta.function_call with name, then
// argument fragments; finish_reason "function_call"), as older servers still answer. One call per reply; no usage.
const legacy: WireShape = (() => {
  const id = 'chatcmpl-7legacy';
  const m = 'gpt-3.5-turbo-0613';
  return {
    name: 'legacy-function-call',
    source: 'openai-python ChoiceDeltaFunctionCall (deprecated function_call stream)',
    replies: [
      {
        body: sse([
          chunk(id, m, { role: 'assistant', content: null, function_call: { name: 'read_file', arguments: '' } }),
          chunk(id, m, { function_call: { arguments: '{"pa' } }),
          chunk(id, m, { function_call: { arguments: 'th": "a.txt"}' } }),
          chunk(id, m, {}, 'function_call'),
        ]),
      },
      { body: sse([...answerDeltas(id, m), chunk(id, m, {}, 'stop')]) },
    ],
    expect: {
      calls: [{ id: /.+/, name: 'read_file', arguments: A }],
      usage: ['estimated', 'estimated'],
      roundTrip: (second) => {
        const msgs = (second.body?.messages ?? []) as Record<string, unknown>[];
        const fn = msgs.find((x) => x.role === 'function');
        return [
          ...expectEqual('function_call sent back', sentAssistant(second)?.function_call, {
            name: 'read_file',
            arguments: A,
          }),
          ...expectEqual(
            'function result message',
            fn && { name: fn.name, hasContent: typeof fn.content === 'string' },
            { name: 'read_file', hasContent: true },
          ),
        ];
      },
    },
  };
})();

// Names whole in every fragment: MiniMax via NVIDIA NIM (NousResearch/hermes-agent#11984, "read_fileread_file").
// Names split across fragments: Gemini via OpenAI-compatible gateways (continuedev/continue#5849, "edit_ex" + "isting_file").
const names: WireShape = (() => {
  const id = 'chatcmpl-nim-9a1';
  const m = 'minimaxai/minimax-m2.7';
  const f = (index: number, fn: Record<string, string>, callId?: string) =>
    chunk(id, m, { tool_calls: [{ index, ...(callId ? { id: callId, type: 'function' } : {}), function: fn }] });
  return {
    name: 'names-whole-and-split',
    source: 'NousResearch/hermes-agent#11984 (name repeated whole), continuedev/continue#5849 (name split)',
    replies: [
      {
        body: sse([
          f(0, { name: 'read_file', arguments: '' }, 'chatcmpl-tool-b6ade9'),
          f(0, { name: 'read_file', arguments: '{"path": ' }),
          f(0, { name: 'read_file', arguments: '"a.txt"}' }),
          f(1, { name: 'read', arguments: '' }, 'chatcmpl-tool-c7bef0'),
          f(1, { name: '_file', arguments: '' }),
          f(1, { arguments: B }),
          chunk(id, m, {}, 'tool_calls'),
          usageChunk(id, m, { prompt_tokens: 455, completion_tokens: 60, total_tokens: 515 }),
        ]),
      },
      {
        body: sse([
          ...answerDeltas(id, m),
          chunk(id, m, {}, 'stop'),
          usageChunk(id, m, { prompt_tokens: 530, completion_tokens: 15, total_tokens: 545 }),
        ]),
      },
    ],
    expect: {
      calls: twoReads('chatcmpl-tool-b6ade9', 'chatcmpl-tool-c7bef0'),
      usage: [
        { prompt: 455, completion: 60, total: 515 },
        { prompt: 530, completion: 15, total: 545 },
      ],
    },
  };
})();

// DeepSeek: reasoning_content deltas (its thinking mode), cache figures as prompt_cache_hit_tokens /
// prompt_cache_miss_tokens (DeepSeek API docs, context caching); reasoning_content goes back within the turn.
const deepseek: WireShape = (() => {
  const id = '7f1c29e2-5f0b-4a55-9d36-f1a0fb0d1b2e';
  const m = 'deepseek-reasoner';
  const think = ['I need both ', 'files, so I read ', 'them together.'];
  return {
    name: 'deepseek',
    source: 'DeepSeek API docs: reasoning_content stream, prompt_cache_hit_tokens / prompt_cache_miss_tokens',
    replies: [
      {
        body: sse([
          chunk(id, m, { role: 'assistant', content: null, reasoning_content: think[0] }),
          chunk(id, m, { reasoning_content: think[1] }),
          chunk(id, m, { reasoning_content: think[2] }),
          chunk(id, m, {
            tool_calls: [
              { index: 0, id: 'call_00_hRk2', type: 'function', function: { name: 'read_file', arguments: A } },
            ],
          }),
          chunk(id, m, {
            tool_calls: [
              { index: 1, id: 'call_01_Qp7x', type: 'function', function: { name: 'read_file', arguments: B } },
            ],
          }),
          chunk(id, m, {}, 'tool_calls'),
          usageChunk(id, m, {
            prompt_tokens: 640,
            completion_tokens: 90,
            total_tokens: 730,
            prompt_cache_hit_tokens: 512,
            prompt_cache_miss_tokens: 128,
            completion_tokens_details: { reasoning_tokens: 52 },
          }),
        ]),
      },
      {
        body: sse([
          ...answerDeltas(id, m),
          chunk(id, m, {}, 'stop'),
          usageChunk(id, m, {
            prompt_tokens: 742,
            completion_tokens: 15,
            total_tokens: 757,
            prompt_cache_hit_tokens: 640,
            prompt_cache_miss_tokens: 102,
          }),
        ]),
      },
    ],
    expect: {
      calls: twoReads('call_00_hRk2', 'call_01_Qp7x'),
      usage: [
        { prompt: 640, completion: 90, cached: 512, reasoning: 52, total: 730 },
        { prompt: 742, completion: 15, cached: 640, total: 757 },
      ],
      reasoningText: think.join(''),
      roundTrip: (second) => {
        const a = sentAssistant(second) ?? {};
        return [
          ...expectEqual('reasoning_content sent back', a.reasoning_content, think.join('')),
          ...expectEqual('no OpenRouter field', 'reasoning' in a, false),
        ];
      },
    },
  };
})();

// OpenRouter: charmbracelet/fantasy providertests/testdata/TestOpenRouterThinking/anthropic/thinking-streaming.yaml
// (reasoning + reasoning_details text deltas merged by index, the signature in a later fragment, both sent back
// under their own names); keep-alive comments ": OPENROUTER PROCESSING" (OpenRouter streaming docs); usage with
// cost and prompt_tokens_details.cache_write_tokens (OpenRouter usage accounting docs).
const openrouter: WireShape = (() => {
  const id = 'gen-1777319950-BX6MCZRmFqpAw5lUPuhg';
  const m = 'anthropic/claude-4.5-haiku-20251001';
  const sig = 'Eq0ECkgIDRABGAIqQM/zwzd9QrbMZ79kRrc7C/5+aoKK90YBv7ZbImUoagaaGZvOU3SP14cZ';
  const fmt = 'anthropic-claude-v1';
  const think = ['The user wants', ' both files read.'];
  const x = { provider: 'Amazon Bedrock' };
  const r = (text: string) =>
    chunk(
      id,
      m,
      {
        content: '',
        role: 'assistant',
        reasoning: text,
        reasoning_details: [{ type: 'reasoning.text', text, format: fmt, index: 0 }],
      },
      null,
      x,
    );
  const call = (index: number, callId: string, args: string) => [
    chunk(
      id,
      m,
      {
        content: null,
        role: 'assistant',
        tool_calls: [{ index, id: callId, type: 'function', function: { name: 'read_file', arguments: '' } }],
      },
      null,
      x,
    ),
    chunk(id, m, { content: null, role: 'assistant', tool_calls: [{ index, function: { arguments: args } }] }, null, x),
  ];
  const keepAlive: BodyPart = ': OPENROUTER PROCESSING\n\n';
  return {
    name: 'openrouter',
    source:
      'charmbracelet/fantasy testdata TestOpenRouterThinking/anthropic; OpenRouter streaming + usage accounting docs',
    replies: [
      {
        body: [
          keepAlive,
          ...sse([
            r(think[0]),
            r(think[1]),
            chunk(
              id,
              m,
              {
                content: '',
                role: 'assistant',
                reasoning_details: [{ type: 'reasoning.text', signature: sig, format: fmt, index: 0 }],
              },
              null,
              x,
            ),
            ...call(0, 'toolu_bdrk_01N8hD5cYDw4WfvnjKXAkA2W', A),
            ...call(1, 'toolu_bdrk_01Q3bX9mT2vLwZ8sNc4YkPq1', B),
            chunk(id, m, { content: '', role: 'assistant' }, 'tool_calls', {
              ...x,
              native_finish_reason: 'tool_use',
              usage: {
                prompt_tokens: 685,
                completion_tokens: 120,
                total_tokens: 805,
                cost: 0.001285,
                is_byok: false,
                prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 600, audio_tokens: 0 },
                cost_details: { upstream_inference_cost: 0.001285 },
                completion_tokens_details: { reasoning_tokens: 23 },
              },
            }),
          ]),
        ],
      },
      {
        body: [
          keepAlive,
          ...sse([
            ...answerDeltas(id, m, x),
            chunk(id, m, { content: '', role: 'assistant' }, 'stop', {
              ...x,
              native_finish_reason: 'end_turn',
              usage: {
                prompt_tokens: 866,
                completion_tokens: 43,
                total_tokens: 909,
                cost: 0.000431,
                prompt_tokens_details: { cached_tokens: 600, cache_write_tokens: 0 },
                completion_tokens_details: { reasoning_tokens: 0 },
              },
            }),
          ]),
        ],
      },
    ],
    expect: {
      calls: twoReads('toolu_bdrk_01N8hD5cYDw4WfvnjKXAkA2W', 'toolu_bdrk_01Q3bX9mT2vLwZ8sNc4YkPq1'),
      usage: [
        { prompt: 685, completion: 120, cached: 0, reasoning: 23, total: 805, cacheWrite: 600, cost: 0.001285 },
        { prompt: 866, completion: 43, cached: 600, reasoning: 0, total: 909, cacheWrite: 0, cost: 0.000431 },
      ],
      reasoningText: think.join(''),
      roundTrip: (second) => {
        const a = sentAssistant(second) ?? {};
        return [
          ...expectEqual('reasoning sent back', a.reasoning, think.join('')),
          ...expectEqual('reasoning_details sent back', a.reasoning_details, [
            { type: 'reasoning.text', text: think.join(''), format: fmt, index: 0, signature: sig },
          ]),
          ...expectEqual('no DeepSeek field', 'reasoning_content' in a, false),
        ];
      },
    },
  };
})();

// Groq: charmbracelet/fantasy testdata TestOpenAICompatibleCommon/groq-kimi-k2/multi_tool_streaming.yaml — whole
// calls with ids like "functions.add:0" and the usage in x_groq.usage on the finish chunk. Here without the
// stream_options usage (as Groq answered before it honoured stream_options): x_groq is the only usage.
const groq: WireShape = (() => {
  const id = 'chatcmpl-a74ad02f-fb60-461d-8042-24ab0b962b51';
  const m = 'moonshotai/kimi-k2-instruct-0905';
  const usage = (p: number, c: number) => ({
    queue_time: 0.200019293,
    prompt_tokens: p,
    prompt_time: 0.022569048,
    completion_tokens: c,
    completion_time: 0.168140587,
    total_tokens: p + c,
    total_time: 0.190709635,
  });
  return {
    name: 'groq',
    source: 'charmbracelet/fantasy testdata TestOpenAICompatibleCommon/groq-kimi-k2 (x_groq.usage)',
    replies: [
      {
        body: sse([
          chunk(id, m, { role: 'assistant', content: '' }, null, {
            system_fingerprint: 'fp_05df423bab',
            x_groq: { id: 'req_01kkht5b3yfqdt97w99bdntjns', seed: 690443319 },
          }),
          chunk(id, m, {
            tool_calls: [
              {
                id: 'functions.read_file:0',
                type: 'function',
                function: { name: 'read_file', arguments: A },
                index: 0,
              },
            ],
          }),
          chunk(id, m, {
            tool_calls: [
              {
                id: 'functions.read_file:1',
                type: 'function',
                function: { name: 'read_file', arguments: B },
                index: 1,
              },
            ],
          }),
          chunk(id, m, {}, 'tool_calls', { x_groq: { id: 'req_01kkht5b3yfqdt97w99bdntjns', usage: usage(201, 58) } }),
        ]),
      },
      {
        body: sse([
          ...answerDeltas(id, m),
          chunk(id, m, {}, 'stop', { x_groq: { id: 'req_01kkht5b3yfqdt97w99bdntjnt', usage: usage(290, 15) } }),
        ]),
      },
    ],
    expect: {
      calls: twoReads('functions.read_file:0', 'functions.read_file:1'),
      usage: [
        { prompt: 201, completion: 58, total: 259 },
        { prompt: 290, completion: 15, total: 305 },
      ],
    },
  };
})();

// vLLM with continuous_usage_stats: usage on every chunk, growing (vLLM's OpenAI server, stream_options
// continuous_usage_stats); the last one is the reply's.
const vllm: WireShape = (() => {
  const id = 'chatcmpl-b3c1e0d4a7f94d2e';
  const m = 'Qwen/Qwen3-8B';
  let c = 0;
  const u = (prompt: number) => ({
    usage: { prompt_tokens: prompt, completion_tokens: ++c, total_tokens: prompt + c },
  });
  return {
    name: 'vllm-usage-every-chunk',
    source: 'vLLM OpenAI server, stream_options.continuous_usage_stats (usage on every chunk)',
    replies: [
      {
        body: sse([
          chunk(id, m, { role: 'assistant', content: '' }, null, u(377)),
          chunk(
            id,
            m,
            {
              tool_calls: [
                {
                  index: 0,
                  id: 'chatcmpl-tool-9f2d',
                  type: 'function',
                  function: { name: 'read_file', arguments: '' },
                },
              ],
            },
            null,
            u(377),
          ),
          chunk(id, m, { tool_calls: [{ index: 0, function: { arguments: A } }] }, null, u(377)),
          chunk(
            id,
            m,
            {
              tool_calls: [
                {
                  index: 1,
                  id: 'chatcmpl-tool-a0e1',
                  type: 'function',
                  function: { name: 'read_file', arguments: '' },
                },
              ],
            },
            null,
            u(377),
          ),
          chunk(id, m, { tool_calls: [{ index: 1, function: { arguments: B } }] }, null, u(377)),
          chunk(id, m, {}, 'tool_calls', { usage: { prompt_tokens: 377, completion_tokens: 44, total_tokens: 421 } }),
        ]),
      },
      {
        body: sse([
          ...answerDeltas(id, m, u(450)),
          chunk(id, m, {}, 'stop', { usage: { prompt_tokens: 450, completion_tokens: 15, total_tokens: 465 } }),
        ]),
      },
    ],
    expect: {
      calls: twoReads('chatcmpl-tool-9f2d', 'chatcmpl-tool-a0e1'),
      usage: [
        { prompt: 377, completion: 44, total: 421 },
        { prompt: 450, completion: 15, total: 465 },
      ],
    },
  };
})();

// llama.cpp server: reasoning_content deltas and `timings` as in charmbracelet/fantasy testdata
// TestOpenAICompatibleCommon/llama-cpp-gpt-oss; usage on the finish chunk itself (the final-chunk info that
// ggml-org/llama.cpp#10722 brought back), followed by [DONE].
const llamacpp: WireShape = (() => {
  const id = 'chatcmpl-lz25qRqbjeLO8nbwF4DJYJQc7KjZrG2z';
  const m = 'openai/gpt-oss-20b';
  const fp = { system_fingerprint: 'b7010-c27efd2bd' };
  const timings = { cache_n: 138, prompt_n: 1, prompt_ms: 8.691, predicted_n: 41, predicted_ms: 339.279 };
  return {
    name: 'llamacpp-usage-on-finish',
    source: 'charmbracelet/fantasy testdata llama-cpp-gpt-oss; ggml-org/llama.cpp#10722 (final chunk info)',
    replies: [
      {
        body: sse([
          chunk(id, m, { role: 'assistant', content: null }, null, fp),
          chunk(id, m, { reasoning_content: 'Read both.' }, null, fp),
          chunk(
            id,
            m,
            {
              tool_calls: [
                {
                  index: 0,
                  id: 'g2KOIWzn722hzEaZQmNVP4roUPEiYafL',
                  type: 'function',
                  function: { name: 'read_file', arguments: '{"' },
                },
              ],
            },
            null,
            fp,
          ),
          chunk(id, m, { tool_calls: [{ index: 0, function: { arguments: 'path": "a.txt"}' } }] }, null, fp),
          chunk(
            id,
            m,
            {
              tool_calls: [
                {
                  index: 1,
                  id: 'Hq1xR0bDk4nS9ZtW2eJmC5vYpLaFo7Ug',
                  type: 'function',
                  function: { name: 'read_file', arguments: B },
                },
              ],
            },
            null,
            fp,
          ),
          chunk(id, m, {}, 'tool_calls', {
            ...fp,
            usage: { completion_tokens: 41, prompt_tokens: 139, total_tokens: 180 },
            timings,
          }),
        ]),
      },
      {
        body: sse([
          ...answerDeltas(id, m, fp),
          chunk(id, m, {}, 'stop', {
            ...fp,
            usage: { completion_tokens: 18, prompt_tokens: 196, total_tokens: 214 },
            timings,
          }),
        ]),
      },
    ],
    expect: {
      calls: twoReads('g2KOIWzn722hzEaZQmNVP4roUPEiYafL', 'Hq1xR0bDk4nS9ZtW2eJmC5vYpLaFo7Ug'),
      usage: [
        { prompt: 139, completion: 41, total: 180 },
        { prompt: 196, completion: 18, total: 214 },
      ],
      reasoningText: 'Read both.',
    },
  };
})();

// LM Studio (and any server that ignores stream_options): the standard chunks and no usage anywhere.
const lmstudio: WireShape = (() => {
  const id = 'chatcmpl-lmstudio-5x8k2';
  const m = 'qwen2.5-7b-instruct';
  return {
    name: 'lmstudio-no-usage',
    source: 'LM Studio OpenAI-compatible server (no usage in the stream)',
    replies: [
      {
        body: sse([
          chunk(id, m, { role: 'assistant', content: null }),
          chunk(id, m, {
            tool_calls: [
              { index: 0, id: '365174485', type: 'function', function: { name: 'read_file', arguments: A } },
            ],
          }),
          chunk(id, m, {
            tool_calls: [
              { index: 1, id: '952441170', type: 'function', function: { name: 'read_file', arguments: B } },
            ],
          }),
          chunk(id, m, {}, 'tool_calls'),
        ]),
      },
      { body: sse([...answerDeltas(id, m), chunk(id, m, {}, 'stop')]) },
    ],
    expect: { calls: twoReads('365174485', '952441170'), usage: ['estimated', 'estimated'] },
  };
})();

// xAI: charmbracelet/fantasy testdata TestOpenAICompatibleCommon/xai-grok-4-fast/multi_tool_streaming.yaml —
// reasoning tokens outside completion_tokens (total 636 = 432 + 68 + 136) and cost_in_usd_ticks (1 tick =
// 1e-10 USD: 1654500 ticks is $0.00016545, which is grok-4-fast's list price for these tokens).
const xai: WireShape = (() => {
  const id = '028e638f-d1c1-678c-a2c8-81b3f8a84090';
  const m = 'grok-4-fast-reasoning';
  const fp = { system_fingerprint: 'fp_3d7ed3b779' };
  return {
    name: 'xai',
    source: 'charmbracelet/fantasy testdata TestOpenAICompatibleCommon/xai-grok-4-fast',
    replies: [
      {
        body: sse([
          chunk(
            id,
            m,
            {
              role: 'assistant',
              tool_calls: [
                { id: 'call_55070233', function: { name: 'read_file', arguments: A }, index: 0, type: 'function' },
              ],
            },
            null,
            fp,
          ),
          chunk(
            id,
            m,
            {
              tool_calls: [
                { id: 'call_12016531', function: { name: 'read_file', arguments: B }, index: 1, type: 'function' },
              ],
            },
            null,
            fp,
          ),
          chunk(id, m, {}, 'tool_calls', fp),
          usageChunk(
            id,
            m,
            {
              prompt_tokens: 432,
              completion_tokens: 68,
              total_tokens: 636,
              prompt_tokens_details: { text_tokens: 432, audio_tokens: 0, image_tokens: 0, cached_tokens: 153 },
              completion_tokens_details: { reasoning_tokens: 136, audio_tokens: 0 },
              num_sources_used: 0,
              cost_in_usd_ticks: 1654500,
            },
            fp,
          ),
        ]),
      },
      {
        body: sse([
          ...answerDeltas(id, m, fp),
          chunk(id, m, {}, 'stop', fp),
          usageChunk(
            id,
            m,
            {
              prompt_tokens: 654,
              completion_tokens: 25,
              total_tokens: 731,
              prompt_tokens_details: { cached_tokens: 602 },
              completion_tokens_details: { reasoning_tokens: 52 },
              cost_in_usd_ticks: 790000,
            },
            fp,
          ),
        ]),
      },
    ],
    expect: {
      calls: twoReads('call_55070233', 'call_12016531'),
      usage: [
        { prompt: 432, completion: 68, cached: 153, reasoning: 136, total: 636, cost: 0.00016545 },
        { prompt: 654, completion: 25, cached: 602, reasoning: 52, total: 731, cost: 0.000079 },
      ],
    },
  };
})();

// A non-streamed JSON completion sent in reply to a streamed request (servers that ignore `stream`), in the
// chat.completion object format of OpenAI's API reference.
const json: WireShape = (() => {
  const completion = (message: Record<string, unknown>, finish: string, usage: Record<string, number>) => ({
    id: 'chatcmpl-json-1',
    object: 'chat.completion',
    created,
    model: 'local-model',
    choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
    usage,
  });
  return {
    name: 'json-not-streamed',
    source: 'OpenAI chat.completion object returned to a stream request',
    replies: [
      jsonReply(
        200,
        completion(
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_j1', type: 'function', function: { name: 'read_file', arguments: A } },
              { id: 'call_j2', type: 'function', function: { name: 'read_file', arguments: B } },
            ],
          },
          'tool_calls',
          { prompt_tokens: 350, completion_tokens: 40, total_tokens: 390 },
        ),
      ),
      jsonReply(
        200,
        completion({ role: 'assistant', content: ANSWER }, 'stop', {
          prompt_tokens: 420,
          completion_tokens: 15,
          total_tokens: 435,
        }),
      ),
    ],
    expect: {
      calls: twoReads('call_j1', 'call_j2'),
      usage: [
        { prompt: 350, completion: 40, total: 390 },
        { prompt: 420, completion: 15, total: 435 },
      ],
    },
  };
})();

export const WIRE_SHAPES: readonly WireShape[] = [
  openai,
  gemini,
  ollama,
  legacy,
  names,
  deepseek,
  openrouter,
  groq,
  vllm,
  llamacpp,
  lmstudio,
  xai,
  json,
];
