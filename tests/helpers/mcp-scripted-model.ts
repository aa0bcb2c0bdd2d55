/**
 * An OpenAI-style model on loopback for MCP runs: it calls the given tools one per step, in order, then
 * answers "done". A request without tools is an MCP server's sampling request: it answers "sampled reply"
 * with 7 prompt + 3 completion tokens (after `samplingDelayMs`, when given). Every step reports 50 prompt + 5 completion tokens.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const usage = (prompt: number, completion: number) =>
  `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } })}\n\n`;

export interface ScriptedModel {
  readonly url: string;
  /** Bodies of the requests it got, in order. */
  readonly requests: Record<string, unknown>[];
  close(): Promise<void>;
}

export async function mcpScriptedModel(
  calls: readonly { name: string; args: object }[],
  options: { samplingDelayMs?: number } = {},
): Promise<ScriptedModel> {
  const requests: Record<string, unknown>[] = [];
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET')
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"object":"list","data":[{"id":"m"}]}');
    const body: Buffer[] = [];
    req.on('data', (c: Buffer) => body.push(c));
    req.on('end', async () => {
      const request = JSON.parse(Buffer.concat(body).toString('utf8')) as {
        messages: { role: string }[];
        tools?: unknown[];
      };
      requests.push(request);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const next = calls[request.messages.filter((m) => m.role === 'tool').length];
      if (!request.tools) {
        if (options.samplingDelayMs) await new Promise((r) => setTimeout(r, options.samplingDelayMs));
        res.write(chunk({ role: 'assistant', content: 'sampled reply' }, 'stop'));
        res.write(usage(7, 3));
      } else if (next) {
        const id = `c${request.messages.filter((m) => m.role === 'tool').length + 1}`;
        res.write(
          chunk({
            role: 'assistant',
            content: null,
            tool_calls: [
              { index: 0, id, type: 'function', function: { name: next.name, arguments: JSON.stringify(next.args) } },
            ],
          }),
        );
        res.write(chunk({}, 'tool_calls'));
        res.write(usage(50, 5));
      } else {
        res.write(chunk({ role: 'assistant', content: 'done' }, 'stop'));
        res.write(usage(50, 5));
      }
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
