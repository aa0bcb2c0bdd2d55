/**
 * summarize:K through the Anthropic provider, against a loopback replay of the Messages API's event stream: the
 * summary request goes as a Messages request of its own (system apart, no tools), its usage is recorded as the
 * API reported it (cache reads and writes included in the prompt), and a failed request keeps the history whole.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  askWith,
  HistorySummarizer,
  SUMMARY_LEAD,
  SUMMARY_SYSTEM,
} from '../../../electron/engine/history-summarizer.js';
import { createChatClient, type ChatMessage } from '../../../electron/engine/provider/chat-client.js';
import type { ProviderInfo } from '../../../shared/run-spec.js';
import { errorBody, event, messageStart, streamReply } from '../../helpers/anthropic-shapes.js';
import { jsonReply, startReplayServer, type ReplayReply, type ReplayServer } from '../../helpers/replay-server.js';

const servers: ReplayServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const SUMMARY_STREAM = streamReply([
  event(
    messageStart(
      { input_tokens: 140, cache_creation_input_tokens: 0, cache_read_input_tokens: 60, output_tokens: 1 },
      'msg_01summary',
    ),
  ),
  event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Read notes/todo.txt: ' } }),
  event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: '3 items, 1 done.' } }),
  event({ type: 'content_block_stop', index: 0 }),
  event({
    type: 'message_delta',
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: { output_tokens: 12 },
  }),
  event({ type: 'message_stop' }),
]);

/** A history of two finished steps after the task: each step an assistant call and its tool result. */
function history(summarizer: HistorySummarizer): ChatMessage[] {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'You are an agent.' },
    { role: 'user', content: 'Summarise the notes.' },
  ];
  for (const step of [1, 2]) {
    summarizer.mark(step, messages.length);
    messages.push(
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          {
            id: `toolu_${step}`,
            type: 'function',
            function: { name: 'read_file', arguments: `{"path":"notes/${step}.txt"}` },
          },
        ],
      },
      { role: 'tool', tool_call_id: `toolu_${step}`, content: `contents of file ${step}` },
    );
  }
  summarizer.mark(3, messages.length);
  return messages;
}

async function summarise(reply: ReplayReply) {
  const server = await startReplayServer([reply]);
  servers.push(server);
  const provider: ProviderInfo = {
    name: 'anthropic',
    baseUrl: server.url,
    model: 'claude-sonnet-4-5',
    simulated: false,
  };
  const client = createChatClient(provider, 'sk-ant-test-0123456789', {
    timeoutMs: 5000,
    idleTimeoutMs: 5000,
    deadlineMs: 20_000,
    streamOptions: true,
  });
  const summarizer = new HistorySummarizer(1);
  const messages = history(summarizer);
  const before = messages.length;
  const record = await summarizer.beforeRequest(
    messages,
    3,
    askWith(client, provider.model, null, new AbortController().signal),
  );
  return { server, record, messages, before };
}

describe('summarize:K on the Messages API', () => {
  it('sends the summary request with its system prompt apart and no tools, and records the usage as reported', async () => {
    const { server, record, messages, before } = await summarise(SUMMARY_STREAM);
    const [req] = server.chatRequests();
    expect(req!.path).toMatch(/\/messages$/);
    expect(req!.body!.system).toEqual(SUMMARY_SYSTEM);
    expect(req!.body!.tools).toBeUndefined();
    const sent = req!.body!.messages as { role: string; content: unknown }[];
    expect(sent.map((m) => m.role)).toEqual(['user']);
    expect(JSON.stringify(sent[0]!.content)).toContain('read_file {\\"path\\":\\"notes/1.txt\\"}');
    expect(record).toMatchObject({
      type: 'history-summary',
      step: 3,
      fromStep: 1,
      toStep: 1,
      replacedMessages: 2,
      error: null,
    });
    // prompt = input + cache reads + cache writes, as the Messages API counts them; completion from message_delta.
    expect(record!.usage).toMatchObject({ prompt: 140 + 60, completion: 12, cached: 60 });
    expect(record!.usageSource).toBe('reported');
    // Step 1's two messages became the one summary message.
    expect(messages).toHaveLength(before - 1);
    expect(String(messages[2]!.content)).toMatch(
      new RegExp(`^\\${SUMMARY_LEAD} 1–1,.*\\nRead notes/todo.txt: 3 items, 1 done\\.$`),
    );
  });

  it('a refused summary request (overloaded) is recorded as failed, costs nothing, and keeps the history whole', async () => {
    const { record, messages, before } = await summarise(jsonReply(529, errorBody('overloaded_error', 'Overloaded')));
    expect(record).toMatchObject({
      type: 'history-summary',
      replacedMessages: 0,
      replacedTokens: 0,
      text: '',
      usage: null,
    });
    expect(record!.error).toMatch(/^The summary request failed \(.*\); the history goes on whole\.$/);
    expect(messages).toHaveLength(before);
  });
});
