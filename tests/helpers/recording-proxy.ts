/**
 * A real HTTP proxy between a client and an OpenAI-compatible server that records what the server sent:
 * the `usage` of every streamed reply, read from the SSE bytes on the wire, so tests can compare the
 * engine's events with the server's own figures. It can also answer with a fixed status instead.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedReply {
  readonly status: number;
  readonly usage: { prompt_tokens: number; completion_tokens: number; [k: string]: unknown } | null;
}

export interface RecordingProxy {
  readonly url: string;
  readonly replies: RecordedReply[];
  /** The JSON body of every chat-completions request, in order: what the model was sent. */
  readonly requests: Record<string, unknown>[];
  close(): Promise<void>;
}

export async function startRecordingProxy(targetBaseUrl: string): Promise<RecordingProxy> {
  const target = new URL(targetBaseUrl);
  const replies: RecordedReply[] = [];
  const requests: Record<string, unknown>[] = [];
  const server: Server = createServer((req, res) => {
    if (req.url?.endsWith('/chat/completions')) {
      const body: Buffer[] = [];
      req.on('data', (c: Buffer) => body.push(c));
      req.on('end', () => requests.push(JSON.parse(Buffer.concat(body).toString('utf8')) as Record<string, unknown>));
    }
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        const chunks: Buffer[] = [];
        up.on('data', (c: Buffer) => {
          chunks.push(c);
          res.write(c);
        });
        up.on('end', () => {
          res.end();
          if (!req.url?.endsWith('/chat/completions')) return;
          let usage: RecordedReply['usage'] = null;
          for (const line of Buffer.concat(chunks).toString('utf8').split('\n')) {
            if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
            const chunk = JSON.parse(line.slice(6)) as { usage?: RecordedReply['usage'] };
            if (chunk.usage) usage = chunk.usage;
          }
          replies.push({ status: up.statusCode ?? 0, usage });
        });
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${target.pathname}`,
    replies,
    requests,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** A server that answers every request with one status and an OpenAI-shaped error body. */
export async function startErrorServer(
  status: number,
  message: string,
): Promise<{ url: string; hits: () => number; close(): Promise<void> }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    req.resume();
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message, type: 'invalid_request_error', code: null } }));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    hits: () => hits,
    close: () => new Promise((ok) => server.close(() => ok())),
  };
}
