/**
 * A loopback HTTP server that replays recorded provider replies byte for byte: status, headers, body pieces
 * with waits between them, and how the connection ends (closed, left hanging, reset). It records every
 * request it receives (headers and JSON body) so tests can check what the client sent back.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One piece of a body: text written at once, or a pause before the next piece. */
export type BodyPart = string | { readonly waitMs: number };

export interface ReplayReply {
  /** HTTP status; 200 when absent. */
  readonly status?: number;
  /** Response headers; `content-type: text/event-stream` when absent. */
  readonly headers?: Record<string, string>;
  readonly body?: readonly BodyPart[];
  /**
   * After the body: 'end' closes the response normally (default), 'hang' keeps the connection open and
   * silent, 'reset' destroys the socket without ending the chunked body.
   */
  readonly end?: 'end' | 'hang' | 'reset';
  /** After the body, write this SSE comment every `everyMs` until the client goes away (keep-alive trickle). */
  readonly trickle?: { readonly everyMs: number; readonly comment?: string };
  /** After the body, write one data chunk every `everyMs` until the client goes away. */
  readonly drip?: { readonly everyMs: number; readonly data: string };
}

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly raw: string;
  /** The JSON body, or null when it was not JSON. */
  readonly body: Record<string, unknown> | null;
}

/** The reply for the n-th chat-completion request (0-based). A list replays in order and repeats its last entry. */
export type ReplayScript = readonly ReplayReply[] | ((req: RecordedRequest, n: number) => ReplayReply);

export interface ReplayServer {
  /** Base URL ending in /v1. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Model requests only (chat completions, Anthropic messages), in order. */
  chatRequests(): RecordedRequest[];
  close(): Promise<void>;
}

const SSE = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

/** An SSE body of `data:` events, one per chunk, optionally closed by `data: [DONE]`. */
export function sse(chunks: readonly unknown[], opts: { done?: boolean } = {}): string[] {
  const out = chunks.map((c) => `data: ${typeof c === 'string' ? c : JSON.stringify(c)}\n\n`);
  if (opts.done !== false) out.push('data: [DONE]\n\n');
  return out;
}

/** A JSON reply with the given status (error bodies, non-streamed completions). */
export function jsonReply(status: number, body: unknown, headers: Record<string, string> = {}): ReplayReply {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: [JSON.stringify(body)] };
}

/** A chat-completions request, or an Anthropic Messages API request (`POST …/v1/messages`). */
const isModelRequest = (path: string) => path.endsWith('/chat/completions') || /\/messages(\?|$)/.test(path);

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function writeReply(res: ServerResponse, reply: ReplayReply, socket: Socket): Promise<void> {
  res.writeHead(reply.status ?? 200, reply.headers ?? SSE);
  res.flushHeaders();
  let gone = false;
  socket.once('close', () => (gone = true));
  for (const part of reply.body ?? []) {
    if (gone) return;
    if (typeof part === 'string') res.write(part);
    else await wait(part.waitMs);
  }
  const repeat = reply.trickle
    ? { everyMs: reply.trickle.everyMs, text: `: ${reply.trickle.comment ?? 'keep-alive'}\n\n` }
    : reply.drip
      ? { everyMs: reply.drip.everyMs, text: `data: ${reply.drip.data}\n\n` }
      : null;
  if (repeat) {
    while (!gone) {
      await wait(repeat.everyMs);
      if (!gone) res.write(repeat.text);
    }
    return;
  }
  if (reply.end === 'hang') return;
  if (reply.end === 'reset') {
    socket.destroy();
    return;
  }
  res.end();
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startReplayServer(script: ReplayScript): Promise<ReplayServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let n = 0;
  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      let body: Record<string, unknown> | null = null;
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        body = null;
      }
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        raw,
        body,
      };
      requests.push(recorded);
      // Only model requests (chat completions, Anthropic messages) are replayed; anything else (a GET /models probe) is a plain 404.
      if (!isModelRequest(recorded.path)) {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: `No route ${recorded.path}` } }));
        return;
      }
      const i = n++;
      const reply = typeof script === 'function' ? script(recorded, i) : script[Math.min(i, script.length - 1)];
      await writeReply(res, reply, req.socket);
    })().catch(() => res.destroy());
  });
  // Node closes an idle keep-alive socket after 5 s; on a loaded machine a retry can reach it just as it closes
  // ("other side closed"), which is no provider's behaviour under test.
  server.keepAliveTimeout = 60_000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    chatRequests: () => requests.filter((r) => isModelRequest(r.path)),
    close: () =>
      new Promise((ok) => {
        for (const s of sockets) s.destroy();
        server.close(() => ok());
      }),
  };
}
