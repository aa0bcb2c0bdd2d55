/**
 * The OpenAI chat-completions side of the recording proxy: an agent's request read into the loop's own form,
 * and the run's reply written back as the API writes it, whole or as server-sent events (content, then the
 * tool calls, then the finish reason, then the usage chunk when the agent asked for it).
 */
import type { ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { ChatMessage, ToolChoice } from '../provider/chat-client.js';
import type { ToolExposure } from '../../../shared/step-event.js';
import type { ProxiedChat, ProxyReply } from './proxy-types.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function openaiRequestToChat(body: unknown): ProxiedChat {
  if (!isObject(body)) throw new Error('The body must be a JSON object with "model" and "messages".');
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    throw new Error('"messages" must be a non-empty array.');
  for (const [i, m] of body.messages.entries()) {
    if (!isObject(m) || typeof m.role !== 'string') throw new Error(`messages[${i}] must be an object with a "role".`);
  }
  const tools: ToolExposure[] = [];
  for (const [i, t] of (Array.isArray(body.tools) ? body.tools : []).entries()) {
    const fn = isObject(t) && isObject(t.function) ? t.function : null;
    if (!fn || typeof fn.name !== 'string')
      throw new Error(`tools[${i}] must be {"type": "function", "function": {"name": …}}.`);
    tools.push({
      name: fn.name,
      description: typeof fn.description === 'string' ? fn.description : '',
      parameters: isObject(fn.parameters) ? fn.parameters : { type: 'object', properties: {} },
    });
  }
  const stop =
    typeof body.stop === 'string'
      ? [body.stop]
      : Array.isArray(body.stop)
        ? body.stop.filter((s): s is string => typeof s === 'string')
        : undefined;
  const maxTokens =
    typeof body.max_completion_tokens === 'number'
      ? body.max_completion_tokens
      : typeof body.max_tokens === 'number'
        ? body.max_tokens
        : undefined;
  const choice = toolChoiceOf(body.tool_choice);
  return {
    wire: 'openai',
    model: typeof body.model === 'string' ? body.model : '',
    messages: body.messages as ChatMessage[],
    tools,
    temperature: typeof body.temperature === 'number' ? body.temperature : null,
    ...(choice ? { toolChoice: choice } : {}),
    ...(stop?.length ? { stop } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    stream: body.stream === true,
    includeUsage: isObject(body.stream_options) && body.stream_options.include_usage === true,
  };
}

function toolChoiceOf(v: unknown): ToolChoice | undefined {
  if (v === 'auto' || v === 'required' || v === 'none') return v;
  if (isObject(v) && isObject(v.function) && typeof v.function.name === 'string') return { name: v.function.name };
  return undefined;
}

/** The usage object as chat completions writes it, from the usage the provider reported. */
function usageOf(reply: ProxyReply): Record<string, unknown> {
  const u = reply.usage;
  return {
    prompt_tokens: u.prompt,
    completion_tokens: u.completion,
    total_tokens: u.total ?? u.prompt + u.completion,
    ...(u.cached !== undefined ? { prompt_tokens_details: { cached_tokens: u.cached } } : {}),
    ...(u.reasoning !== undefined ? { completion_tokens_details: { reasoning_tokens: u.reasoning } } : {}),
  };
}

const toolCallsOf = (reply: ProxyReply) =>
  reply.toolCalls.map((c) => ({
    id: c.id,
    type: 'function' as const,
    function: { name: c.name, arguments: c.arguments },
  }));

export function writeOpenAIReply(res: ServerResponse, chat: ProxiedChat, reply: ProxyReply): void {
  const id = `chatcmpl-${randomBytes(9).toString('hex')}`;
  const created = Math.floor(Date.now() / 1000);
  const model = chat.model;
  const finish = reply.finishReason ?? (reply.toolCalls.length ? 'tool_calls' : 'stop');
  const calls = toolCallsOf(reply);
  if (!chat.stream) {
    const message = {
      role: 'assistant',
      content: reply.text === '' && calls.length ? null : reply.text,
      ...(calls.length ? { tool_calls: calls } : {}),
      ...(reply.refusal ? { refusal: reply.refusal } : {}),
    };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
        usage: usageOf(reply),
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })}\n\n`,
    );
  chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
  if (reply.text) chunk([{ index: 0, delta: { content: reply.text }, finish_reason: null }]);
  for (const [index, c] of calls.entries())
    chunk([
      {
        index: 0,
        delta: {
          tool_calls: [
            { index, id: c.id, type: 'function', function: { name: c.function.name, arguments: c.function.arguments } },
          ],
        },
        finish_reason: null,
      },
    ]);
  chunk([{ index: 0, delta: {}, finish_reason: finish }]);
  if (chat.includeUsage) chunk([], { usage: usageOf(reply) });
  res.end('data: [DONE]\n\n');
}
