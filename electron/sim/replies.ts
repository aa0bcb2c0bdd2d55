/**
 * The simulated model's replies: the request parsed, the policy's reply planned (faults applied), its usage
 * counted (tokens/count-tokens.ts) and sent as a chat completion or a Message. Apart from the server
 * (sim-server.ts), which loads this module with its first request: the counting holds the tokenizer
 * (gpt-tokenizer, 2.7 MB, ~0.2 s of CPU to load) and the parsers build their schemas as they load, and the host of a
 * comparison starts the server before its workers' first requests, on the same cores as they load.
 */
import type { ServerResponse } from 'node:http';
import { isSummaryRequest, summaryText } from './policies/history-summary.js';
import { textOf } from './types.js';
import { SIM_POLICY_HEADER, type SimFault } from '../../shared/run-spec.js';
import { TUTORIAL_TEMPLATE, type SimAccounting } from './accounting.js';
import { countCompletionTokens, countPromptTokens, type CountableMessage } from '../engine/tokens/count-tokens.js';
import { injectReplyFaults, withRecoveryNote } from './faults.js';
import { decide } from './policies/index.js';
import { TASKS } from '../tasks/index.js';
import type { Task } from '../tasks/task.js';
import { cutAtStop } from './policies/react-text.js';
import { requestModeOf } from './policies/sim-modes.js';
import { answer } from './types.js';
import { parseChatRequest, type ChatRequest } from './request.js';
import { thoughtFor } from './thinking.js';
import { completionBody, sendJson, streamChunks, type BuiltReply } from './wire.js';
import { simModelOf } from '../../shared/sim-models.js';
import {
  messageBody,
  messageEvents,
  messagesUsage,
  parseMessagesRequest,
  PromptCache,
  type MessagesRequest,
} from './messages-api.js';

/** What one request asks for beyond its body: its faults, its trial (the policies' variation) and its accounting. */
export interface ReplyContext {
  readonly faults: ReadonlySet<SimFault>;
  readonly trial: number;
  readonly accounting: SimAccounting;
  /** The server's count of replies so far, for the reply's id. */
  readonly n: number;
}

export interface Replier {
  /** The body as a request of the API asked (the Messages API or chat completions); throws BadRequest with what to fix. */
  parse(text: string, messagesApi: boolean): ChatRequest | MessagesRequest;
  send(res: ServerResponse, request: ChatRequest | MessagesRequest, ctx: ReplyContext): void;
}

/** One server's replies: the tasks its policies know, and one prompt cache for the server, as a provider's is for an organisation. */
export function createReplier(tasks: readonly Task[] = TASKS): Replier {
  // Later trials of a mode read what earlier ones wrote.
  const promptCache = new PromptCache();
  return {
    parse: (text, messagesApi) => (messagesApi ? parseMessagesRequest(text) : parseChatRequest(text)),
    send(res, request, { faults, trial, accounting, n }) {
      if ('cache' in request)
        replyMessages(res, request, faults, trial, accounting, `msg_sim_${n}`, promptCache, tasks);
      else reply(res, request, faults, trial, accounting, `chatcmpl-sim-${n}`, tasks);
    },
  };
}

/** The prompt's tokens as the accounting counts them (accounting.ts): the request's own, plus the tutorial's template. */
function simPromptTokens(
  messages: readonly CountableMessage[],
  tools: readonly unknown[] | undefined,
  accounting: SimAccounting,
): number {
  const counted = countPromptTokens(messages, tools);
  if (accounting === 'openai' || !tools || tools.length === 0) return counted;
  return counted + TUTORIAL_TEMPLATE.perRequestWithTools + TUTORIAL_TEMPLATE.perTool * tools.length;
}

/** A reply that may call no tool: the calls the policy would make, as a numbered plan. */
function planText(calls: readonly { readonly name: string; readonly arguments: string }[]): string {
  const lines = calls.map((c, i) => `${i + 1}. Call ${c.name} with ${c.arguments}.`);
  return [
    'Plan:',
    ...lines,
    `${calls.length + 1}. Answer from what ${calls.length === 1 ? 'it returns' : 'they return'}.`,
  ].join('\n');
}

/**
 * The policy's reply to a conversation, with faults applied and ids given to its calls. A mode that calls tools
 * in text (its `text` in policies/modes/) is decided in native form and written back as text, cut at the
 * request's stop sequences.
 */
