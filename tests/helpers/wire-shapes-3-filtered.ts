/**
 * Round three, final replies the provider refused or filtered after a step that read a.txt: Gemini's own finish
 * reasons through its OpenAI-compatible endpoint (SAFETY with no content, RECITATION after part of an answer),
 * Azure's content filter ending the stream without `data: [DONE]`, and the Messages API's stop_reason "refusal"
 * (Anthropic after part of an answer; LiteLLM's /v1/messages for a Gemini model, with an empty text block). None is
 * an answer, whatever it held, and nothing of it is retried.
 */
import type { ReplayReply } from './replay-server.js';
import { sse } from './replay-server.js';
import { event, messageStart, streamReply } from './anthropic-shapes.js';
import { chunk, created, usageChunk } from './wire-shapes.js';
import { FAMILIES, answerText, pieces, readCall, type Family } from './wire-shapes-2.js';
import { callDeltas, callFinish, textDeltas, type Expect3, type Shape3 } from './wire-shapes-3.js';
import { callTurn, textTurn } from './wire-shapes-3-anthropic.js';

/** The part of the family's answer written before the filter stopped it: it already names "alpha". */
const partOf = (f: Family) => answerText(f).slice(0, answerText(f).length - 22);

const filtered = (error: RegExp, text: string, extra: Partial<Expect3> = {}): Expect3 => ({
  status: 'refused',
  requests: 2,
  answer: '',
  error,
  retries: [],
  text: { 2: text },
  ...extra,
});

/** Gemini's OpenAI-compatible chunk: no system_fingerprint, usage on the chunk that ends the reply. */
function geminiTurns(
  f: Family,
  final: Record<string, unknown>[],
  finish: string,
  usage: Record<string, unknown>,
): ReplayReply[] {
  const m = 'gemini-2.5-flash';
  const g = (id: string, delta: Record<string, unknown>, end: string | null, u?: Record<string, unknown>) => ({
    choices: [{ delta, finish_reason: end, index: 0 }],
    created,
    id,
    model: m,
    object: 'chat.completion.chunk',
    ...(u ? { usage: u } : {}),
  });
  const c = readCall(f);
  const first: ReplayReply =
    f === 'react-text'
      ? {
          body: sse([
            g('gem-1', { role: 'assistant', content: c.text }, 'stop', {
              completion_tokens: 40,
              prompt_tokens: 2900,
              total_tokens: 2940,
            }),
          ]),
        }
      : {
          body: sse([
            g(
              'gem-1',
              {
                role: 'assistant',
                tool_calls: [
                  {
                    function: { arguments: c.arguments, name: c.name },
                    id: 'function-call-1402937722',
                    type: 'function',
                  },
                ],
              },
              'tool_calls',
              { completion_tokens: 20, prompt_tokens: 2900, total_tokens: 2920 },
            ),
          ]),
        };
  const last = final.length ? final : [{ role: 'assistant' }];
  const second: ReplayReply = {
    body: sse(last.map((d, i) => (i === last.length - 1 ? g('gem-2', d, finish, usage) : g('gem-2', d, null)))),
  };
  return [first, second];
}

// Gemini through its OpenAI-compatible endpoint passes its own finish reasons on (HKUDS/Vibe-Trading#308: "SAFETY",
// "RECITATION", … not mapped to content_filter); a streamed reply blocked for safety has no content (Gemini API
// reference, FinishReason SAFETY: "when streaming, content is empty if content filters block the output").
const geminiSafety: Shape3 = {
  name: 'gemini-final-safety-no-content',
  source:
    'Gemini API reference (FinishReason SAFETY); HKUDS/Vibe-Trading#308 (native reasons through the OpenAI-compatible endpoint)',
  protocol: 'openai',
  families: FAMILIES,
  build(f) {
    return {
      replies: geminiTurns(f, [], 'SAFETY', { completion_tokens: 0, prompt_tokens: 2980, total_tokens: 2980 }),
      expect: filtered(/finish_reason "SAFETY" \(its content filter\)/, '', {
        usage: { 2: { prompt: 2980, completion: 0, total: 2980 } },
      }),
    };
  },
};

// Gemini stopping for recitation after part of the answer streamed; its last chunk carries text too
// (topcheer/ggcode#232: the final chunk with RECITATION usually holds text parts).
const geminiRecitation: Shape3 = {
  name: 'gemini-final-recitation-after-text',
  source:
    'Gemini API reference (FinishReason RECITATION); topcheer/ggcode#232 (last chunk carries text); HKUDS/Vibe-Trading#308',
  protocol: 'openai',
  families: FAMILIES,
  build(f) {
    const part = partOf(f);
    const deltas = pieces(part).map((t, i) => (i === 0 ? { role: 'assistant', content: t } : { content: t }));
    return {
      replies: geminiTurns(f, deltas, 'RECITATION', { completion_tokens: 14, prompt_tokens: 2980, total_tokens: 2994 }),
      expect: filtered(
        /finish_reason "RECITATION" \(its content filter\).*characters of text before it are not an answer/,
        part,
      ),
    };
  },
};

