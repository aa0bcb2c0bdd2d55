/**
 * The simulated model: an OpenAI-compatible chat-completions server on 127.0.0.1, which also answers
 * Anthropic's Messages API (messages-api.ts) from the same policies. Replies come from the
 * scripted policies (policies/), usage is counted from the request received and the reply sent
 * (tokens/count-tokens.ts), and faults can be injected per request (x-parallax-sim-faults) or server-wide.
 * The trial number (x-parallax-sim-trial, absent = 1) picks the policies' variation, so the server stays pure.
 * This file is the HTTP side; what answers a request (replies.ts) loads with the first request, not the server.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { SimFault } from '../../shared/run-spec.js';
import { ACCOUNTING_HEADER, parseAccounting, type SimAccounting } from './accounting.js';
import { FAULTS_HEADER, RUN_ID_HEADER, TRIAL_HEADER, parseFaults, parseTrial } from './faults.js';
import type { Task } from '../tasks/task.js';
import type { ChatRequest } from './request.js';
import type { MessagesRequest } from './messages-api.js';
import type { Replier } from './replies.js';
import { BadRequest, errorBody, messagesErrorBody, modelObject, sendJson } from './wire.js';
import { isSimModel, SIM_MODEL_IDS } from '../../shared/sim-models.js';

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
  const seenRuns = new Set<string>();
  // The replies load with the first request that has a body to answer (replies.ts says why not with the server).
  let replier: Promise<Replier> | null = null;
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
    replier ??= loadReplier(opts.tasks);
    const replies = await replier;
    let request: ChatRequest | MessagesRequest;
    try {
      request = replies.parse(text, messagesApi);
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
    replies.send(res, request, { faults, trial, accounting, n: ++counter });
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

async function loadReplier(tasks: readonly Task[] | undefined): Promise<Replier> {
  const { createReplier } = await import('./replies.js');
  return createReplier(tasks);
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
