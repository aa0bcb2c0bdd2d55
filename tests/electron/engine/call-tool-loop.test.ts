/**
 * A hostile model against call_tool (toolSearch 'call-tool'), through the whole loop: every refusal is an error
 * recorded on its step and sent back to the model, the run goes on, and a denied tool stays denied when reached
 * through the forwarder.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSettings } from '../../../shared/run-spec.js';
import type { StepEvent } from '../../../shared/step-event.js';
import { runEngine } from '../../../electron/engine/run-engine.js';

const chunk = (delta: object, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

/** What the scripted model sends at each step: tool calls (name, arguments text), or an answer. */
const SCRIPT: readonly (readonly { name: string; arguments: string }[])[] = [
  [
    { name: 'search_tools', arguments: '{"query":"download web page"}' },
    // Searched in this same step: its result is not known yet, so the tool is not callable yet.
    { name: 'call_tool', arguments: '{"name":"fetch_url","arguments":{"url":"https://example.com"}}' },
    { name: 'call_tool', arguments: '{"name":"call_tool","arguments":{"name":"list_dir","arguments":{}}}' },
  ],
  [
    { name: 'call_tool', arguments: '{"name":"fetch_url","arguments":"https://example.com"}' },
    { name: 'call_tool', arguments: '{"name":"rm_everything","arguments":{}}' },
    { name: 'call_tool', arguments: '{"name":"current_time","arguments":{}}' },
    { name: 'call_tool', arguments: '{"name":"fetch_url","arguments":{"url":"https://example.com"}}' },
    { name: 'call_tool', arguments: '{"name":"list_dir","arguments":{"path":"."}}' },
  ],
];

let server: Server;
let url = '';
let workspace = '';
const requests: { tools: { function: { name: string } }[] }[] = [];

beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'parallax-call-tool-loop-'));
  server = createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (c: Buffer) => body.push(c));
    req.on('end', () => {
      const request = JSON.parse(Buffer.concat(body).toString('utf8')) as {
        messages: { role: string }[];
        tools: { function: { name: string } }[];
      };
      requests.push(request);
      const step = request.messages.filter((m) => m.role === 'assistant').length;
      const calls = SCRIPT[step];
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (calls) {
        res.write(
          chunk({
            role: 'assistant',
            content: null,
            tool_calls: calls.map((function_, index) => ({
              index,
              id: `c${step}-${index}`,
              type: 'function',
              function: function_,
            })),
          }),
        );
        res.write(chunk({}, 'tool_calls'));
      } else {
        res.write(chunk({ role: 'assistant', content: 'Done.' }, 'stop'));
      }
      res.write(
        `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [], usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 } })}\n\n`,
      );
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
  await rm(workspace, { recursive: true, force: true });
});

describe('call_tool against a hostile model', () => {
  it('records each refusal on its step, goes on, and keeps a denied tool denied', async () => {
    const events: StepEvent[] = [];
    await runEngine(
      {
        runId: randomUUID(),
        task: { id: null, text: 'fetch a page' },
        mode: 'react-search',
        provider: { name: 'scripted', baseUrl: url, model: 'm', simulated: false },
        apiKeyEnv: null,
        settings: parseSettings({
          toolSearch: 'call-tool',
          approvals: { fetch_url: 'deny', run_shell: 'allow', write_file: 'allow' },
        }),
        workspace,
      },
      { apiKey: null, signal: new AbortController().signal, emit: (e) => events.push(e) },
      null,
    );
    const finished = events.filter(
      (e): e is Extract<StepEvent, { type: 'tool-finished' }> => e.type === 'tool-finished',
    );
    const byCall = new Map(finished.map((f) => [f.callId, f]));
    expect(byCall.get('c0-1')).toMatchObject({
      name: 'call_tool',
      error: expect.stringMatching(
        /^call_tool: fetch_url has not been found yet: search for it with search_tools first/,
      ),
    });
    expect(byCall.get('c0-2')).toMatchObject({
      name: 'call_tool',
      error: expect.stringMatching(/^call_tool: call_tool does not call call_tool/),
    });
    expect(byCall.get('c1-0')).toMatchObject({
      name: 'call_tool',
      error: expect.stringMatching(/"arguments" must be one JSON object of fetch_url's named arguments, not string/),
    });
    expect(byCall.get('c1-1')).toMatchObject({
      name: 'call_tool',
      error: expect.stringMatching(/no tool named "rm_everything"/),
    });
    expect(byCall.get('c1-2')).toMatchObject({
      name: 'call_tool',
      error: expect.stringMatching(/current_time has not been found yet/),
    });
    // Through the forwarder, fetch_url meets its own approval policy (deny) and is recorded as itself.
    expect(byCall.get('c1-3')).toMatchObject({
      name: 'fetch_url',
      forwardedBy: 'call_tool',
      error: expect.stringMatching(/denied|not allowed/i),
    });
    expect(byCall.get('c1-4')).toMatchObject({ name: 'list_dir', forwardedBy: 'call_tool', error: null });
    // Each error went back to the model as the call's tool message.
    expect(byCall.get('c1-1')!.output).toMatch(/^Error: call_tool: there is no tool named "rm_everything"/);
    const end = events.at(-1);
    expect(end?.type === 'run-finished' && end.status).toBe('answered');
    // The tool list never changed, whatever the search found.
    expect(new Set(requests.map((r) => r.tools.map((t) => t.function.name).join(',')))).toEqual(
      new Set(['list_dir,read_file,write_file,run_shell,search_tools,call_tool']),
    );
  });
});
