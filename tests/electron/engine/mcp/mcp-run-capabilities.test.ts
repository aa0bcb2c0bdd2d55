/**
 * What a server sends while its tool runs, in real runs (runEngine, a scripted model on loopback): progress
 * recorded live as tool-progress, sampling answered by the run's own model and counted in its tokens, content
 * annotations kept on tool-finished. Against the reference server-everything over stdio and streamable HTTP,
 * and against our own server behaving as a hostile one would.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSettings } from '../../../../shared/run-spec.js';
import type { McpServerConfig } from '../../../../shared/mcp-config.js';
import type { StepEvent } from '../../../../shared/step-event.js';
import { computeTotals } from '../../../../shared/summary.js';
import { runEngine } from '../../../../electron/engine/run-engine.js';
import { contentRecords } from '../../../../electron/engine/mcp/mcp-content.js';
import { referenceServers, startEverythingHttp } from '../../../helpers/mcp-reference-servers.js';
import { stdioServer } from '../../../helpers/mcp-test-server.js';

const chunk = (delta: object, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

let model: Server;
let url = '';
const samplingBodies: Record<string, unknown>[] = [];
let nextCall: { name: string; arguments: string } | null = null;
const dirs: string[] = [];

beforeAll(async () => {
  model = createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (c: Buffer) => body.push(c));
    req.on('end', () => {
      const request = JSON.parse(Buffer.concat(body).toString('utf8')) as {
        messages: { role: string; content: unknown }[];
        tools?: unknown[];
        max_tokens?: number;
      };
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const usage = (prompt: number, completion: number) =>
        `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } })}\n\n`;
      if (!request.tools) {
        // A sampling request: no tools, the server's own messages.
        samplingBodies.push(request);
        res.write(chunk({ role: 'assistant', content: 'sampled reply' }, 'stop'));
        res.write(usage(7, 3));
      } else if (!request.messages.some((m) => m.role === 'tool') && nextCall) {
        res.write(
          chunk({
            role: 'assistant',
            content: null,
            tool_calls: [{ index: 0, id: 'c1', type: 'function', function: nextCall }],
          }),
        );
        res.write(chunk({}, 'tool_calls'));
        res.write(usage(100, 10));
      } else {
        res.write(chunk({ role: 'assistant', content: 'done' }, 'stop'));
        res.write(usage(120, 2));
      }
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((ok) => model.listen(0, '127.0.0.1', ok));
  url = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  model.closeAllConnections();
  await new Promise((ok) => model.close(ok));
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function run(
  servers: readonly McpServerConfig[],
  call: { name: string; args: object },
  approvals: Record<string, string> = {},
): Promise<StepEvent[]> {
  nextCall = { name: call.name, arguments: JSON.stringify(call.args) };
  const dir = await mkdtemp(join(tmpdir(), 'parallax-mcp-cap-'));
  dirs.push(dir);
  const events: StepEvent[] = [];
  await runEngine(
    {
      runId: randomUUID(),
      task: { id: null, text: 'use the tool' },
      mode: 'react',
      provider: { name: 'scripted', baseUrl: url, model: 'm', simulated: false },
      apiKeyEnv: null,
      settings: parseSettings({ maxSteps: 4, approvals }),
      workspace: dir,
      mcpServers: servers,
    },
    { apiKey: null, signal: new AbortController().signal, emit: (e) => events.push(e) },
    null,
  );
  return events;
}

const ofType = <T extends StepEvent['type']>(events: StepEvent[], type: T) =>
  events.filter((e): e is Extract<StepEvent, { type: T }> => e.type === type);
const everything = (callTimeoutMs = 10_000) => referenceServers(tmpdir(), callTimeoutMs).slice(0, 1);

describe.each(['stdio', 'http'] as const)('server-everything over %s in a run', (transport) => {
  let servers: McpServerConfig[];
  let http: Awaited<ReturnType<typeof startEverythingHttp>> | null = null;
  beforeAll(async () => {
    if (transport === 'http') {
      http = await startEverythingHttp();
      servers = [
        {
          name: 'everything',
          transport: 'http',
          url: http.url,
          headers: {},
          startupTimeoutMs: 20_000,
          callTimeoutMs: 3000,
        },
      ];
    } else servers = everything(3000);
  });
  afterAll(async () => {
    await http?.close();
  });

  it("records the long operation's progress live, before its result, and it outlives its 3 s call timeout", async () => {
    const events = await run(servers, {
      name: 'everything_trigger_long_running_operation',
      args: { duration: 4, steps: 4 },
    });
    const progress = ofType(events, 'tool-progress');
    // One report a second; the last may come after the result, when the call no longer listens.
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress.map((p) => [p.name, p.progress, p.total, p.callId, p.inProgram])).toEqual(
      progress.map((_, i) => ['everything_trigger_long_running_operation', i + 1, 4, 'c1', false]),
    );
    const finished = ofType(events, 'tool-finished')[0];
    expect(finished.error).toBeNull();
    expect(progress.every((p) => p.seq < finished.seq)).toBe(true);
  });

  it("answers sampling with the run's own model: recorded, its tokens in the totals", async () => {
    samplingBodies.length = 0;
    const events = await run(servers, {
      name: 'everything_trigger_sampling_request',
      args: { prompt: 'Say hi', maxTokens: 20 },
    });
    const [sampling] = ofType(events, 'sampling');
    expect(sampling).toMatchObject({
      server: 'everything',
      callId: 'c1',
      step: 1,
      maxTokens: 20,
      usage: { prompt: 7, completion: 3 },
      text: 'sampled reply',
      error: null,
      systemPrompt: 'You are a helpful test server.',
    });
    expect(sampling.messages[0].text).toContain('Say hi');
    expect(samplingBodies[0]).toMatchObject({ max_tokens: 20, model: 'm' });
    expect(ofType(events, 'tool-finished')[0].output).toContain('sampled reply');
    const totals = ofType(events, 'run-finished')[0].totals;
    expect(totals).toMatchObject({ steps: 2, requests: 3, prompt: 100 + 120 + 7, completion: 10 + 2 + 3 });
    expect(computeTotals(events)).toEqual(totals);
  });

  it('keeps content annotations (audience, priority) on tool-finished', async () => {
    const events = await run(servers, {
      name: 'everything_get_annotated_message',
      args: { messageType: 'error', includeImage: true },
    });
    const content = ofType(events, 'tool-finished')[0].mcpContent!;
    expect(content[0]).toMatchObject({ type: 'text', priority: 1, audience: ['user', 'assistant'] });
    expect(content[1]).toMatchObject({ type: 'image', mimeType: 'image/png', priority: 0.5, audience: ['user'] });
  });
});

describe('a hostile server', () => {
  it('a flood of progress reports is thinned, bad numbers dropped, control characters removed', async () => {
    const events = await run([stdioServer('t')], { name: 't_flood', args: { count: 2000 } });
    const progress = ofType(events, 'tool-progress');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.length).toBeLessThan(50);
    expect(
      progress.every((p) => Number.isFinite(p.progress) && ![...(p.message ?? '')].some((ch) => ch.charCodeAt(0) < 32)),
    ).toBe(true);
    // The last report held back by the thinning is kept: the call got far past the first ones.
    expect(progress.at(-1)!.progress).toBeGreaterThan(1000);
  });

  it('a sampling request over the size limit is refused and recorded without tokens; the cap on tokens holds', async () => {
    const big = await run([stdioServer('t')], { name: 't_sample', args: { chars: 200_000, maxTokens: 10 } });
    const [refused] = ofType(big, 'sampling');
    expect(refused).toMatchObject({ usage: null, error: expect.stringMatching(/at most 100000/) });
    expect(ofType(big, 'tool-finished')[0].output).toMatch(/sampling failed: .*at most 100000/);
    samplingBodies.length = 0;
    const capped = await run([stdioServer('t')], { name: 't_sample', args: { chars: 10, maxTokens: 1_000_000 } });
    expect(samplingBodies[0]).toMatchObject({ max_tokens: 4096 });
    // The image part reaches the model as described text, never as data.
    expect(JSON.stringify(samplingBodies[0])).toContain('[image image/png, 8 bytes: not shown]');
    expect(ofType(capped, 'sampling')[0].usage).toMatchObject({ prompt: 7, completion: 3 });
  });

  it('the mcp-sampling entry of the approval policy refuses sampling', async () => {
    const events = await run(
      [stdioServer('t')],
      { name: 't_sample', args: { chars: 10, maxTokens: 5 } },
      { 'mcp-sampling': 'deny' },
    );
    expect(ofType(events, 'sampling')[0]).toMatchObject({
      usage: null,
      error: expect.stringMatching(/^Sampling for "t" is not allowed in this run/),
    });
    expect(ofType(events, 'run-finished')[0].totals.requests).toBe(2);
  });

  it('annotations are kept checked: repeated audiences once, out-of-range values dropped', async () => {
    expect(
      contentRecords([
        { type: 'text', text: 'a', annotations: { audience: ['user', 'root'], priority: 5 } },
        { type: 'image', data: 'AAAA', annotations: { priority: Number.NaN } },
        'junk',
        null,
      ]),
    ).toEqual([
      { type: 'text', size: 1, audience: ['user'] },
      { type: 'image', size: 3 },
    ]);
    const events = await run([stdioServer('t')], { name: 't_annotated', args: {} });
    expect(ofType(events, 'tool-finished')[0].error).toBeNull();
    expect(ofType(events, 'tool-finished')[0].mcpContent).toEqual([
      { type: 'text', size: 7, audience: ['user'], priority: 0.9 },
      { type: 'text', size: 3, lastModified: '2025-01-01T00:00:00Z' },
    ]);
  });
});
