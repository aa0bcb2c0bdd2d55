/**
 * Round two of recorded wire shapes: where servers put usage, tool calls that are not a list or change id on
 * every fragment, finish reasons that decide the outcome (content filter, refusal, a call cut at the token
 * limit, Anthropic refusal and pause_turn), an empty reply, and Anthropic usage details (1-hour cache writes,
 * server web searches, a server_tool_use input streamed as JSON). Each shape is built for one mode family —
 * 'react' (read_file calls), 'code' (run_code calls) or 'react-text' (the calls written as text) — so the same
 * wire quirk is replayed in ReAct, Code Mode and ReAct (text). The source of each recording is named beside it.
 */
import type { ModeId } from '../../shared/modes.js';
import type { Usage } from '../../shared/step-event.js';
import type { RecordedRequest, ReplayReply } from './replay-server.js';
import { sse } from './replay-server.js';
import { event, messageStart, streamReply } from './anthropic-shapes.js';
import { ANSWER, chunk, usageChunk } from './wire-shapes.js';

export type Family = 'react' | 'code' | 'react-text';
export const FAMILIES: readonly Family[] = ['react', 'code', 'react-text'];

export interface Expect2 {
  readonly status: 'answered' | 'refused';
  /** Step 1's usage as it must be recorded (source 'reported'), or 'estimated'. */
  readonly usage?: Usage | 'estimated';
  /** Step 1's calls (native modes only): name and arguments; `cut` when the reply ended inside it. */
  readonly calls?: readonly { readonly name: string; readonly arguments: string; readonly cut?: true }[];
  /** Tools that must have run (tool-finished without error), by count. */
  readonly ranOk?: number;
  /** Model requests the replay server must receive. */
  readonly requests: number;
  /** The run's error must match (refusals: the provider's words). */
  readonly error?: RegExp;
  /** Step 1's model-response must carry this refusal text. */
  readonly refusal?: string;
  /** Checks on what went back (the second request); problems, empty when fine. */
  readonly roundTrip?: (second: RecordedRequest) => string[];
}

export interface Shape2 {
  readonly name: string;
  readonly source: string;
  /** The protocol the replay speaks (the custom provider's --protocol). */
  readonly protocol: 'openai' | 'anthropic';
  /** Modes this quirk applies to (a text-mode run sends no tools, so tool-call shapes are native only). */
  readonly families: readonly Family[];
  build(family: Family): { replies: readonly ReplayReply[]; expect: Expect2 };
}

export const modeOfFamily = (f: Family): ModeId => f;

/** The call each family makes to read a.txt. */
export function readCall(f: Family): { name: string; arguments: string; text: string } {
  if (f === 'code') {
    const args = JSON.stringify({ code: "const t = read_file({ path: 'a.txt' });\nprint(t);" });
    return { name: 'run_code', arguments: args, text: '' };
  }
  const args = '{"path": "a.txt"}';
  return {
    name: 'read_file',
    arguments: args,
    text: `Thought: I read the file.\nAction: read_file\nAction Input: ${args}\n`,
  };
}

/** The final answer in the family's own form. */
export const answerText = (f: Family) =>
  f === 'react-text' ? `Thought: I know it now.\nFinal Answer: ${ANSWER}` : ANSWER;

/** Split text into a few deltas. */
export const pieces = (s: string) => [s.slice(0, 7), s.slice(7, 25), s.slice(25)].filter(Boolean);

const openaiAnswer = (
  id: string,
  m: string,
  f: Family,
  usage: Record<string, unknown> = { prompt_tokens: 420, completion_tokens: 15, total_tokens: 435 },
) => ({
  body: sse([
    ...pieces(answerText(f)).map((t, i) => chunk(id, m, i === 0 ? { role: 'assistant', content: t } : { content: t })),
    chunk(id, m, {}, 'stop'),
    usageChunk(id, m, usage),
  ]),
});

