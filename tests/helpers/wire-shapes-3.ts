/**
 * Round three of recorded wire shapes: costs providers report themselves (OpenRouter with your own provider key,
 * Perplexity's cost object), replies that are not answers (an empty reply with finish "stop", a final reply cut
 * short), reasoning inside the content (Mistral's content parts, `<think>` blocks), a stream field that must not go
 * back (Together's token_id), and errors classified by status and code (Groq's 429 and 413, LiteLLM's error object
 * on /v1/messages). Each shape is built per mode family — 'react' (read_file), 'code' (run_code) or 'react-text'
 * (the call written as text) — and says what must be recorded and what must go back on the next request. The
 * source of each recording is named beside it; the Messages API shapes are in wire-shapes-3-anthropic.ts.
 */
import type { RunStatus, Usage } from '../../shared/step-event.js';
import type { RecordedRequest, ReplayReply } from './replay-server.js';
import { jsonReply, sse } from './replay-server.js';
import { ANSWER, chunk, created, usageChunk } from './wire-shapes.js';
import { FAMILIES, answerText, pieces, readCall, type Family } from './wire-shapes-2.js';

export interface Expect3 {
  readonly status: RunStatus;
  /** Model requests the replay server must receive. */
  readonly requests: number;
  /** The run's exact answer ('' for every run that did not answer). */
  readonly answer?: string;
  readonly error?: RegExp;
  /** Usage recorded as reported, by step (1-based). */
  readonly usage?: Readonly<Record<number, Usage>>;
  /** The reasoning recorded on each step (absent key: not checked; '' : none recorded). */
  readonly reasoning?: Readonly<Record<number, string>>;
  /** The text recorded on each step, as shown. */
  readonly text?: Readonly<Record<number, string>>;
  /** model-retry messages, in order, must match these (and there must be exactly as many). */
  readonly retries?: readonly RegExp[];
  /** Checks on what went back: every request the server received; problems, empty when fine. */
  readonly roundTrip?: (requests: readonly RecordedRequest[]) => string[];
}

export interface Shape3 {
  readonly name: string;
  readonly source: string;
  readonly protocol: 'openai' | 'anthropic';
  readonly families: readonly Family[];
  build(family: Family): { replies: readonly ReplayReply[]; expect: Expect3 };
}

/** The assistant message of the n-th request's history (0-based), as sent back. */
export function assistantOf(req: RecordedRequest | undefined, n = 0): Record<string, unknown> | undefined {
  const msgs = (req?.body?.messages ?? []) as Record<string, unknown>[];
  return msgs.filter((m) => m.role === 'assistant')[n];
}

