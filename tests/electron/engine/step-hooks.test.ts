/**
 * A mode's per-step hooks through the real loop and a loopback server: prepareStep's tool choice and added
 * messages reach the request on the wire and the record (model-request's addedMessages, counted by the prompt
 * composition as the mode's instructions), and readReply decides whether a reply without calls ends the run.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSettings, type RunSpec } from '../../../shared/run-spec.js';
import type { StepEvent } from '../../../shared/step-event.js';
import { EventRecorder } from '../../../electron/engine/event-recorder.js';
import { runLoop } from '../../../electron/engine/loop.js';
import type { ModeAdapter } from '../../../electron/engine/modes/mode.js';
import { nativeTurn } from '../../../electron/engine/modes/turns.js';
import { createChatClient } from '../../../electron/engine/provider/chat-client.js';
import { CompositionTracker } from '../../../electron/engine/tokens/prompt-composition.js';
import { PER_MESSAGE, tok } from '../../../electron/engine/tokens/count-tokens.js';
import { sse, startReplayServer, type ReplayServer } from '../../helpers/replay-server.js';

const chunk = (delta: object, finish: string | null = null) => ({
  id: 'x',
  object: 'chat.completion.chunk',
  created: 0,
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const USAGE = {
  id: 'x',
  object: 'chat.completion.chunk',
  created: 0,
  model: 'm',
  choices: [],
  usage: { prompt_tokens: 500, completion_tokens: 3, total_tokens: 503 },
};

// First a plan, then the answer: each reply ends without a tool call.
let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer([
    { body: sse([chunk({ role: 'assistant', content: '1. Look. 2. Answer.' }, 'stop'), USAGE]) },
    { body: sse([chunk({ role: 'assistant', content: 'The answer.' }, 'stop'), USAGE]) },
  ]);
});
afterAll(() => server.close());

const TOOL = { name: 'list_dir', description: 'List a folder.', parameters: { type: 'object', properties: {} } };
const PLAN = 'Write a numbered plan first; call no tool yet.';

describe('per-step hooks', () => {
  it('sends the tool choice and the added messages, records them, and lets the mode say a reply is no answer', async () => {
    const mode: ModeAdapter = {
      id: 'react',
      systemPrompt: 'You are an agent.',
      tools: () => [TOOL],
      prepareStep: ({ step }) =>
        step === 1 ? { toolChoice: 'none', messages: [{ role: 'user', content: PLAN }] } : {},
      // The plan (step 1) is no answer: the run goes on to step 2.
      readReply: (reply, step, client) =>
        step === 1 ? { ...nativeTurn(reply, step, client), answer: null } : nativeTurn(reply, step, client),
      handleCall: () => Promise.resolve('never called'),
    };
    const settings = parseSettings({});
    const spec = {
      runId: randomUUID(),
      task: { id: null, text: 'What is here?' },
      mode: 'react',
      provider: { name: 'scripted', baseUrl: server.url, model: 'm', simulated: false },
      apiKeyEnv: null,
      settings,
      workspace: '.',
    } as unknown as RunSpec;
    const events: StepEvent[] = [];
    const recorder = new EventRecorder(spec.runId, (e) => events.push(e));
    const client = createChatClient(spec.provider, null, {
      timeoutMs: 10_000,
      idleTimeoutMs: 10_000,
      deadlineMs: 20_000,
      streamOptions: true,
    });
    const result = await runLoop({ spec, mode, client, recorder, signal: new AbortController().signal });

    expect(result).toMatchObject({ status: 'answered', answer: 'The answer.' });
    const bodies = server.chatRequests().map((r) => r.body!);
    expect(bodies).toHaveLength(2);
    expect(bodies[0]!.tool_choice).toBe('none');
    expect(bodies[1]).not.toHaveProperty('tool_choice');
    // The added message went into the history before the first request, and stays for the next.
    for (const body of bodies) expect((body.messages as { content: string }[]).map((m) => m.content)).toContain(PLAN);
    const requests = events.filter(
      (e): e is Extract<StepEvent, { type: 'model-request' }> => e.type === 'model-request',
    );
    expect(requests[0]!.addedMessages).toEqual([{ role: 'user', content: PLAN }]);
    expect(requests[1]).not.toHaveProperty('addedMessages');

    // The composition reads the added message from the record: the system part grows by exactly its tokens.
    const measure = (withAdded: boolean) => {
      const tracker = new CompositionTracker();
      tracker.observe({
        type: 'run-started',
        runId: spec.runId,
        seq: 0,
        t: 0,
        mode: 'react',
        systemPrompt: mode.systemPrompt,
        task: spec.task,
        tools: [TOOL],
      } as unknown as StepEvent);
      const request = withAdded ? requests[0]! : { ...requests[0]!, addedMessages: undefined };
      tracker.observe(request);
      const response = events.find((e) => e.type === 'model-response')!;
      const out = tracker.observe(response) as { promptComposition?: { system: number } };
      return out.promptComposition!.system;
    };
    expect(measure(true) - measure(false)).toBe(PER_MESSAGE + tok('user') + tok(PLAN));
  });
});