/** A first reply that calls the family's read (as tool_calls or as text), built by `calls` for native modes. */
function firstReply(
  f: Family,
  id: string,
  m: string,
  nativeChunks: (call: { name: string; arguments: string }) => unknown[],
  textTail: unknown[],
): ReplayReply {
  const c = readCall(f);
  if (f === 'react-text')
    return {
      body: sse([
        ...pieces(c.text).map((t, i) => chunk(id, m, i === 0 ? { role: 'assistant', content: t } : { content: t })),
        ...textTail,
      ]),
    };
  return { body: sse(nativeChunks(c)) };
}

/** Where a usage shape's server puts its counts: the chunks that end the reply, given its finish reason. */
type UsageTail = (id: string, m: string, finish: 'tool_calls' | 'stop') => unknown[];

/**
 * A usage-placement shape: the family's read of a.txt (one tool_calls chunk, or the call as text), then the
 * server's own ending (`tail`), then an answer; step 1 must record `want` as reported. `roleFirst`: the server
 * opens with a role-only chunk before the call (as Moonshot's native API does).
 */
function usageShape(
  name: string,
  source: string,
  id: string,
  m: string,
  callId: string,
  tail: UsageTail,
  want: Usage,
  roleFirst = false,
): Shape2 {
  return {
    name,
    source,
    protocol: 'openai',
    families: FAMILIES,
    build(f) {
      const first = firstReply(
        f,
        id,
        m,
        (c) => [
          ...(roleFirst ? [chunk(id, m, { role: 'assistant', content: '' })] : []),
          chunk(id, m, {
            ...(roleFirst ? {} : { role: 'assistant' }),
            tool_calls: [
              { index: 0, id: callId, type: 'function', function: { name: c.name, arguments: c.arguments } },
            ],
          }),
          ...tail(id, m, 'tool_calls'),
        ],
        tail(id, m, 'stop'),
      );
      return {
        replies: [first, openaiAnswer(id, m, f)],
        expect: { status: 'answered', usage: want, requests: 2, ranOk: 1 },
      };
    },
  };
}

/** The OpenAI layout: a finish chunk, then a chunk with `usage` at the top level. */
const usageAfterFinish =
  (usage: Record<string, unknown>): UsageTail =>
  (id, m, finish) => [chunk(id, m, {}, finish), usageChunk(id, m, usage)];

// Moonshot / Kimi native API: usage inside choices[0] on the finish chunk, cached_tokens at the top level of it
// and in prompt_tokens_details (recorded chunk in AstrBotDevs/AstrBot#6614; northes/go-moonshot#17;
// higress-group/higress#1568; earendil-works/pi#2017).
const moonshot = usageShape(
  'moonshot-usage-in-choice',
  'AstrBotDevs/AstrBot#6614, northes/go-moonshot#17, earendil-works/pi#2017',
  'chatcmpl-69bbcc292af1bf47c1d8a74b',
  'kimi-k2-0905-preview',
  'read_file:0',
  (id, model, finish) => [
    {
      id,
      object: 'chat.completion.chunk',
      created: 1773915177,
      model,
      system_fingerprint: 'fpv0_e76aa377',
      choices: [
        {
          index: 0,
          delta: {},
          finish_reason: finish,
          usage: {
            prompt_tokens: 1336,
            completion_tokens: 31,
            total_tokens: 1367,
            cached_tokens: 1280,
            prompt_tokens_details: { cached_tokens: 1280 },
          },
        },
      ],
    },
  ],
  { prompt: 1336, completion: 31, total: 1367, cached: 1280 },
  true,
);

// Kimi via its OpenAI-compatible endpoint: usage at the top level with cached_tokens only at the top level
// (platform.kimi.ai/docs/api/chat; aallan/vera-bench#97, earendil-works/pi#8119).
const kimiCached = usageShape(
  'kimi-top-level-cached-tokens',
  'aallan/vera-bench#97, earendil-works/pi#8119 (Kimi API reference)',
  'chatcmpl-kimi-7c2',
  'kimi-k3',
  'functions.read_file:0',
  usageAfterFinish({ prompt_tokens: 29567, completion_tokens: 48, total_tokens: 29615, cached_tokens: 29184 }),
  { prompt: 29567, completion: 48, total: 29615, cached: 29184 },
);

