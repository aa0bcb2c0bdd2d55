/** What the recording proxy's two wire formats share: one chat request in the loop's own form, and its reply. */
import type { ChatMessage, ChatReply, ToolChoice } from '../provider/chat-client.js';
import type { ToolExposure } from '../../../shared/step-event.js';

export interface ProxiedChat {
  readonly wire: 'openai' | 'anthropic';
  /** The model the agent asked for (the column's model is what is sent). */
  readonly model: string;
  /** The history in chat-completions form (an Anthropic request's system, tool_use and tool_result converted). */
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolExposure[];
  readonly temperature: number | null;
  readonly toolChoice?: ToolChoice;
  readonly stop?: readonly string[];
  readonly maxTokens?: number;
  readonly stream: boolean;
  /** OpenAI stream_options.include_usage: send the usage chunk. */
  readonly includeUsage: boolean;
}

export type ProxyReply = ChatReply;
