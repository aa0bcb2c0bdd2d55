/**
 * One comparison whose cheaper runs end in replies that are no answers, for the tests of every surface that shows
 * a result: ReAct reads a.txt and answers; Code Mode reads it and its final reply is cut at the token limit
 * (finish_reason "length") in the middle of a right-looking answer; ReAct (text) reads it and its final reply is
 * empty (finish_reason "stop", as Gemini ends one). Each step reports usage and a cost (OpenRouter's `usage.cost`),
 * and the two failing runs cost less and spend fewer tokens than the one that answered. The replay script tells the
 * runs apart by what they offer: run_code is Code Mode's, no tools at all is ReAct (text)'s. `filteredScript` is the
 * same comparison with the two final replies refused or filtered after most of a right-looking answer: Code Mode's
 * by Azure's content filter (the stream closes without [DONE]), ReAct (text)'s by Gemini's RECITATION (its own
 * finish reason, as Gemini's OpenAI-compatible endpoint passes it on), after a "Final Answer:" line.
 */
import type { RecordedRequest, ReplayReply } from './replay-server.js';
import { sse } from './replay-server.js';
import { ANSWER, chunk, usageChunk } from './wire-shapes.js';
import { answerText, pieces, readCall, type Family } from './wire-shapes-2.js';

/** The answer's first 28 characters: "a.txt holds "alpha"; b.txt h" — it names alpha, so a loose check would pass it. */
export const CUT = ANSWER.slice(0, 28);

const familyOf = (req: RecordedRequest): Family => {
  const tools = (req.body?.tools ?? []) as { function?: { name?: string } }[];
  if (tools.length === 0) return 'react-text';
  return tools.some((t) => t.function?.name === 'run_code') ? 'code' : 'react';
};

const usage = (prompt: number, completion: number) => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
  cost: (prompt * 0.4 + completion * 1.6) / 1e6,
});

function reply(id: string, deltas: Record<string, unknown>[], finish: string, u: Record<string, unknown>): ReplayReply {
  return {
    body: sse([
      ...deltas.map((d) => chunk(id, 'replay', d)),
      chunk(id, 'replay', {}, finish),
      usageChunk(id, 'replay', u),
    ]),
  };
}

/** The reply to one request: step 1 reads a.txt in each family's way, step 2 ends the run as described above. */
export function unfinishedScript(req: RecordedRequest): ReplayReply {
  return script(req, false);
}

/** The same comparison where every run answers: the baseline a diff holds the others against. */
export function answeredScript(req: RecordedRequest): ReplayReply {
  return script(req, null);
}

/** As unfinishedScript, but the two final replies are filtered (see above). */
export function filteredScript(req: RecordedRequest): ReplayReply {
  return script(req, true);
}

/** The fragment ReAct (text)'s filtered reply holds: a "Final Answer:" line as far as CUT. */
export const FILTERED_TEXT = `Thought: I know it now.\nFinal Answer: ${CUT}`;

function script(req: RecordedRequest, filtered: boolean | null): ReplayReply {
  const f = familyOf(req);
  const step = ((req.body?.messages ?? []) as { role: string }[]).filter((m) => m.role === 'assistant').length + 1;
  const c = readCall(f);
  if (step === 1) {
    const deltas =
      f === 'react-text'
        ? pieces(c.text).map((t) => ({ content: t }))
        : [
            {
              role: 'assistant',
              content: null,
              tool_calls: [
                { index: 0, id: `call_${f}_1`, type: 'function', function: { name: c.name, arguments: c.arguments } },
              ],
            },
          ];
    return reply(
      `chatcmpl-${f}-1`,
      deltas,
      f === 'react-text' ? 'stop' : 'tool_calls',
      usage(f === 'react' ? 2400 : 600, 20),
    );
  }
  if (f === 'react' || filtered === null)
    return reply(
      `chatcmpl-${f}-2`,
      pieces(answerText(f)).map((t) => ({ content: t })),
      'stop',
      usage(2600, 15),
    );
  if (filtered && f === 'code') {
    const filter = (v: boolean) => ({
      hate: { filtered: false, severity: 'safe' },
      violence: { filtered: v, severity: v ? 'medium' : 'safe' },
    });
    const az = (d: Record<string, unknown>, finish: string | null, v: boolean) => ({
      ...chunk('chatcmpl-code-2', 'replay', d, finish),
      choices: [{ content_filter_results: filter(v), delta: d, finish_reason: finish, index: 0, logprobs: null }],
      usage: finish ? usage(700, 12) : null,
    });
    return {
      body: sse([...pieces(CUT).map((t) => az({ content: t }, null, false)), az({}, 'content_filter', true)], {
        done: false,
      }),
    };
  }
  if (filtered)
    return reply(
      'chatcmpl-text-2',
      pieces(FILTERED_TEXT).map((t) => ({ content: t })),
      'RECITATION',
      usage(650, 14),
    );
  if (f === 'code')
    return reply(
      'chatcmpl-code-2',
      pieces(CUT).map((t) => ({ content: t })),
      'length',
      usage(700, 12),
    );
  return reply('chatcmpl-text-2', [{ role: 'assistant' }], 'stop', usage(650, 0));
}
