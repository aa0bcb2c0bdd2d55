/**
 * The Anthropic Messages side of the recording proxy: a Messages request read into the loop's chat form
 * (system → a system message, tool_use → tool calls, tool_result → tool messages), and the run's reply
 * written back as a Messages reply, whole or as its event stream.
 */
import type { ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { ChatMessage, ToolChoice } from '../provider/chat-client.js';
import type { ToolExposure } from '../../../shared/step-event.js';
import type { ProxiedChat, ProxyReply } from './proxy-types.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The text of a content value: a string, or the text blocks of a block list. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((b) => isObject(b) && b.type === 'text' && typeof b.text === 'string')
    .map((b) => (b as { text: string }).text)
    .join('\n');
}

export function anthropicRequestToChat(body: unknown): ProxiedChat {
  if (!isObject(body)) throw new Error('The body must be a JSON object with "model", "max_tokens" and "messages".');
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    throw new Error('"messages" must be a non-empty array.');
  const messages: ChatMessage[] = [];
  const system = textOf(body.system);
  if (system) messages.push({ role: 'system', content: system });
  for (const [i, m] of body.messages.entries()) {
    if (!isObject(m) || (m.role !== 'user' && m.role !== 'assistant'))
      throw new Error(`messages[${i}] must be {"role": "user" | "assistant", "content": …}.`);
    const blocks = Array.isArray(m.content) ? m.content.filter(isObject) : [];
    if (m.role === 'assistant') {
      const calls = blocks
        .filter((b) => b.type === 'tool_use')
        .map((b) => ({
          id: String(b.id ?? ''),
          type: 'function' as const,
          function: { name: String(b.name ?? ''), arguments: JSON.stringify(b.input ?? {}) },
        }));
      messages.push({
        role: 'assistant',
        content: textOf(m.content) || null,
        ...(calls.length ? { tool_calls: calls } : {}),
      });
      continue;
    }
    for (const b of blocks.filter((x) => x.type === 'tool_result')) {
      messages.push({ role: 'tool', tool_call_id: String(b.tool_use_id ?? ''), content: textOf(b.content) });
    }
    const text = textOf(m.content);
    if (text || blocks.length === 0) messages.push({ role: 'user', content: text });
  }
  const tools: ToolExposure[] = [];
  for (const [i, t] of (Array.isArray(body.tools) ? body.tools : []).entries()) {
    if (!isObject(t) || typeof t.name !== 'string')
      throw new Error(`tools[${i}] must be {"name": …, "input_schema": {…}}.`);
    tools.push({
      name: t.name,
      description: typeof t.description === 'string' ? t.description : '',
      parameters: isObject(t.input_schema) ? t.input_schema : { type: 'object', properties: {} },
    });
  }
  const choice = toolChoiceOf(body.tool_choice);
  const stop = Array.isArray(body.stop_sequences)
    ? body.stop_sequences.filter((s): s is string => typeof s === 'string')
    : [];
  return {
    wire: 'anthropic',
    model: typeof body.model === 'string' ? body.model : '',
    messages,
    tools,
    temperature: typeof body.temperature === 'number' ? body.temperature : null,
    ...(choice ? { toolChoice: choice } : {}),
    ...(stop.length ? { stop } : {}),
    ...(typeof body.max_tokens === 'number' ? { maxTokens: body.max_tokens } : {}),
    stream: body.stream === true,
    includeUsage: true,
  };
}

function toolChoiceOf(v: unknown): ToolChoice | undefined {
  if (!isObject(v)) return undefined;
  if (v.type === 'auto' || v.type === 'none') return v.type;
  if (v.type === 'any') return 'required';
  if (v.type === 'tool' && typeof v.name === 'string') return { name: v.name };
  return undefined;
}

const STOP_OF: Record<string, string> = {
  tool_calls: 'tool_use',
  length: 'max_tokens',
  stop: 'end_turn',
  content_filter: 'refusal',
};

function usageOf(reply: ProxyReply): Record<string, number> {
  const u = reply.usage;
  const read = u.cached ?? 0,
    write = u.cacheWrite ?? 0;
  return {
    input_tokens: Math.max(0, u.prompt - read - write),
    output_tokens: u.completion,
    cache_read_input_tokens: read,
    cache_creation_input_tokens: write,
  };
}

function blocksOf(reply: ProxyReply): Record<string, unknown>[] {
  const blocks: Record<string, unknown>[] = [];
  if (reply.text) blocks.push({ type: 'text', text: reply.text });
  for (const c of reply.toolCalls) {
    let input: unknown = {};
    try {
      input = JSON.parse(c.arguments || '{}');
    } catch {
      input = { _unparsed: c.arguments };
    }
    blocks.push({ type: 'tool_use', id: c.id, name: c.name, input });
  }
  return blocks;
}

export function writeAnthropicReply(res: ServerResponse, chat: ProxiedChat, reply: ProxyReply): void {
  const id = `msg_${randomBytes(12).toString('hex')}`;
  const stopReason =
    reply.stopReason ?? STOP_OF[reply.finishReason ?? ''] ?? (reply.toolCalls.length ? 'tool_use' : 'end_turn');
  const usage = usageOf(reply);
  const content = blocksOf(reply);
  const message = {
    id,
    type: 'message',
    role: 'assistant',
    model: chat.model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage,
  };
  if (!chat.stream) {
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': id });
    res.end(JSON.stringify(message));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': id });
  const send = (event: string, data: Record<string, unknown>) =>
    res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
  send('message_start', {
    message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 0 } },
  });
  for (const [index, block] of content.entries()) {
    if (block.type === 'text') {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      send('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
    } else {
      send('content_block_start', { index, content_block: { ...block, input: {} } });
      send('content_block_delta', {
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      });
    }
    send('content_block_stop', { index });
  }
  send('message_delta', {
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  send('message_stop', {});
  res.end();
}