// Counts as numeric strings (gateways that re-serialise usage through a string-typed schema, as the
// higress-group/higress#1568 Moonshot bridge did): the wire said them, so they are reported.
const numericStrings = usageShape(
  'usage-as-numeric-strings',
  'gateway re-serialising usage as strings (higress-group/higress#1568 bridge shape)',
  'chatcmpl-str-1',
  'moonshot-v1-8k',
  'call_s1',
  usageAfterFinish({
    prompt_tokens: '812',
    completion_tokens: '47',
    total_tokens: '859',
    prompt_tokens_details: { cached_tokens: '512' },
  }),
  { prompt: 812, completion: 47, total: 859, cached: 512 },
);

// Hugging Face TGI's OpenAI-compatible stream: delta.tool_calls is one object, not a list; id "0"; finish
// reason "eos_token" (huggingface/text-generation-inference#2145 captures; TGI messages API).
const tgi: Shape2 = {
  name: 'tgi-tool-calls-object',
  source: 'huggingface/text-generation-inference#2145 (tool_calls as an object, finish eos_token)',
  protocol: 'openai',
  families: ['react', 'code'],
  build(f) {
    const id = '';
    const m = 'meta-llama/Meta-Llama-3.1-8B-Instruct';
    const c = readCall(f);
    const half = Math.floor(c.arguments.length / 2);
    const frag = (fn: Record<string, unknown>) =>
      chunk(id, m, {
        role: 'assistant',
        content: null,
        tool_calls: { index: 0, id: '0', type: 'function', function: fn },
      });
    const first: ReplayReply = {
      body: sse([
        frag({ name: c.name, arguments: '' }),
        frag({ name: null, arguments: c.arguments.slice(0, half) }),
        frag({ name: null, arguments: c.arguments.slice(half) }),
        chunk(id, m, {}, 'eos_token'),
      ]),
    };
    return {
      replies: [first, openaiAnswer(id, m, f)],
      expect: {
        status: 'answered',
        calls: [{ name: c.name, arguments: c.arguments }],
        requests: 2,
        usage: 'estimated',
        ranOk: f === 'react' ? 1 : undefined,
      },
    };
  },
};

// LiteLLM proxy over OCI Generative AI: every fragment of the one call carries a new id and an empty name on
// index 0; the last chunk repeats yet another id with nothing in it (BerriAI/litellm#40040 capture, #28223).
const ociRelabelled: Shape2 = {
  name: 'litellm-oci-new-id-per-fragment',
  source: 'BerriAI/litellm#40040 (recorded OCI stream), BerriAI/litellm#28223',
  protocol: 'openai',
  families: ['react', 'code'],
  build(f) {
    const m = 'oci-llama';
    const c = readCall(f);
    const cut = [c.arguments.slice(0, 5), c.arguments.slice(5, 14), c.arguments.slice(14)];
    const ids = [
      'chatcmpl-tool-a91e77be296474b3',
      'call_b49ea289550d6ce098bc0017',
      'call_ed8209ffd3f30ae6f020ed82',
      'call_3f1a0c3e5b7d9e2f4a6c8b01',
    ];
    const fr = (i: number, name: string, args: string, finish: string | null = null) =>
      chunk(
        `chatcmpl-${i}-oci`,
        m,
        { tool_calls: [{ id: ids[i], function: { arguments: args, name }, type: 'function', index: 0 }] },
        finish,
      );
    const first: ReplayReply = {
      body: sse([
        chunk('chatcmpl-0-oci', m, { content: '' }),
        fr(0, c.name, ''),
        fr(1, '', cut[0]),
        fr(2, '', cut[1]),
        fr(3, '', cut[2]),
        chunk(
          'chatcmpl-9-oci',
          m,
          {
            tool_calls: [
              { id: 'call_72b4abaee3cdf325', function: { arguments: '', name: '' }, type: 'function', index: 0 },
            ],
          },
          'tool_calls',
        ),
      ]),
    };
    return {
      replies: [first, openaiAnswer('chatcmpl-a-oci', m, f)],
      expect: {
        status: 'answered',
        calls: [{ name: c.name, arguments: c.arguments }],
        requests: 2,
        ranOk: f === 'react' ? 1 : undefined,
        roundTrip: (second) => {
          const msgs = (second.body?.messages ?? []) as Record<string, unknown>[];
          const a = msgs.find((x) => x.role === 'assistant') as { tool_calls?: { id: string }[] } | undefined;
          const t = msgs.filter((x) => x.role === 'tool');
          const problems: string[] = [];
          if (a?.tool_calls?.length !== 1 || a.tool_calls[0]!.id !== ids[0])
            problems.push(`one call with the first id sent back, got ${JSON.stringify(a?.tool_calls)}`);
          if (t.length !== 1 || t[0]!.tool_call_id !== ids[0])
            problems.push(`one tool result for ${ids[0]}, got ${t.map((x) => String(x.tool_call_id)).join(', ')}`);
          return problems;
        },
      },
    };
  },
};

