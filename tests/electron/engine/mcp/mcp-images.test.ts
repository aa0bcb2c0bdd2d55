/**
 * An MCP tool's image in real ReAct runs (runEngine, our SDK test server's `picture` tool over stdio, loopback
 * model servers that record each request): to a model that reads images it goes as an image part — chat
 * completions' image_url data URL in a user message after the tool message, the Messages API's base64 image
 * block in the same user turn as the tool_result — and the tokens are the provider's own; a model that reads
 * none, and a type neither API takes, get a line of text saying so.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSettings, type ProviderInfo } from '../../../../shared/run-spec.js';
import type { StepEvent } from '../../../../shared/step-event.js';
import { takesImages } from '../../../../shared/model-capabilities.js';
import { DEFAULT_PRICE_TABLE } from '../../../../shared/price-table.js';
import { runEngine } from '../../../../electron/engine/run-engine.js';
import { PNG_1X1, stdioServer } from '../../../helpers/mcp-test-server.js';
import { mcpScriptedModel } from '../../../helpers/mcp-scripted-model.js';
import { startReplayServer } from '../../../helpers/replay-server.js';
import { event, messageStart, streamReply } from '../../../helpers/anthropic-shapes.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

async function run(provider: ProviderInfo, apiKey: string | null = null): Promise<StepEvent[]> {
  const dir = await mkdtemp(join(tmpdir(), 'parallax-mcp-images-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const events: StepEvent[] = [];
  await runEngine(
    {
      runId: randomUUID(),
      task: { id: null, text: 'describe the picture' },
      mode: 'react',
      provider,
      apiKeyEnv: null,
      settings: parseSettings({ maxSteps: 3 }),
      workspace: dir,
      mcpServers: [stdioServer('t')],
    },
    { apiKey, signal: new AbortController().signal, emit: (e) => events.push(e) },
    null,
  );
  return events;
}
const toolOutput = (events: StepEvent[]) =>
  events.find((e): e is Extract<StepEvent, { type: 'tool-finished' }> => e.type === 'tool-finished')!.output;

describe('images an MCP tool returns', () => {
  it('go to an OpenAI-style model that reads images as an image_url data URL after the tool message', async () => {
    const model = await mcpScriptedModel([{ name: 't_picture', args: {} }]);
    cleanups.push(() => model.close());
    const events = await run({ name: 'openai', baseUrl: model.url, model: 'gpt-4.1-mini', simulated: false });
    expect(toolOutput(events)).toBe(
      'a red dot\n[image image/png, 70 bytes: image 1, sent to the model as an image]\n' +
        '[image image/svg+xml, 41 bytes: described only: image/svg+xml is not one of image/png, image/jpeg, image/gif, image/webp]',
    );
    const second = model.requests[1]!.messages as { role: string; content: unknown; tool_call_id?: string }[];
    const i = second.findIndex((m) => m.role === 'tool');
    expect(second[i]!.content).toBe(toolOutput(events));
    expect(second[i + 1]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'The images t_picture returned (call c1), in the order its result lists them:' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_1X1}` } },
      ],
    });
    expect(second).toHaveLength(i + 2);
    // The record keeps no image data; the tokens are the ones the server reported.
    expect(JSON.stringify(events)).not.toContain(PNG_1X1);
    const usage = events
      .filter((e): e is Extract<StepEvent, { type: 'model-response' }> => e.type === 'model-response')
      .map((e) => [e.usage, e.usageSource]);
    expect(usage).toEqual([
      [{ prompt: 50, completion: 5, total: 55 }, 'reported'],
      [{ prompt: 50, completion: 5, total: 55 }, 'reported'],
    ]);
  });

  it('go to a Claude model as a base64 image block in the user turn of the tool_result; usage as the API reports it', async () => {
    const toolUse = streamReply([
      event(messageStart({ input_tokens: 120, output_tokens: 1 })),
      event({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_01P', name: 't_picture', input: {} },
      }),
      event({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{}' } }),
      event({ type: 'content_block_stop', index: 0 }),
      event({
        type: 'message_delta',
        delta: { stop_reason: 'tool_use', stop_sequence: null },
        usage: { output_tokens: 12 },
      }),
      event({ type: 'message_stop' }),
    ]);
    const answer = streamReply([
      event(messageStart({ input_tokens: 187, output_tokens: 1 }, 'msg_02')),
      event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'A red dot.' } }),
      event({ type: 'content_block_stop', index: 0 }),
      event({
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: 6 },
      }),
      event({ type: 'message_stop' }),
    ]);
    const server = await startReplayServer([toolUse, answer]);
    cleanups.push(() => server.close());
    const events = await run(
      { name: 'anthropic', baseUrl: server.url, model: 'claude-sonnet-4-5', simulated: false, protocol: 'anthropic' },
      'sk-ant-test',
    );
    const body = server.chatRequests()[1]!.body as { messages: { role: string; content: Record<string, unknown>[] }[] };
    expect(body.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_01P', content: toolOutput(events) },
        { type: 'text', text: 'The images t_picture returned (call toolu_01P), in the order its result lists them:' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_1X1 } },
      ],
    });
    const usage = events
      .filter((e): e is Extract<StepEvent, { type: 'model-response' }> => e.type === 'model-response')
      .map((e) => e.usage?.prompt);
    expect(usage).toEqual([120, 187]);
    expect(events.find((e) => e.type === 'run-finished')).toMatchObject({ status: 'answered', answer: 'A red dot.' });
  });

  it('are described as text to a model that reads none: no image part is sent', async () => {
    const model = await mcpScriptedModel([{ name: 't_picture', args: {} }]);
    cleanups.push(() => model.close());
    const events = await run({ name: 'deepseek', baseUrl: model.url, model: 'deepseek-v4-flash', simulated: false });
    expect(toolOutput(events)).toBe(
      'a red dot\n[image image/png, 70 bytes: described only: the model deepseek-v4-flash takes no image input]\n' +
        '[image image/svg+xml, 41 bytes: described only: the model deepseek-v4-flash takes no image input]',
    );
    expect(JSON.stringify(model.requests[1])).not.toContain('image_url');
    expect(JSON.stringify(model.requests[1])).not.toContain(PNG_1X1);
  });

  it('every model of the default price table has its image flag; unknown and simulated models read none', () => {
    const flags = Object.fromEntries(DEFAULT_PRICE_TABLE.models.map((m) => [m.model, takesImages(m.model)]));
    expect(
      Object.entries(flags)
        .filter(([, v]) => v)
        .map(([k]) => k)
        .sort(),
    ).toEqual(
      [
        'anthropic/claude-haiku-4.5',
        'anthropic/claude-sonnet-4.5',
        'anthropic/claude-sonnet-5',
        'claude-3-5-haiku',
        'claude-haiku-4-5',
        'claude-opus-4-1',
        'claude-opus-4-5',
        'claude-sonnet-4',
        'claude-sonnet-4-5',
        'gemini-2.5-flash',
        'gemini-2.5-flash-lite',
        'gemini-2.5-pro',
        'gemini-3-flash-preview',
        'google/gemini-2.5-flash',
        'google/gemini-2.5-pro',
        'gpt-4.1',
        'gpt-4.1-mini',
        'gpt-4.1-nano',
        'gpt-4o',
        'gpt-4o-mini',
        'gpt-5',
        'gpt-5-mini',
        'gpt-5-nano',
        'gpt-5.4',
        'gpt-5.4-mini',
        'gpt-5.4-nano',
        'gpt-5.5',
        'gpt-5.6-luna',
        'gpt-5.6-sol',
        'gpt-5.6-terra',
        'gpt-6-astra',
        'grok-4-fast',
        'grok-4-fast-non-reasoning',
        'grok-4-fast-reasoning',
        'mistral-medium-latest',
        'mistral-small-latest',
        'o3',
        'o4-mini',
        'openai/gpt-4.1-mini',
        'openai/gpt-4o-mini',
        'openai/gpt-5-mini',
        'openai/gpt-5.4-mini',
      ].sort(),
    );
    expect(takesImages('sim', true)).toBe(false);
    expect(takesImages('gpt-4o', true)).toBe(false);
    expect(takesImages('my-local-model')).toBe(false);
  });
});
