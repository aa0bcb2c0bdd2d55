/**
 * The simulated model: an OpenAI-compatible chat-completions server on 127.0.0.1, which also answers
 * Anthropic's Messages API (messages-api.ts) from the same policies. Replies come from the
 * scripted policies (policies/), usage is counted from the request received and the reply sent
 * (tokens/count-tokens.ts), and faults can be injected per request (x-parallax-sim-faults) or server-wide.
 * The trial number (x-parallax-sim-trial, absent = 1) picks the policies' variation, so the server stays pure.
 */
import { isSummaryRequest, summaryText } from './policies/history-summary.js';
import { textOf } from './types.js';
import { SIM_POLICY_HEADER } from '../../shared/run-spec.js';
import { ACCOUNTING_HEADER, parseAccounting, simPromptTokens, type SimAccounting } from './accounting.js';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { SimFault } from '../../shared/run-spec.js';
import { countCompletionTokens } from '../engine/tokens/count-tokens.js';
import {
  FAULTS_HEADER,
  RUN_ID_HEADER,
  TRIAL_HEADER,
  injectReplyFaults,
  parseFaults,
  parseTrial,
  withRecoveryNote,
} from './faults.js';
import { decide } from './policies/index.js';
import { TASKS } from '../tasks/index.js';
import type { Task } from '../tasks/task.js';
import { cutAtStop } from './policies/react-text.js';
import { requestModeOf } from './policies/sim-modes.js';
import { answer } from './types.js';
import { BadRequest, parseChatRequest, type ChatRequest } from './request.js';
import { thoughtFor } from './thinking.js';
import { completionBody, errorBody, modelObject, streamChunks, type BuiltReply } from './wire.js';
import { isSimModel, SIM_MODEL_IDS, simModelOf } from '../../shared/sim-models.js';
import {
  messageBody,
  messageEvents,
  messagesErrorBody,
  messagesUsage,
  parseMessagesRequest,
  PromptCache,
  type MessagesRequest,
} from './messages-api.js';

export interface SimServerOptions {
  /** 0 (default) picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1: the simulated model is for this machine only. */
  readonly host?: string;
  /** Faults applied to every request, in addition to those named in the header. */
  readonly faults?: readonly SimFault[];
  /** The tasks it knows (default: the built-in ones, electron/tasks/); a test adds its own to check the recipe. */
  readonly tasks?: readonly Task[];
}

export interface SimServer {
  /** Base URL including /v1, e.g. http://127.0.0.1:43123/v1. */
  readonly url: string;
  readonly port: number;
  /** Requests held open by the 'hang' fault that the client has not abandoned yet. */
  hangingRequests(): number;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 32 * 1024 * 1024;
/** Run ids remembered for '429-once'; the oldest are forgotten past this. */
const MAX_REMEMBERED_RUNS = 10_000;
const RETRY_AFTER_MS = 200;
/** How long the 'slow' fault waits before each reply: about a real model's time to first token, and long enough that a loaded machine still shows a run's steps one by one. */
export const SLOW_REPLY_MS = 1000;

export async function startSimServer(opts: SimServerOptions = {}): Promise<SimServer> {
  const serverFaults = opts.faults ? parseFaults([...opts.faults]) : [];
  const tasks = opts.tasks ?? TASKS;
  const seenRuns = new Set<string>();
  // One cache for the server, as a provider's is for an organisation: later trials of a mode read what earlier ones wrote.
  const promptCache = new PromptCache();
  const hanging = new Set<ServerResponse>();
  let counter = 0;

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        sendJson(
          res,
          500,
          errorBody(`Simulated model failed: ${(error as Error).message}`, 'server_error', 'internal_error'),
        );
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname.replace(/\/+$/, '');
    if (req.method === 'GET' && path === '/v1/models')
      return sendJson(res, 200, { object: 'list', data: SIM_MODEL_IDS.map(modelObject) });
    const named = /^\/v1\/models\/(.+)$/.exec(path)?.[1];
    if (req.method === 'GET' && named !== undefined && isSimModel(decodeURIComponent(named)))
      return sendJson(res, 200, modelObject(decodeURIComponent(named)));
    const messagesApi = path === '/v1/messages';
    if (path !== '/v1/chat/completions' && !messagesApi) {
      return sendJson(
        res,
        404,
        errorBody(
          `Unknown endpoint ${req.method} ${path || '/'}. The simulated model serves GET /v1/models, POST /v1/chat/completions and POST /v1/messages.`,
          'invalid_request_error',
          'unknown_url',
        ),
      );
    }
    // Errors in the shape of the API asked.
    const fail = (status: number, message: string, type: string, code: string | null, param: string | null = null) =>
      sendJson(res, status, messagesApi ? messagesErrorBody(message, type) : errorBody(message, type, code, param));
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return fail(405, `Use POST for ${path}, not ${req.method}.`, 'invalid_request_error', 'method_not_allowed');
    }

