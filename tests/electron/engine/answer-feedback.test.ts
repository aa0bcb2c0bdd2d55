/**
 * A task's harness answering a wrong answer (loop.ts answerFeedback), through the real loop and a loopback
 * server: the feedback goes to the model before the next step and into that step's record, the run goes on
 * until an answer stands, and at the step limit the last answer is the run's answer.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSettings, type RunSpec } from '../../../shared/run-spec.js';
import type { StepEvent } from '../../../shared/step-event.js';
import { EventRecorder } from '../../../electron/engine/event-recorder.js';
import { runLoop } from '../../../electron/engine/loop.js';
import type { ModeAdapter } from '../../../electron/engine/modes/mode.js';
import { nativeTurn } from '../../../electron/engine/modes/turns.js';
import { createChatClient } from '../../../electron/engine/provider/chat-client.js';
import { sse, startReplayServer, type ReplayServer } from '../../helpers/replay-server.js';

const chunk = (content: string) => ({
  id: 'x',
  object: 'chat.completion.chunk',
  created: 0,
  model: 'm',
  choices: [{ index: 0, delta: { role: 'assistant', content }, finish_reason: 'stop' }],
});
const USAGE = {
  id: 'x',
  object: 'chat.completion.chunk',
  created: 0,
  model: 'm',
  choices: [],
  usage: { prompt_tokens: 50, completion_tokens: 3, total_tokens: 53 },
};
const WRONG = 'Your answer is incorrect. Please try again.';

let server: ReplayServer | null = null;
afterEach(() => server?.close());

async function run(replies: string[], maxSteps: number, feedback: (answer: string) => Promise<string | null>) {
  server = await startReplayServer(replies.map((r) => ({ body: sse([chunk(r), USAGE]) })));
  const mode: ModeAdapter = {
    id: 'react',
    systemPrompt: 'You are an agent.',
    tools: () => [],
    readReply: (reply, step, client) => nativeTurn(reply, step, client),
    handleCall: () => Promise.resolve(''),
  };
  const spec = {
    runId: randomUUID(),
    task: { id: null, text: 'What is 6 × 7?' },
    mode: 'react',
    provider: { name: 'scripted', baseUrl: server.url, model: 'm', simulated: false },
    apiKeyEnv: null,
    settings: parseSettings({ maxSteps }),
    workspace: '.',
  } as unknown as RunSpec;
  const events: StepEvent[] = [];
  const client = createChatClient(spec.provider, null, {
    timeoutMs: 10_000,
    idleTimeoutMs: 10_000,
    deadlineMs: 20_000,
    streamOptions: true,
  });
  const result = await runLoop({
    spec,
    mode,
    client,
    recorder: new EventRecorder(spec.runId, (e) => events.push(e)),
    signal: new AbortController().signal,
    answerFeedback: feedback,
  });
  return { result, events, bodies: server.chatRequests().map((r) => r.body!) };
}

describe('answer feedback', () => {
  const judge = (answer: string) => Promise.resolve(answer.trim() === 'Answer: 42' ? null : WRONG);

  it('tells the model a wrong answer is wrong and goes on until an answer stands', async () => {
    const { result, events, bodies } = await run(['Answer: 41', 'Answer: 42'], 10, judge);
    expect(result).toEqual({ status: 'answered', answer: 'Answer: 42' });
    expect(bodies).toHaveLength(2);
    const second = bodies[1]!.messages as { role: string; content: string }[];
    expect(second.slice(-2)).toEqual([
      { role: 'assistant', content: 'Answer: 41' },
      { role: 'user', content: WRONG },
    ]);
    const requests = events.filter(
      (e): e is Extract<StepEvent, { type: 'model-request' }> => e.type === 'model-request',
    );
    expect(requests.map((r) => r.addedMessages ?? null)).toEqual([null, [{ role: 'user', content: WRONG }]]);
  });

  it('at the step limit keeps the last answer, wrong as it is, without asking again', async () => {
    const asked: string[] = [];
    const { result, bodies } = await run(['Answer: 40', 'Answer: 41'], 2, (a) => {
      asked.push(a);
      return judge(a);
    });
    expect(result).toEqual({ status: 'answered', answer: 'Answer: 41' });
    expect(bodies).toHaveLength(2);
    expect(asked).toEqual(['Answer: 40']);
  });
});