function plan(
  messages: ChatRequest['messages'],
  tools: ChatRequest['tools'],
  stop: readonly string[],
  faults: ReadonlySet<SimFault>,
  trial: number,
  idPrefix: string,
  model: string | undefined,
  tasks: readonly Task[],
  noCalls = false,
) {
  // The history knob's summary request (summarize:K) is answered with a summary, before any task policy or fault.
  if (isSummaryRequest(messages))
    return {
      text: summaryText(textOf([...messages].reverse().find((m) => m.role === 'user')?.content ?? '')),
      calls: [],
      policy: true,
      stopSequence: null,
    };
  const text = requestModeOf(messages, tools).text;
  const native = text?.nativeForm(messages, tools) ?? null;
  const {
    reply: planned,
    conv,
    policy,
  } = decide(native?.messages ?? messages, native?.tools ?? tools, trial, simModelOf(model), tasks);
  let final = injectReplyFaults(withRecoveryNote(planned, conv), conv, faults);
  // Calls ruled out (tool_choice "none"): the calls the policy would make are written as the plan instead.
  if (noCalls && final.kind === 'tools') final = answer(planText(final.calls));
  if (native && text) final = answer(text.writeReply(final, trial));
  let stopSequence: string | null = null;
  if (stop.length && final.kind === 'text') {
    const cut = cutAtStop(final.text, stop);
    if (cut !== final.text) stopSequence = stop.find((s) => s !== '' && final.text.startsWith(s, cut.length)) ?? null;
    final = answer(cut);
  }
  const step = messages.filter((m) => m.role === 'assistant').length + 1;
  const calls = final.kind === 'tools' ? final.calls.map((c, i) => ({ ...c, id: `${idPrefix}_${step}_${i}` })) : [];
  return { text: final.text, calls, policy, stopSequence };
}

function reply(
  res: ServerResponse,
  request: ChatRequest,
  faults: ReadonlySet<SimFault>,
  trial: number,
  accounting: SimAccounting,
  id: string,
  tasks: readonly Task[],
): void {
  const planned = plan(
    request.messages,
    request.tools,
    request.stop,
    faults,
    trial,
    'call',
    request.model,
    tasks,
    request.noCalls,
  );
  const { calls, policy } = planned;
  // The tutorial's provider thinks before every reply; a tool-call turn's "why" is then in its reasoning.
  const reasoning = accounting === 'tutorial' && policy ? thoughtFor(request.messages, planned.text, calls) : '';
  const text = reasoning && calls.length > 0 ? '' : planned.text;
  const prompt = simPromptTokens(request.messages, request.rawTools, accounting);
  const completion = countCompletionTokens(text, calls, reasoning);
  const built: BuiltReply = {
    id,
    created: Math.floor(Date.now() / 1000),
    text,
    calls,
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    ...(reasoning ? { reasoning } : {}),
  };
  res.setHeader('x-parallax-simulated', 'true');
  if (!policy) res.setHeader(SIM_POLICY_HEADER, 'none');
  if (!request.stream) return sendJson(res, 200, completionBody(built));
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  for (const chunk of streamChunks(built, request.includeUsage)) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
  res.end('data: [DONE]\n\n');
}

/** The Messages API reply: the same policy and count, the prompt split by what the cache served. */
function replyMessages(
  res: ServerResponse,
  request: MessagesRequest,
  faults: ReadonlySet<SimFault>,
  trial: number,
  accounting: SimAccounting,
  id: string,
  cache: PromptCache,
  tasks: readonly Task[],
): void {
  const { text, calls, policy, stopSequence } = plan(
    request.messages,
    request.tools,
    request.stop,
    faults,
    trial,
    'toolu_sim',
    request.model,
    tasks,
  );
  const prompt = simPromptTokens(request.messages, request.tools.length ? request.tools : undefined, accounting);
  const built = { id, text, calls, stopSequence, usage: messagesUsage(prompt, cache.use(request.cache), text, calls) };
  res.setHeader('x-parallax-simulated', 'true');
  res.setHeader('request-id', `req_${id}`);
  if (!policy) res.setHeader(SIM_POLICY_HEADER, 'none');
  if (!request.stream) return sendJson(res, 200, messageBody(built));
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  for (const event of messageEvents(built)) res.write(event);
  res.end();
}