// A reply cut at max_tokens inside a call's arguments: finish_reason "length" (OpenAI chat completion object,
// finish_reason docs); the call is recorded as cut and not run, the model is told, and it answers next.
const lengthCut: Shape2 = {
  name: 'call-cut-by-length',
  source: 'OpenAI API reference: finish_reason "length" (max_tokens reached mid-call)',
  protocol: 'openai',
  families: ['react', 'code'],
  build(f) {
    const id = 'chatcmpl-len-1';
    const m = 'gpt-4o-mini-2024-07-18';
    const c = readCall(f);
    const partial = c.arguments.slice(0, Math.floor(c.arguments.length * 0.6));
    const first: ReplayReply = {
      body: sse([
        chunk(id, m, {
          role: 'assistant',
          content: null,
          tool_calls: [{ index: 0, id: 'call_len1', type: 'function', function: { name: c.name, arguments: '' } }],
        }),
        chunk(id, m, { tool_calls: [{ index: 0, function: { arguments: partial } }] }),
        chunk(id, m, {}, 'length'),
        usageChunk(id, m, { prompt_tokens: 300, completion_tokens: 16, total_tokens: 316 }),
      ]),
    };
    return {
      replies: [first, openaiAnswer(id, m, f)],
      expect: {
        status: 'answered',
        calls: [{ name: c.name, arguments: partial, cut: true }],
        requests: 2,
        ranOk: 0,
        usage: { prompt: 300, completion: 16, total: 316 },
      },
    };
  },
};

// Azure OpenAI: text streams with content_filter_results, then finish_reason "content_filter" with the
// filtered category (langchain4j/langchain4j#2385 stream capture; microsoft/semantic-kernel#5240, #5289).
const azureFilter: Shape2 = {
  name: 'azure-content-filter',
  source: 'langchain4j/langchain4j#2385 (Azure stream), microsoft/semantic-kernel#5240',
  protocol: 'openai',
  families: FAMILIES,
  build() {
    const id = 'chatcmpl-AnhIt2rw8vL8czymkCwEOKKTg7HPc';
    const m = 'gpt-4o-mini-2024-07-18';
    const safe = {
      hate: { filtered: false, severity: 'safe' },
      self_harm: { filtered: false, severity: 'safe' },
      sexual: { filtered: false, severity: 'safe' },
      violence: { filtered: false, severity: 'safe' },
    };
    const c = (delta: Record<string, unknown>, finish: string | null, results: unknown) => ({
      choices: [{ content_filter_results: results, delta, finish_reason: finish, index: 0, logprobs: null }],
      created: 1736407895,
      id,
      model: m,
      object: 'chat.completion.chunk',
      system_fingerprint: 'fp_5154047bf2',
    });
    const first: ReplayReply = {
      body: sse([
        {
          choices: [],
          created: 0,
          id: '',
          model: '',
          object: '',
          prompt_filter_results: [{ prompt_index: 0, content_filter_results: safe }],
        },
        c({ role: 'assistant', content: '' }, null, {}),
        c({ content: 'The file a.txt' }, null, safe),
        c({ content: ' holds' }, null, safe),
        c({}, 'content_filter', { ...safe, violence: { filtered: true, severity: 'medium' } }),
      ]),
    };
    return {
      replies: [first],
      expect: {
        status: 'refused',
        requests: 1,
        error: /finish_reason "content_filter".*violence \(medium\).*not an answer/,
      },
    };
  },
};