    let faults: Set<SimFault>;
    try {
      faults = new Set([...serverFaults, ...parseFaults(req.headers[FAULTS_HEADER])]);
    } catch (error) {
      return fail(400, (error as Error).message, 'invalid_request_error', 'invalid_fault', FAULTS_HEADER);
    }
    let trial: number;
    try {
      trial = parseTrial(req.headers[TRIAL_HEADER]);
    } catch (error) {
      return fail(400, (error as Error).message, 'invalid_request_error', 'invalid_trial', TRIAL_HEADER);
    }
    let accounting: SimAccounting;
    try {
      accounting = parseAccounting(req.headers[ACCOUNTING_HEADER]);
    } catch (error) {
      return fail(400, (error as Error).message, 'invalid_request_error', 'invalid_accounting', ACCOUNTING_HEADER);
    }
    const text = await readBody(req, res);
    if (text === null) return;
    let request: ChatRequest | MessagesRequest;
    try {
      request = messagesApi ? parseMessagesRequest(text) : parseChatRequest(text);
    } catch (error) {
      if (!(error instanceof BadRequest)) throw error;
      return fail(400, error.message, 'invalid_request_error', error.code, error.param);
    }

    const runId = String(req.headers[RUN_ID_HEADER] ?? '');
    if (faults.has('429-once') && !seenRuns.has(runId)) {
      remember(seenRuns, runId);
      res.setHeader('retry-after', String(Math.ceil(RETRY_AFTER_MS / 1000)));
      res.setHeader('retry-after-ms', String(RETRY_AFTER_MS));
      return fail(
        429,
        'Rate limit reached (simulated 429-once fault). Retry after the delay in the Retry-After header.',
        'rate_limit_error',
        'rate_limit_exceeded',
      );
    }
    remember(seenRuns, runId);
    if (faults.has('500')) {
      return fail(
        500,
        'The simulated model is failing on purpose (fault "500"). Remove the fault to get answers.',
        'server_error',
        'simulated_failure',
      );
    }
    if (faults.has('hang')) {
      // Accept and never answer; forget the request once the client gives up (or close() ends it).
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if (faults.has('slow')) await slowStart(res);
    if (res.destroyed) return;
    if ('cache' in request)
      replyMessages(res, request, faults, trial, accounting, `msg_sim_${++counter}`, promptCache, tasks);
    else reply(res, request, faults, trial, accounting, `chatcmpl-sim-${++counter}`, tasks);
  }

  // Long idle keep-alive: a client that pauses between steps (slow tools) must not race a closing socket.
  server.keepAliveTimeout = 60_000;
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`Port ${opts.port} is already in use. Choose another port, or 0 for any free one.`)
          : error,
      );
    });
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port, address } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}/v1`,
    port,
    hangingRequests: () => hanging.size,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
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

/** The 'slow' fault: a real model's pause before its reply, so a run's steps arrive one by one as they would live. */
function slowStart(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, SLOW_REPLY_MS);
    res.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function remember(seen: Set<string>, runId: string): void {
  if (seen.has(runId)) return;
  seen.add(runId);
  if (seen.size > MAX_REMEMBERED_RUNS) seen.delete(seen.values().next().value as string);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'x-parallax-simulated': 'true',
  });
  res.end(text);
}

/** The body as text, or null after answering 413 when it is too large. */
function readBody(req: IncomingMessage, res: ServerResponse): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        done = true;
        res.setHeader('connection', 'close');
        sendJson(
          res,
          413,
          errorBody(
            `The request body is over ${MAX_BODY_BYTES / 1024 / 1024} MB. Send a shorter conversation.`,
            'invalid_request_error',
            'request_too_large',
          ),
        );
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!done) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
}
