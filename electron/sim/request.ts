/** Validation of chat-completions request bodies, with OpenAI-style messages that say what to fix. */
import { z } from 'zod';
import type { WireMessage, WireTool } from './types.js';
import { BadRequest } from './wire.js';

const part = z.looseObject({ type: z.string(), text: z.string().optional() });
const toolCall = z.looseObject({
  id: z.string(),
  type: z.literal('function').optional(),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});
const message = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(part), z.null()]).optional(),
  name: z.string().optional(),
  tool_calls: z.array(toolCall).optional(),
  tool_call_id: z.string().optional(),
});
const tool = z.looseObject({
  type: z.literal('function'),
  function: z.looseObject({
    name: z.string().min(1),
    description: z.string().optional(),
    parameters: z.unknown().optional(),
  }),
});
const body = z.looseObject({
  model: z.string().optional(),
  messages: z.array(message).min(1, 'must hold at least one message'),
  tools: z.array(tool).optional(),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  n: z.number().int().nullish(),
  stop: z.union([z.string(), z.array(z.string()).max(4, 'takes at most 4 stop sequences')]).nullish(),
  tool_choice: z.unknown().optional(),
});

export interface ChatRequest {
  readonly model: string | undefined;
  readonly messages: readonly WireMessage[];
  readonly tools: readonly WireTool[];
  /** The tools array exactly as received (for counting), or undefined when the request had none. */
  readonly rawTools: readonly WireTool[] | undefined;
  readonly stream: boolean;
  readonly includeUsage: boolean;
  /** Stop sequences: the reply ends before the first of them, as an OpenAI-compatible server does. */
  readonly stop: readonly string[];
  /** tool_choice "none": the reply may call no tool (a mode's planning step asks so), as a real model keeps to it. */
  readonly noCalls: boolean;
}

export function parseChatRequest(text: string): ChatRequest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new BadRequest(
      `The request body is not valid JSON (${(error as Error).message}). Send a JSON object with "model" and "messages".`,
      null,
      'invalid_json',
    );
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new BadRequest('The request body must be a JSON object with "model" and "messages".', null, 'invalid_body');
  }
  if (!('messages' in json)) {
    throw new BadRequest(
      'Missing required parameter: "messages". Send the conversation as an array of {role, content} objects.',
      'messages',
      'missing_required_parameter',
    );
  }
  const parsed = body.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.join('.');
    throw new BadRequest(
      `Invalid request: ${where || 'body'}: ${issue.message}. Check it against the OpenAI chat-completions format.`,
      where || null,
      'invalid_value',
    );
  }
  const b = parsed.data;
  if (b.n != null && b.n !== 1)
    throw new BadRequest(`The simulated model returns one choice; "n" must be 1, got ${b.n}.`, 'n', 'invalid_value');
  for (const [i, m] of b.messages.entries()) {
    if (m.role === 'tool' && !m.tool_call_id) {
      throw new BadRequest(
        `messages.${i}: a "tool" message needs "tool_call_id", the id of the call it answers.`,
        `messages.${i}.tool_call_id`,
        'invalid_value',
      );
    }
  }
  const tools = (b.tools ?? []) as unknown as WireTool[];
  return {
    model: b.model,
    messages: b.messages as unknown as WireMessage[],
    tools,
    rawTools: b.tools as unknown as WireTool[] | undefined,
    stream: b.stream === true,
    includeUsage: b.stream === true && b.stream_options?.include_usage === true,
    stop: b.stop == null ? [] : typeof b.stop === 'string' ? [b.stop] : b.stop,
    noCalls: b.tool_choice === 'none',
  };
}