// OpenAI: a refusal streamed as delta.refusal with content null (OpenAI API reference, chat streaming
// choices.delta.refusal; braintrustdata/braintrust-sdk-python#258 recorded refusal; MacPaw/OpenAI#408).
const openaiRefusal: Shape2 = {
  name: 'openai-refusal-delta',
  source: 'OpenAI chat streaming delta.refusal; braintrustdata/braintrust-sdk-python#258; MacPaw/OpenAI#408',
  protocol: 'openai',
  families: FAMILIES,
  build() {
    const id = 'chatcmpl-refusal-9xQ';
    const m = 'gpt-4o-2024-08-06';
    const words = "I'm sorry, I can't help with that request.";
    const first: ReplayReply = {
      body: sse([
        chunk(id, m, { role: 'assistant', content: null, refusal: '' }),
        ...pieces(words).map((t) => chunk(id, m, { refusal: t })),
        chunk(id, m, {}, 'stop'),
        usageChunk(id, m, { prompt_tokens: 210, completion_tokens: 11, total_tokens: 221 }),
      ]),
    };
    return {
      replies: [first],
      expect: {
        status: 'refused',
        requests: 1,
        refusal: words,
        error: /The model refused: "I'm sorry, I can't help with that request\."/,
        usage: { prompt: 210, completion: 11, total: 221 },
      },
    };
  },
};

// Zero chunks, then [DONE] (an empty reply under a 200): an error retried like a broken stream; the retry answers.
const emptyReply: Shape2 = {
  name: 'empty-reply-only-done',
  source: 'experientiallabs/experiential#962 (streams that end with nothing); zero chunks then data: [DONE]',
  protocol: 'openai',
  families: FAMILIES,
  build(f) {
    const id = 'chatcmpl-empty';
    const m = 'replay';
    return { replies: [{ body: sse([]) }, openaiAnswer(id, m, f)], expect: { status: 'answered', requests: 2 } };
  },
};

// Anthropic: stop_reason "refusal" from the streaming classifiers, no content, stop_details on message_delta
// (docs.anthropic.com "Streaming refusals"; platform.claude.com handle-streaming-refusals).
const anthropicRefusal: Shape2 = {
  name: 'anthropic-stop-reason-refusal',
  source: 'Anthropic docs: Streaming refusals (stop_reason refusal, stop_details)',
  protocol: 'anthropic',
  families: FAMILIES,
  build() {
    const first = streamReply([
      event(messageStart({ input_tokens: 512, output_tokens: 1 }, 'msg_01refusal')),
      event({
        type: 'message_delta',
        delta: {
          stop_reason: 'refusal',
          stop_sequence: null,
          stop_details: {
            type: 'refusal',
            category: 'cyber',
            explanation: 'This request was declined because it could enable cyber harm.',
          },
        },
        usage: { output_tokens: 0 },
      }),
      event({ type: 'message_stop' }),
    ]);
    return {
      replies: [first],
      expect: {
        status: 'refused',
        requests: 1,
        error: /stop_reason "refusal".*category cyber: This request was declined/,
        usage: { prompt: 512, completion: 0 },
      },
    };
  },
};

