/**
 * A real loopback HTTP server that stands in for a paid provider: it forwards to the simulated model but
 * answers GET /models without the simulated fingerprint (so Parallax treats it as any OpenAI-compatible
 * provider and prices it), and can rewrite each streamed chunk — add OpenRouter's `usage.cost` and
 * `cache_write_tokens`, or drop `usage` the way LM Studio sends none.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ChunkRewrite = (chunk: Record<string, unknown>) => Record<string, unknown>;

export interface ProviderProxy {
  /** Base URL with /v1, as a user would type it. */
  readonly url: string;
  close(): Promise<void>;
}

export async function startProviderProxy(simBaseUrl: string, rewrite: ChunkRewrite = (c) => c): Promise<ProviderProxy> {
  const target = new URL(simBaseUrl.replace(/\/+$/, '') + '/');
  const server: Server = createServer((req, res) => {
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (up) => {
        const chunks: Buffer[] = [];
        up.on('data', (c: Buffer) => chunks.push(c));
        up.on('end', () => {
          let body = Buffer.concat(chunks).toString('utf8');
          const headers = { ...up.headers };
          delete headers['content-length'];
          if (req.url?.endsWith('/models')) {
            body = body.replace(/"owned_by":"[^"]*"/g, '"owned_by":"example-provider"');
          } else if (
            req.url?.endsWith('/chat/completions') &&
            (up.headers['content-type'] ?? '').includes('text/event-stream')
          ) {
            body = body
              .split('\n')
              .map((line) =>
                line.startsWith('data: {')
                  ? `data: ${JSON.stringify(rewrite(JSON.parse(line.slice(6)) as Record<string, unknown>))}`
                  : line,
              )
              .join('\n');
          }
          res.writeHead(up.statusCode ?? 502, headers).end(body);
        });
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
