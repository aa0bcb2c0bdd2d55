/**
 * The recording proxy of one agent run: a small HTTP server on loopback (or a Unix socket bound into the
 * agent's sandbox) that speaks OpenAI chat completions and Anthropic Messages, streamed or not, to the agent
 * and hands every chat request to the run's step recorder (agent-steps.ts), which forwards it with the run's
 * own client. Only the run's token opens it; the provider's key stays in the worker. A request that is no
 * chat request (an embedding, a model list, a wrong token) is answered with an error that says so, and
 * reported to `other` so the run's record shows it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { anthropicRequestToChat, writeAnthropicReply } from './anthropic-wire.js';
import { openaiRequestToChat, writeOpenAIReply } from './openai-wire.js';
import type { ProxiedChat, ProxyReply } from './proxy-types.js';

/** Largest request body the proxy reads (a long history is a few hundred KB). */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

export interface ProxyHandlers {
  /** One chat request, as the built-in loop would send it: recorded and forwarded; throws a ProxyError to refuse. */
  chat(request: ProxiedChat): Promise<ProxyReply>;
  /** A request that is not a chat request, or is refused before it is one: for the record. */
  other(note: { method: string; path: string; bytes: number; status: number; reason: string }): void;
}

/** A refusal with the HTTP status and the words the agent gets. */
export class ProxyError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export interface AgentProxy {
  readonly server: Server;
  close(): Promise<void>;
}

export function startAgentProxy(
  token: string,
  handlers: ProxyHandlers,
  listen: { readonly socket: string } | { readonly port: number },
): Promise<AgentProxy & { readonly port: number | null }> {
  const server = createServer((req, res) => void serve(req, res, token, handlers));
  // An agent that keeps a connection open must not hold the run's end.
  server.keepAliveTimeout = 1000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    const done = () => {
      const address = server.address();
      resolve({
        server,
        port: typeof address === 'object' && address ? address.port : null,
        close: () =>
          new Promise<void>((r) => {
            server.close(() => r());
            server.closeAllConnections();
          }),
      });
    };
    if ('socket' in listen) server.listen(listen.socket, done);
    else server.listen(listen.port, '127.0.0.1', done);
  });
}

function tokenOf(req: IncomingMessage): string | null {
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, '').trim();
  const key = req.headers['x-api-key'];
  return typeof key === 'string' ? key.trim() : null;
}

const sameToken = (given: string | null, token: string) => {
  if (given === null) return false;
  const a = Buffer.from(given),
    b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
};

async function serve(req: IncomingMessage, res: ServerResponse, token: string, handlers: ProxyHandlers): Promise<void> {
  const method = req.method ?? 'GET';
  const path = (req.url ?? '/').split('?')[0]!;
  const kind =
    method === 'POST' && /^(\/v1)?\/chat\/completions\/?$/.test(path)
      ? 'openai'
      : method === 'POST' && /^(\/v1)?\/messages\/?$/.test(path)
        ? 'anthropic'
        : null;
  let bytes = 0;
  const refuse = (status: number, reason: string) => {
    handlers.other({ method, path, bytes, status, reason });
    sendError(res, kind ?? 'openai', status, reason);
  };
  let body: Buffer;
  try {
    body = await readBody(req, (n) => (bytes = n));
  } catch (e) {
    return refuse(413, (e as Error).message);
  }
  if (!sameToken(tokenOf(req), token))
    return refuse(
      401,
      "This proxy takes the run's own key (OPENAI_API_KEY / ANTHROPIC_API_KEY as Parallax set them); the request carried another.",
    );
  if (!kind)
    return refuse(
      404,
      `${method} ${path} is not a chat request: the recording proxy answers POST /v1/chat/completions (OpenAI) and POST /v1/messages (Anthropic) only.`,
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return refuse(400, 'The request body is not JSON.');
  }
  let chat: ProxiedChat;
  try {
    chat = kind === 'openai' ? openaiRequestToChat(parsed) : anthropicRequestToChat(parsed);
  } catch (e) {
    return refuse(400, (e as Error).message);
  }
  try {
    const reply = await handlers.chat(chat);
    if (kind === 'openai') writeOpenAIReply(res, chat, reply);
    else writeAnthropicReply(res, chat, reply);
  } catch (e) {
    const status = e instanceof ProxyError ? e.status : 502;
    sendError(res, kind, status, (e as Error).message);
  }
}

function readBody(req: IncomingMessage, count: (n: number) => void): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      count(size);
      if (size > MAX_BODY_BYTES) {
        req.destroy();
        reject(new Error(`The request body is over ${MAX_BODY_BYTES} bytes.`));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function sendError(res: ServerResponse, kind: 'openai' | 'anthropic', status: number, message: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const body =
    kind === 'anthropic'
      ? {
          type: 'error',
          error: {
            type:
              status === 401
                ? 'authentication_error'
                : status === 429
                  ? 'rate_limit_error'
                  : status >= 500
                    ? 'api_error'
                    : 'invalid_request_error',
            message,
          },
        }
      : { error: { message, type: status === 401 ? 'invalid_api_key' : 'proxy_error', code: status } };
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