// Anthropic: a server tool (web_search) runs, its input streamed as input_json_delta; the turn pauses with
// pause_turn; the client sends the turn back as it is and the server continues it (Anthropic docs: Server
// tools, "The server-side loop and pause_turn"). Usage with a 1-hour cache write and web_search_requests.
const anthropicPause: Shape2 = {
  name: 'anthropic-pause-turn-server-tool',
  source: 'Anthropic docs: Server tools (server_tool_use, pause_turn), Prompt caching (cache_creation TTLs)',
  protocol: 'anthropic',
  families: FAMILIES,
  build(f) {
    const query = '{"query": "alpha beta files"}';
    const paused = streamReply([
      event(
        messageStart(
          {
            input_tokens: 40,
            cache_creation_input_tokens: 1500,
            cache_read_input_tokens: 0,
            cache_creation: { ephemeral_5m_input_tokens: 500, ephemeral_1h_input_tokens: 1000 },
            output_tokens: 1,
          },
          'msg_01pause',
        ),
      ),
      event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Let me search first.' } }),
      event({ type: 'content_block_stop', index: 0 }),
      event({
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'server_tool_use', id: 'srvtoolu_01A2B3C4D5E6F7G8H9', name: 'web_search', input: {} },
      }),
      ...['{"que', 'ry": "alpha ', 'beta files"}'].map((partial_json) =>
        event({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json } }),
      ),
      event({ type: 'content_block_stop', index: 1 }),
      event({
        type: 'content_block_start',
        index: 2,
        content_block: {
          type: 'web_search_tool_result',
          tool_use_id: 'srvtoolu_01A2B3C4D5E6F7G8H9',
          content: [
            {
              type: 'web_search_result',
              title: 'alpha',
              url: 'https://example.com/a',
              encrypted_content: 'EqgfCioIARgB',
              page_age: null,
            },
          ],
        },
      }),
      event({ type: 'content_block_stop', index: 2 }),
      event({
        type: 'message_delta',
        delta: { stop_reason: 'pause_turn', stop_sequence: null },
        usage: { output_tokens: 60, server_tool_use: { web_search_requests: 1 } },
      }),
      event({ type: 'message_stop' }),
    ]);
    const final = streamReply([
      event(
        messageStart(
          { input_tokens: 80, cache_read_input_tokens: 1500, cache_creation_input_tokens: 0, output_tokens: 1 },
          'msg_01pause2',
        ),
      ),
      event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: answerText(f) } }),
      event({ type: 'content_block_stop', index: 0 }),
      event({
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: 20 },
      }),
      event({ type: 'message_stop' }),
    ]);
    return {
      replies: [paused, final],
      expect: {
        status: 'answered',
        requests: 2,
        usage: { prompt: 1540, completion: 60, cached: 0, cacheWrite: 1500, cacheWrite1h: 1000, webSearches: 1 },
        roundTrip: (second) => {
          const msgs = (second.body?.messages ?? []) as { role: string; content: Record<string, unknown>[] }[];
          const last = msgs[msgs.length - 1];
          if (last?.role !== 'assistant')
            return [`the paused turn goes back last, as the assistant's; got ${last?.role}`];
          const srv = last.content.find((b) => b.type === 'server_tool_use');
          const problems: string[] = [];
          if (JSON.stringify(srv?.input) !== JSON.stringify(JSON.parse(query)))
            problems.push(`server_tool_use input sent back ${JSON.stringify(srv?.input)}`);
          if (!last.content.some((b) => b.type === 'web_search_tool_result'))
            problems.push('web_search_tool_result not sent back');
          return problems;
        },
      },
    };
  },
};

export const WIRE_SHAPES_2: readonly Shape2[] = [
  moonshot,
  kimiCached,
  numericStrings,
  tgi,
  ociRelabelled,
  lengthCut,
  azureFilter,
  openaiRefusal,
  emptyReply,
  anthropicRefusal,
  anthropicPause,
];
