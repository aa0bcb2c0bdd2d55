/**
 * The run's conversation (OpenAI-shaped messages inside the engine) as a Messages API request, exactly:
 * system prompts go to `system`; an assistant turn goes back as the content blocks the server sent (thinking
 * blocks with their signatures, text, tool_use), kept on the history message under ANTHROPIC_CONTENT; `tool`
 * messages become tool_result blocks (`is_error` for failed calls), and consecutive tool results, with any user
 * text after them, are merged into one user turn, as the API requires (results first, one per tool_use).
 */
import type { PromptCacheSetting } from '../../../shared/run-spec.js';
import type { ToolExposure } from '../../../shared/step-event.js';

/** The field of an assistant history message that holds the content blocks exactly as the server sent them. */
export const ANTHROPIC_CONTENT = 'anthropic_content';

export type Block = Record<string, unknown> & { readonly type: string };

export interface MessageParam {
  readonly role: 'user' | 'assistant';
  readonly content: Block[];
}

export interface MessagesBody {
  readonly system?: string | Block[];
  readonly messages: MessageParam[];
  readonly tools?: Record<string, unknown>[];
}

interface HistoryMessage {
  readonly role?: unknown;
  readonly content?: unknown;
  readonly tool_calls?: unknown;
  readonly tool_call_id?: unknown;
  readonly is_error?: unknown;
  readonly [ANTHROPIC_CONTENT]?: unknown;
}

const CACHE = { type: 'ephemeral' } as const;

/** Plain text of an OpenAI-style content (a string, or text parts). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((p: { text?: unknown }) => (typeof p?.text === 'string' ? p.text : '')).join('');
  return '';
}

/** A tool call's arguments as the object tool_use.input must be; text that is not a JSON object goes as {}. */
export function inputOf(args: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(args || '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function assistantBlocks(m: HistoryMessage): Block[] {
  const kept = m[ANTHROPIC_CONTENT];
  if (Array.isArray(kept)) return kept as Block[];
  // A turn written elsewhere (not from this client): its text and calls as blocks.
  const blocks: Block[] = [];
  const text = textOf(m.content);
  if (text) blocks.push({ type: 'text', text });
  const calls = Array.isArray(m.tool_calls)
    ? (m.tool_calls as { id: string; function: { name: string; arguments: string } }[])
    : [];
  for (const c of calls)
    blocks.push({ type: 'tool_use', id: c.id, name: c.function.name, input: inputOf(c.function.arguments) });
  return blocks;
}

/**
 * Build system, messages and tools. `cache` 'on' puts cache_control on the last tool and on the system prompt;
 * 'conversation' also on the last block of the last message (PROMPT_CACHE_HELP).
 */
export function toMessagesBody(
  history: readonly unknown[],
  tools: readonly ToolExposure[],
  cacheSetting: PromptCacheSetting,
): MessagesBody {
  const cache = cacheSetting !== 'off';
  const system: string[] = [];
  const messages: MessageParam[] = [];
  const push = (role: 'user' | 'assistant', blocks: Block[]) => {
    if (blocks.length === 0) return;
    const last = messages[messages.length - 1];
    // Tool results and user text that follow one another form one user turn.
    if (last && last.role === role && role === 'user') last.content.push(...blocks);
    else messages.push({ role, content: [...blocks] });
  };
  for (const raw of history) {
    const m = raw as HistoryMessage;
    if (m.role === 'system' || m.role === 'developer') system.push(textOf(m.content));
    else if (m.role === 'assistant') push('assistant', assistantBlocks(m));
    else if (m.role === 'tool') {
      push('user', [
        {
          type: 'tool_result',
          tool_use_id: String(m.tool_call_id ?? ''),
          content: textOf(m.content),
          ...(m.is_error === true ? { is_error: true } : {}),
        },
      ]);
    } else if (Array.isArray(m.content) && m.content.some((p: { type?: unknown }) => p?.type === 'image_url')) {
      push('user', userParts(m.content as unknown[]));
    } else {
      const text = textOf(m.content);
      if (text) push('user', [{ type: 'text', text }]);
    }
  }
  const systemText = system.filter(Boolean).join('\n\n');
  const lastTurn = messages[messages.length - 1];
  if (cacheSetting === 'conversation' && lastTurn) {
    const i = lastTurn.content.length - 1;
    lastTurn.content[i] = { ...lastTurn.content[i], cache_control: CACHE };
  }
  const toolList = tools.map((t, i) => ({
    name: t.name,
    description: t.description,
    input_schema: t.parameters,
    ...(cache && i === tools.length - 1 ? { cache_control: CACHE } : {}),
  }));
  return {
    ...(systemText ? { system: cache ? [{ type: 'text', text: systemText, cache_control: CACHE }] : systemText } : {}),
    messages,
    ...(toolList.length ? { tools: toolList } : {}),
  };
}

/**
 * A user message's parts as Messages API blocks: text as text, an image given as a base64 data URL (a tool's
 * image, loop.ts) as an image block with its media type; any other image (a remote URL) as a line naming it.
 */
function userParts(parts: readonly unknown[]): Block[] {
  const out: Block[] = [];
  for (const raw of parts) {
    const p = (raw ?? {}) as { type?: unknown; text?: unknown; image_url?: { url?: unknown } };
    if (p.type === 'text' && typeof p.text === 'string' && p.text) out.push({ type: 'text', text: p.text });
    else if (p.type === 'image_url') {
      const url = typeof p.image_url?.url === 'string' ? p.image_url.url : '';
      const data = /^data:(image\/(?:png|jpeg|gif|webp));base64,([A-Za-z0-9+/]+={0,2})$/.exec(url);
      out.push(
        data
          ? { type: 'image', source: { type: 'base64', media_type: data[1], data: data[2] } }
          : { type: 'text', text: `[image ${url.slice(0, 200)}]` },
      );
    }
  }
  return out;
}

/** The blocks of a reply as they go back: what the server sent (inputs already rebuilt from their JSON), no empty text. */
export function blocksToResend(blocks: readonly Block[]): Block[] {
  const out: Block[] = [];
  for (const b of blocks) {
    if (b.type === 'text') {
      if (typeof b.text === 'string' && b.text !== '') out.push({ type: 'text', text: b.text });
    } else if (b.type === 'tool_use') {
      out.push({
        type: 'tool_use',
        id: b.id,
        name: b.name,
        input: b.input && typeof b.input === 'object' ? b.input : {},
      });
    } else out.push(b);
  }
  return out;
}