// Azure OpenAI (and DeepSeek on Azure AI Foundry) ending a filtered stream with the content_filter chunk and closing
// the connection without `data: [DONE]` (experientiallabs/experiential#962); chunks carry content_filter_results.
const azureNoDone: Shape3 = {
  name: 'azure-final-content-filter-no-done',
  source:
    'experientiallabs/experiential#962 (content_filter chunk, then the stream closes without [DONE]); Azure OpenAI content filtering docs',
  protocol: 'openai',
  families: FAMILIES,
  build(f) {
    const m = 'gpt-4o-2024-11-20';
    const safe = {
      hate: { filtered: false, severity: 'safe' },
      self_harm: { filtered: false, severity: 'safe' },
      sexual: { filtered: false, severity: 'safe' },
      violence: { filtered: false, severity: 'safe' },
    };
    const az = (id: string, delta: Record<string, unknown>, finish: string | null, results: unknown) => ({
      choices: [{ content_filter_results: results, delta, finish_reason: finish, index: 0, logprobs: null }],
      created,
      id,
      model: m,
      object: 'chat.completion.chunk',
      system_fingerprint: 'fp_ee1d74bde0',
    });
    const first: ReplayReply = {
      body: sse([
        ...callDeltas(f, 'call_az1').map((d) => chunk('chatcmpl-az1', m, d)),
        chunk('chatcmpl-az1', m, {}, callFinish(f)),
        usageChunk('chatcmpl-az1', m, { prompt_tokens: 380, completion_tokens: 22, total_tokens: 402 }),
      ]),
    };
    const part = partOf(f);
    const second: ReplayReply = {
      body: sse(
        [
          ...textDeltas(part).map((d) => az('chatcmpl-az2', d, null, safe)),
          az('chatcmpl-az2', {}, 'content_filter', { ...safe, violence: { filtered: true, severity: 'medium' } }),
        ],
        { done: false },
      ),
    };
    return {
      replies: [first, second],
      expect: filtered(/finish_reason "content_filter" \(its content filter\).*violence \(medium\)/, part),
    };
  },
};

// The Messages API: stop_reason "refusal" after part of the reply (Anthropic docs, Handling stop reasons: refusal,
// "the model declined to continue"; streaming classifiers stop a reply already under way).
const anthropicRefusal: Shape3 = {
  name: 'anthropic-final-refusal-after-text',
  source: 'Anthropic docs: Handling stop reasons (refusal), streaming refusals',
  protocol: 'anthropic',
  families: FAMILIES,
  build(f) {
    const part = partOf(f);
    return {
      replies: [callTurn(f, 'msg_01refA'), textTurn('msg_01refB', part, 'refusal', 520, 12)],
      expect: filtered(/stop_reason "refusal" \(a refusal\).*characters of text before it are not an answer/, part),
    };
  },
};

// LiteLLM's /v1/messages for a Gemini model that filtered the reply: message_start with zero usage, an empty text
// block, stop_reason "refusal" and 0 output tokens (BerriAI/litellm#40864, recorded with curl).
const litellmGeminiRefusal: Shape3 = {
  name: 'litellm-messages-gemini-refusal-empty',
  source: 'BerriAI/litellm#40864 (recorded /v1/messages stream)',
  protocol: 'anthropic',
  families: FAMILIES,
  build(f) {
    const second = streamReply([
      event(
        messageStart(
          { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
          'msg_589b92b0-1816-476a-b109-4bdea4b0f87e',
        ),
      ),
      event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      event({ type: 'content_block_stop', index: 0 }),
      event({
        type: 'message_delta',
        delta: { stop_reason: 'refusal' },
        usage: { input_tokens: 519, output_tokens: 0 },
      }),
      event({ type: 'message_stop' }),
    ]);
    return {
      replies: [callTurn(f, 'msg_01llgA'), second],
      expect: filtered(/stop_reason "refusal" \(a refusal\)/, ''),
    };
  },
};

export const WIRE_SHAPES_3_FILTERED: readonly Shape3[] = [
  geminiSafety,
  geminiRecitation,
  azureNoDone,
  anthropicRefusal,
  litellmGeminiRefusal,
];
