/**
 * The cost of reading a streamed reply: Parallax's wire reader (eventsource-parser, JSON per event, tool-call
 * assembly, usage, completeness checks) next to the openai SDK's own stream parser (Stream.fromSSEResponse)
 * on the same bytes, per chunk and per step. Two steps are measured: a text answer of 400 deltas, and a reply
 * with reasoning deltas and two parallel tool calls whose arguments arrive in 8-character fragments. Bytes
 * reach both parsers in 1.5 KB pieces, as from a socket. The SDK baseline folds nothing (it only parses), so
 * the ratio is an upper bound of what Parallax adds.
 */
import { Stream } from 'openai/core/streaming';
import type { ProviderInfo } from '../shared/run-spec.js';
import { StreamAccumulator } from '../electron/engine/provider/stream-accumulator.js';
import { readReply, type ReadState } from '../electron/engine/provider/wire-reader.js';

const ROUNDS = 41;
const PIECE = 1536;
const PROVIDER: ProviderInfo = { name: 'bench', baseUrl: 'http://127.0.0.1:1/v1', model: 'bench', simulated: false };

const head = {
  id: 'chatcmpl-bench',
  object: 'chat.completion.chunk',
  created: 1773345615,
  model: 'gpt-4o-2024-08-06',
  system_fingerprint: 'fp_5050236cbd',
};
const event = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
const usage = `data: ${JSON.stringify({ ...head, choices: [], usage: { prompt_tokens: 1812, completion_tokens: 420, total_tokens: 2232, prompt_tokens_details: { cached_tokens: 1024 } } })}\n\n`;

function textStep(): string[] {
  const words = 'The log folder holds five files; app.log has 120 lines of which 7 are ERROR lines, and so on. '.split(
    ' ',
  );
  const events = [event({ role: 'assistant', content: '' })];
  for (let i = 0; i < 400; i++) events.push(event({ content: `${words[i % words.length]} ` }));
  return [...events, event({}, 'stop'), usage, 'data: [DONE]\n\n'];
}

function toolStep(): string[] {
  const events = [event({ role: 'assistant', content: null })];
  for (let i = 0; i < 120; i++) events.push(event({ reasoning_content: `thought ${i} ` }));
  const args = [
    JSON.stringify({ path: 'logs/app-2026-11-30.log', encoding: 'utf8', maxLines: 5000 }),
    JSON.stringify({ url: 'http://127.0.0.1:8080/page?q=parallax&lang=en' }),
  ];
  args.forEach((a, index) => {
    events.push(
      event({
        tool_calls: [
          {
            index,
            id: `call_${index}x7Yq2`,
            type: 'function',
            function: { name: index ? 'fetch_url' : 'read_file', arguments: '' },
          },
        ],
      }),
    );
    for (let i = 0; i < a.length; i += 8)
      events.push(event({ tool_calls: [{ index, function: { arguments: a.slice(i, i + 8) } }] }));
  });
  return [...events, event({}, 'tool_calls'), usage, 'data: [DONE]\n\n'];
}

function response(bytes: Uint8Array): Response {
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(ctl) {
      if (at >= bytes.length) return ctl.close();
      ctl.enqueue(bytes.subarray(at, (at += PIECE)));
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

async function ours(bytes: Uint8Array, chunks: number): Promise<number> {
  const acc = new StreamAccumulator(new Set(['read_file', 'fetch_url']));
  const state: ReadState = { dataEvents: 0, comments: 0, sawDone: false };
  const t0 = performance.now();
  await readReply(response(bytes), acc, {
    provider: PROVIDER,
    onData: () => undefined,
    interrupted: new Promise<never>(() => undefined),
    state,
  });
  const r = acc.result();
  const ms = performance.now() - t0;
  if (r.chunks !== chunks || !r.usage || (r.finishReason === 'tool_calls' && r.toolCalls.length !== 2))
    throw new Error('the wire reader misread the bench stream');
  return ms;
}

async function sdk(bytes: Uint8Array, chunks: number): Promise<number> {
  const t0 = performance.now();
  let n = 0;
  for await (const c of Stream.fromSSEResponse(response(bytes), new AbortController())) if (c) n++;
  const ms = performance.now() - t0;
  if (n !== chunks) throw new Error('the SDK misread the bench stream');
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;

export default async function bench(): Promise<void> {
  for (const [label, events] of [
    ['text answer', textStep()],
    ['reasoning + 2 tool calls', toolStep()],
  ] as const) {
    const bytes = new TextEncoder().encode(events.join(''));
    const chunks = events.length - 1; // [DONE] is not a chunk
    const a: number[] = [],
      b: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      // Alternate the order so that neither side always runs on a warmer heap.
      if (i % 2) {
        a.push(await ours(bytes, chunks));
        b.push(await sdk(bytes, chunks));
      } else {
        b.push(await sdk(bytes, chunks));
        a.push(await ours(bytes, chunks));
      }
    }
    const ma = median(a),
      mb = median(b);
    console.log(`${label}: ${chunks} chunks, ${(bytes.length / 1024).toFixed(1)} KB per step`);
    console.log(
      `  parallax wire reader  ${ma.toFixed(2)} ms per step, ${us(ma / chunks)} per chunk (parse + fold + checks)`,
    );
    console.log(`  openai SDK Stream     ${mb.toFixed(2)} ms per step, ${us(mb / chunks)} per chunk (parse only)`);
    console.log(`  ratio parallax / SDK  ${(ma / mb).toFixed(2)}×  (median of ${ROUNDS})`);
  }
}