const same = (label: string, actual: unknown, expected: unknown): string[] =>
  JSON.stringify(actual) === JSON.stringify(expected)
    ? []
    : [`${label}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];

/** Deltas of the family's read of a.txt: a call in pieces (native), or the call as text. */
export function callDeltas(f: Family, callId: string, extra: Record<string, unknown> = {}): Record<string, unknown>[] {
  const c = readCall(f);
  if (f === 'react-text')
    return pieces(c.text).map((t, i) => ({ ...(i === 0 ? { role: 'assistant' } : {}), content: t, ...extra }));
  return [
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ index: 0, id: callId, type: 'function', function: { name: c.name, arguments: '' } }],
      ...extra,
    },
    { tool_calls: [{ index: 0, function: { arguments: c.arguments } }], ...extra },
  ];
}

export const textDeltas = (s: string, extra: Record<string, unknown> = {}) =>
  pieces(s).map((t, i) => ({ ...(i === 0 ? { role: 'assistant' } : {}), content: t, ...extra }));
export const callFinish = (f: Family) => (f === 'react-text' ? 'stop' : 'tool_calls');
const ranCall = (f: Family, answer: string): Expect3 => ({ status: 'answered', requests: 2, answer });

// OpenRouter with the account's own provider key (BYOK): `cost` is OpenRouter's fee (5 %), the provider's charge is
// `cost_details.upstream_inference_cost`; the step costs both, 21 times the fee here (OpenRouter usage accounting docs,
// "Cost breakdown"; tailcallhq/forgecode#1641 recorded usage; DataDog/dd-trace-py#19324 BYOK cassettes).
const openrouterByok: Shape3 = {
  name: 'openrouter-byok-upstream-cost',
  source:
    'OpenRouter docs: usage accounting, cost_details (BYOK); tailcallhq/forgecode#1641; DataDog/dd-trace-py#19324',
  protocol: 'openai',
  families: FAMILIES,
  build(f) {
    const id = 'gen-1764712345-byokReplay';
    const m = 'openai/gpt-4.1-mini';
    const or = { provider: 'OpenAI' };
    const usage = (p: number, c: number, fee: number, upstream: number) => ({
      prompt_tokens: p,
      completion_tokens: c,
      total_tokens: p + c,
      cost: fee,
      is_byok: true,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      cost_details: {
        upstream_inference_cost: upstream,
        upstream_inference_prompt_cost: upstream * 0.8,
        upstream_inference_completions_cost: upstream * 0.2,
      },
      completion_tokens_details: { reasoning_tokens: 0, image_tokens: 0 },
    });
    const first: ReplayReply = {
      body: [
        ': OPENROUTER PROCESSING\n\n',
        ...sse([
          ...callDeltas(f, 'call_byok1').map((d) => chunk(id, m, d, null, or)),
          chunk(id, m, {}, callFinish(f), or),
          usageChunk(id, m, usage(1420, 31, 0.0000197, 0.000394), or),
        ]),
      ],
    };
    const second: ReplayReply = {
      body: sse([
        ...textDeltas(answerText(f)).map((d) => chunk(`${id}2`, m, d, null, or)),
        chunk(`${id}2`, m, {}, 'stop', or),
        usageChunk(`${id}2`, m, usage(1490, 18, 0.0000131, 0.000262), or),
      ]),
    };
    return {
      replies: [first, second],
      expect: {
        ...ranCall(f, ANSWER),
        usage: {
          1: { prompt: 1420, completion: 31, total: 1451, cached: 0, reasoning: 0, cost: 0.0004137 },
          2: { prompt: 1490, completion: 18, total: 1508, cached: 0, reasoning: 0, cost: 0.0002751 },
        },
      },
    };
  },
};

// Perplexity Sonar: every chunk carries the message so far and the delta, citations and search results at the top
// level, and usage whose `cost` is an object (request_cost, total_cost, …); Sonar calls no tools, so the native modes
// get a direct answer and ReAct (text) writes its call as text (docs.perplexity.ai Sonar response contract;
// promptfoo/promptfoo#10809 reads usage.cost.total_cost; recorded bodies in public READMEs: request_cost 0.005).
const perplexity: Shape3 = {
  name: 'perplexity-cost-object',
  source: 'docs.perplexity.ai Sonar API (usage.cost object); promptfoo/promptfoo#10809',
  protocol: 'openai',
  families: FAMILIES,
  build(f): { replies: readonly ReplayReply[]; expect: Expect3 } {
    const m = 'sonar';
    const cost = (inp: number, out: number) => ({
      input_tokens_cost: inp,
      output_tokens_cost: out,
      request_cost: 0.005,
      total_cost: Math.round((inp + out + 0.005) * 1e6) / 1e6,
    });
    const reply = (id: string, text: string, p: number, c: number): ReplayReply => {
      let soFar = '';
      const usage = {
        prompt_tokens: p,
        completion_tokens: c,
        total_tokens: p + c,
        search_context_size: 'low',
        cost: cost(p / 1e6, c / 1e6),
      };
      const top = {
        citations: ['https://example.com/alpha'],
        search_results: [{ title: 'alpha', url: 'https://example.com/alpha', date: null }],
        usage,
      };
      const parts = pieces(text).map((t) => {
        soFar += t;
        return {
          id,
          model: m,
          created,
          object: 'chat.completion.chunk',
          ...top,
          choices: [
            {
              index: 0,
              finish_reason: null,
              message: { role: 'assistant', content: soFar },
              delta: { role: 'assistant', content: t },
            },
          ],
        };
      });
      return {
        body: sse([
          ...parts,
          {
            id,
            model: m,
            created,
            object: 'chat.completion.chunk',
            ...top,
            choices: [
              {
                index: 0,
                finish_reason: 'stop',
                message: { role: 'assistant', content: soFar },
                delta: { role: 'assistant', content: '' },
              },
            ],
          },
        ]),
      };
    };
    if (f !== 'react-text') {
      return {
        replies: [reply('pplx-1', ANSWER, 420, 85)],
        expect: {
          status: 'answered',
          requests: 1,
          answer: ANSWER,
          usage: { 1: { prompt: 420, completion: 85, total: 505, cost: 0.005505 } },
        },
      };
    }
    return {
      replies: [reply('pplx-1', readCall(f).text, 420, 31), reply('pplx-2', answerText(f), 470, 20)],
      expect: {
        ...ranCall(f, ANSWER),
        usage: {
          1: { prompt: 420, completion: 31, total: 451, cost: 0.005451 },
          2: { prompt: 470, completion: 20, total: 490, cost: 0.00549 },
        },
      },
    };
  },
};

// Gemini's OpenAI-compatible endpoint ending a reply with no part at all: a role-only delta, finish_reason "stop",
// usage with 0 completion tokens (BerriAI/litellm#24442 recorded candidate; google-gemini/deprecated-generative-ai-python#744).
const geminiEmpty: Shape3 = {
  name: 'gemini-empty-stop',
  source: 'BerriAI/litellm#24442 (finishReason STOP, no parts), google-gemini/deprecated-generative-ai-python#744',
  protocol: 'openai',
  families: FAMILIES,
  build(f) {
    const m = 'gemini-2.5-flash-lite';
    const id = 'dnsKaY2pM7nmz7IP2ZrzsQ0';
    const g = (delta: Record<string, unknown>, finish: string | null, usage?: Record<string, unknown>) => ({
      choices: [{ delta, finish_reason: finish, index: 0 }],
      created,
      id,
      model: m,
      object: 'chat.completion.chunk',
      ...(usage ? { usage } : {}),
    });
    const c = readCall(f);
    const first: ReplayReply =
      f === 'react-text'
        ? {
            body: sse([
              g({ role: 'assistant', content: c.text }, 'stop', {
                completion_tokens: 40,
                prompt_tokens: 3070,
                total_tokens: 3110,
              }),
            ]),
          }
        : {
            body: sse([
              g(
                {
                  role: 'assistant',
                  tool_calls: [
                    {
                      function: { arguments: c.arguments, name: c.name },
                      id: 'function-call-8127845012',
                      type: 'function',
                    },
                  ],
                },
                'tool_calls',
                { completion_tokens: 20, prompt_tokens: 3070, total_tokens: 3090 },
              ),
            ]),
          };
    const empty: ReplayReply = {
      body: sse([g({ role: 'assistant' }, 'stop', { completion_tokens: 0, prompt_tokens: 3130, total_tokens: 3130 })]),
    };
    return {
      replies: [
        first,
        empty,
        { body: sse([chunk('never', m, { role: 'assistant', content: 'not asked for' }, 'stop')]) },
      ],
      expect: {
        status: 'empty',
        requests: 2,
        answer: '',
        error: /final reply was empty \(finish_reason "stop"\): no text and no tool call/,
        usage: { 2: { prompt: 3130, completion: 0, total: 3130 } },
        text: { 2: '' },
        // What went back before it: the first turn, never an empty assistant message.
        roundTrip: (reqs) => {
          const a = assistantOf(reqs[1]);
          return f === 'react-text'
            ? same('turn 1 sent back', a?.content, c.text)
            : same(
                'turn 1 calls sent back',
                (a?.tool_calls as { id: string }[] | undefined)?.map((t) => t.id),
                ['function-call-8127845012'],
              );
        },
      },
    };
  },
};

// Mistral's Magistral: thinking and text as lists of content parts ({type: 'thinking', thinking: [{type: 'text', …}]},
// {type: 'text', …}), fragments of one part streamed one by one; a tool call whole in one chunk with its finish reason
// and the usage (BerriAI/litellm#16272 recorded magistral-medium-2509 stream; Mistral docs: Reasoning, ThinkChunk).
const magistral: Shape3 = {
  name: 'mistral-magistral-content-parts',
  source: 'BerriAI/litellm#16272 (recorded stream), docs.mistral.ai reasoning (ThinkChunk / TextChunk)',
  protocol: 'openai',
  families: FAMILIES,
  build(f) {
    const m = 'magistral-medium-2509';
    const id = 'c3c77283055240cbbaf6f01d384cfccb';
    const think = (t: string) => ({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: t }] }] });
    const text = (t: string) => ({ content: [{ type: 'text', text: t }] });
    const c = readCall(f);
    const t1 = ['I should read', ' a.txt before', ' answering.'];
    const t2 = ['a.txt says', ' alpha.'];
    const mistralUsage = (p: number, k: number) => ({ prompt_tokens: p, total_tokens: p + k, completion_tokens: k });
    const first: ReplayReply = {
      body: sse([
        chunk(id, m, { role: 'assistant', content: '' }),
        ...t1.map((t) => chunk(id, m, think(t))),
        ...(f === 'react-text'
          ? [
              ...pieces(c.text).map((t) => chunk(id, m, text(t))),
              chunk(id, m, { content: '' }, 'stop', { usage: mistralUsage(512, 64) }),
            ]
          : [
              chunk(
                id,
                m,
                { tool_calls: [{ id: 'D681PevKs', function: { name: c.name, arguments: c.arguments }, index: 0 }] },
                'tool_calls',
                { usage: mistralUsage(512, 64) },
              ),
            ]),
      ]),
    };
    const second: ReplayReply = {
      body: sse([
        chunk(`${id}2`, m, { role: 'assistant', content: '' }),
        ...t2.map((t) => chunk(`${id}2`, m, think(t))),
        ...pieces(answerText(f)).map((t) => chunk(`${id}2`, m, text(t))),
        chunk(`${id}2`, m, { content: '' }, 'stop', { usage: mistralUsage(600, 40) }),
      ]),
    };
    const thinking1 = [{ type: 'thinking', thinking: [{ type: 'text', text: t1.join('') }] }];
    return {
      replies: [first, second],
      expect: {
        ...ranCall(f, ANSWER),
        reasoning: { 1: t1.join(''), 2: t2.join('') },
        text: { 1: f === 'react-text' ? c.text : '', 2: answerText(f) },
        usage: { 1: { prompt: 512, completion: 64, total: 576 } },
        // The turn goes back as it came: its thinking part (and, in text, its text part), the call with Mistral's id.
        roundTrip: (reqs) => {
          const a = assistantOf(reqs[1]);
          if (f === 'react-text')
            return same('turn 1 content sent back', a?.content, [...thinking1, { type: 'text', text: c.text }]);
          return [
            ...same('turn 1 content sent back', a?.content, thinking1),
            ...same('call id sent back', (a?.tool_calls as { id: string }[] | undefined)?.[0]?.id, 'D681PevKs'),
          ];
        },
      },
    };
  },
};

// A final reply cut at the token limit: finish_reason "length" after part of an answer (OpenAI API reference,
// chat completion object: "length if the maximum number of tokens specified in the request was reached").
const lengthFinal: Shape3 = {
  name: 'final-reply-cut-by-length',
  source: 'OpenAI API reference: finish_reason "length"',
  protocol: 'openai',
  families: FAMILIES,
  build(f) {
    const id = 'chatcmpl-len-final';
    const m = 'gpt-4o-mini-2024-07-18';
    const cut = answerText(f).slice(0, answerText(f).length - 18);
    const first: ReplayReply = {
      body: sse([
        ...callDeltas(f, 'call_len2').map((d) => chunk(id, m, d)),
        chunk(id, m, {}, callFinish(f)),
        usageChunk(id, m, { prompt_tokens: 300, completion_tokens: 16, total_tokens: 316 }),
      ]),
    };
    const second: ReplayReply = {
      body: sse([
        ...textDeltas(cut).map((d) => chunk(`${id}2`, m, d)),
        chunk(`${id}2`, m, {}, 'length'),
        usageChunk(`${id}2`, m, { prompt_tokens: 340, completion_tokens: 12, total_tokens: 352 }),
      ]),
    };
    return {
      replies: [first, second],
      expect: {
        status: 'truncated',
        requests: 2,
        answer: '',
        error: /token limit before it was finished \(finish_reason "length"\)/,
        text: { 2: cut },
        usage: { 2: { prompt: 340, completion: 12, total: 352 } },
      },
    };
  },
};

// MiniMax M2 (and models served without a reasoning parser): the thinking inside the content as <think>…</think>,
// which must go back whole (platform.minimax.io OpenAI-compatible API: "the content field will contain <think> tag
// content, which must be preserved completely").
const minimaxThink: Shape3 = {
  name: 'minimax-think-in-content',
  source: 'platform.minimax.io docs: OpenAI API (content keeps <think>…</think>)',
  protocol: 'openai',
  families: FAMILIES,
  build(f) {
    const id = '05b81ba27ad4e1d7d4cb4ff1';
    const m = 'MiniMax-M2';
    const think1 = '<think>\nThe user wants a.txt read first.\n</think>\n\n';
    const think2 = '<think>\na.txt says alpha; b.txt says beta twice.\n</think>\n\n';
    const c = readCall(f);
    const said = f === 'react-text' ? c.text : '';
    const firstText = think1 + said;
    const first: ReplayReply = {
      body: sse([
        ...textDeltas(firstText).map((d) => chunk(id, m, d)),
        ...(f === 'react-text'
          ? []
          : [
              chunk(id, m, {
                tool_calls: [
                  {
                    index: 0,
                    id: 'call_function_7f1u3pyq2y5w_1',
                    type: 'function',
                    function: { name: c.name, arguments: c.arguments },
                  },
                ],
              }),
            ]),
        chunk(id, m, {}, callFinish(f)),
        usageChunk(id, m, { prompt_tokens: 480, completion_tokens: 44, total_tokens: 524 }),
      ]),
    };
    const second: ReplayReply = {
      body: sse([
        ...textDeltas(think2 + answerText(f)).map((d) => chunk(`${id}2`, m, d)),
        chunk(`${id}2`, m, {}, 'stop'),
        usageChunk(`${id}2`, m, { prompt_tokens: 560, completion_tokens: 40, total_tokens: 600 }),
      ]),
    };
    return {
      replies: [first, second],
      expect: {
        ...ranCall(f, ANSWER),
        reasoning: { 1: 'The user wants a.txt read first.', 2: 'a.txt says alpha; b.txt says beta twice.' },
        text: { 1: said, 2: answerText(f) },
        roundTrip: (reqs) => same('turn 1 content sent back verbatim', assistantOf(reqs[1])?.content, firstText),
      },
    };
  },
};

// Together: every delta carries `token_id` (its final chunk too), each choice a `text` and `seed`; the answer ends
// with finish_reason "eos" (lzell/AIProxySwift TogetherAIChatCompletionStreamingChunkTests recorded chunks).
const together: Shape3 = {
  name: 'together-token-id',
  source: 'lzell/AIProxySwift TogetherAIChatCompletionStreamingChunkTests (recorded chunks)',
  protocol: 'openai',
  families: FAMILIES,
  build(f) {
    const m = 'meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo';
    const tg = (
      id: string,
      delta: Record<string, unknown>,
      finish: string | null,
      tokenId: number,
      usage: Record<string, unknown> | null = null,
    ) => ({
      id,
      object: 'chat.completion.chunk',
      created: 1723834621,
      model: m,
      usage,
      choices: [
        {
          index: 0,
          text: typeof delta.content === 'string' ? delta.content : '',
          logprobs: null,
          finish_reason: finish,
          seed: finish ? 2039908639335532000 : null,
          delta: { token_id: tokenId, ...delta },
        },
      ],
    });
    const id1 = '8b43a5cfadf99e5c-SJC';
    const id2 = '8b43a5d1c9f27e61-SJC';
    const first: ReplayReply = {
      body: sse([
        ...callDeltas(f, 'call_tg4fb2s0ybnyz5vsb1yq6qy0').map((d, i) =>
          tg(id1, { ...d, tool_calls: d.tool_calls ?? null }, null, 30 + i),
        ),
        tg(
          id1,
          { role: 'assistant', content: '', tool_calls: null },
          f === 'react-text' ? 'eos' : 'tool_calls',
          128008,
          { prompt_tokens: 312, completion_tokens: 27, total_tokens: 339 },
        ),
      ]),
    };
    const second: ReplayReply = {
      body: sse([
        ...textDeltas(answerText(f)).map((d, i) => tg(id2, { ...d, tool_calls: null }, null, 60 + i)),
        tg(id2, { role: 'assistant', content: '', tool_calls: null }, 'eos', 128009, {
          prompt_tokens: 380,
          completion_tokens: 27,
          total_tokens: 407,
        }),
      ]),
    };
    return {
      replies: [first, second],
      expect: {
        ...ranCall(f, ANSWER),
        usage: { 1: { prompt: 312, completion: 27, total: 339 } },
        roundTrip: (reqs) => {
          const a = assistantOf(reqs[1]);
          return a && 'token_id' in a
            ? [`token_id sent back: ${JSON.stringify(a.token_id)}`]
            : a
              ? []
              : ['no assistant message sent back'];
        },
      },
    };
  },
};

// Groq's 429 on tokens per minute: its message ends with a link to the billing page ("Need more tokens? Upgrade to Dev
// Tier"), its code says rate_limit_exceeded, and Retry-After says when (ago19800/HomeMind#29 body,
// continuedev/continue#10920; Groq docs: rate limits and retry-after). Retried, then answered.
const GROQ_429 = {
  error: {
    message:
      'Rate limit reached for model `llama-3.3-70b-versatile` in organization `org_01kes94v04f9ramd2n1vj4gjnc` service tier `on_demand` on tokens per minute (TPM): Limit 12000, Used 2542, Requested 9855. Please try again in 1.984999999s. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing',
    type: 'tokens',
    code: 'rate_limit_exceeded',
  },
};
const groq429: Shape3 = {
  name: 'groq-429-billing-link',
  source: 'ago19800/HomeMind#29, continuedev/continue#10920 (Groq 429 bodies)',
  protocol: 'openai',
  families: FAMILIES,
  build(f) {
    const id = 'chatcmpl-groq-4b1f';
    const m = 'llama-3.3-70b-versatile';
    const groq = (usage: Record<string, unknown>) => ({ x_groq: { id: 'req_01k2', usage } });
    // Groq sends retry-after in seconds ("2" here); 0 keeps the test from waiting.
    const limited = jsonReply(429, GROQ_429, { 'retry-after': '0' });
    const call: ReplayReply = {
      body: sse([
        ...callDeltas(f, 'call_groq1').map((d) => chunk(id, m, d)),
        chunk(id, m, {}, callFinish(f), groq({ prompt_tokens: 990, completion_tokens: 20, total_tokens: 1010 })),
      ]),
    };
    const done: ReplayReply = {
      body: sse([
        ...textDeltas(answerText(f)).map((d) => chunk(`${id}2`, m, d)),
        chunk(`${id}2`, m, {}, 'stop', groq({ prompt_tokens: 1040, completion_tokens: 15, total_tokens: 1055 })),
      ]),
    };
    return {
      replies: [limited, call, done],
      expect: {
        status: 'answered',
        requests: 3,
        answer: ANSWER,
        retries: [/is rate limiting \(429: Rate limit reached for model `llama-3\.3-70b-versatile`/],
        usage: { 1: { prompt: 990, completion: 20, total: 1010 } },
      },
    };
  },
};

// Groq's 413: the request alone is larger than the tokens-per-minute limit; waiting does not help, and it is not a
// billing problem (continuedev/continue#10218, HunorLaczko/ha-groq-cloud-api#27, cline/cline#4971 bodies).
const groq413: Shape3 = {
  name: 'groq-413-over-tpm',
  source: 'continuedev/continue#10218, HunorLaczko/ha-groq-cloud-api#27 (Groq 413 bodies)',
  protocol: 'openai',
  families: FAMILIES,
  build() {
    const body = {
      error: {
        message:
          'Request too large for model `moonshotai/kimi-k2-instruct` in organization `org_01kgg5588eftc8k70aes4864eb` service tier `on_demand` on tokens per minute (TPM): Limit 10000, Requested 15088, please reduce your message size and try again. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing',
        type: 'tokens',
        code: 'rate_limit_exceeded',
      },
    };
    return {
      replies: [jsonReply(413, body)],
      expect: {
        status: 'error',
        requests: 1,
        answer: '',
        error:
          /larger than the account's tokens-per-minute limit.*\(413: Request too large for model.*Waiting does not help/,
        retries: [],
      },
    };
  },
};

// ReAct (text): a reply that opens with an "Observation:" the model wrote itself (no stop sequence honoured, as
// servers that ignore `stop` do). Everything from that line on is dropped, which leaves nothing to send back: the
// reply then goes back whole, never as an empty assistant message (OpenAI and Anthropic refuse one with a 400;
// Gemini's endpoint says "contents.parts must not be empty").
const observationFirst: Shape3 = {
  name: 'text-reply-opens-with-observation',
  source:
    'ReAct text protocol (the model writes the observation itself; servers that ignore stop); providers refuse an empty assistant message',
  protocol: 'openai',
  families: ['react-text'],
  build(f) {
    const id = 'chatcmpl-obs-first';
    const m = 'llama-3.1-8b-instant';
    const forged = 'Observation: a.txt holds "alpha".\nThought: I know it now.\nFinal Answer: a.txt holds "alpha".';
    const c = readCall(f);
    const say = (cid: string, text: string) => ({
      body: sse([
        ...textDeltas(text).map((d) => chunk(cid, m, d)),
        chunk(cid, m, {}, 'stop'),
        usageChunk(cid, m, { prompt_tokens: 300, completion_tokens: 30, total_tokens: 330 }),
      ]),
    });
    return {
      replies: [say(id, forged), say(`${id}2`, c.text), say(`${id}3`, answerText(f))],
      expect: {
        status: 'answered',
        requests: 3,
        answer: ANSWER,
        roundTrip: (reqs) => {
          const sent = assistantOf(reqs[1]);
          const observation = ((reqs[1]?.body?.messages ?? []) as { role: string; content: string }[]).at(-1);
          return [
            ...same('the forged reply sent back whole', sent?.content, forged),
            ...(/started with "Observation:"/.test(observation?.content ?? '')
              ? []
              : [`the next observation does not say why: ${JSON.stringify(observation?.content)}`]),
          ];
        },
      },
    };
  },
};

export const WIRE_SHAPES_3_OPENAI: readonly Shape3[] = [
  openrouterByok,
  perplexity,
  geminiEmpty,
  magistral,
  lengthFinal,
  minimaxThink,
  together,
  groq429,
  groq413,
  observationFirst,
];
