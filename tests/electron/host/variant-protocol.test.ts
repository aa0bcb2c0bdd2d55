/**
 * A variant's `protocol`: one gateway URL that speaks both OpenAI chat completions and the Messages API (as
 * LiteLLM's proxy does), a comparison whose second column asks for the Messages API there. Real workers, a
 * loopback replay server answering each path with its own protocol's recording: each column's requests go to its
 * protocol's path with its protocol's key header, both runs record what their wire said, and meta.json keeps the
 * column's protocol.
 */
import { describe, expect, it } from 'vitest';
import type { ModelResponseEvent, RunFinishedEvent, RunStartedEvent } from '../../../shared/step-event.js';
import type { RecordedRequest, ReplayReply } from '../../helpers/replay-server.js';
import { ANSWER } from '../../helpers/wire-shapes.js';
import { WIRE_SHAPES_2 } from '../../helpers/wire-shapes-2.js';
import { wireHost } from '../../helpers/wire-host.js';

const KEY = 'sk-variant-protocol-7a8b9c';
const { compare } = wireHost(KEY);
const shape = (name: string) => WIRE_SHAPES_2.find((s) => s.name === name)!.build('react');

describe("a variant column on the Messages API at the comparison's gateway URL", () => {
  it('each column speaks its own protocol there, and records what its wire said', async () => {
    const openai = shape('kimi-top-level-cached-tokens');
    const anthropic = shape('anthropic-pause-turn-server-tool');
    const counts = { openai: 0, anthropic: 0 };
    const script = (req: RecordedRequest): ReplayReply => {
      const p = req.path.endsWith('/messages') ? 'anthropic' : 'openai';
      const replies = p === 'anthropic' ? anthropic.replies : openai.replies;
      return replies[Math.min(counts[p]++, replies.length - 1)]!;
    };
    const { events, meta, server } = await compare(script, {
      settings: { maxRetries: 0, maxSteps: 4 },
      variants: () => [{ mode: 'react' }, { mode: 'react', protocol: 'anthropic', label: 'ReAct · Messages API' }],
    });
    expect(meta.variants?.map((v) => ({ key: v.key, protocol: v.protocol }))).toEqual([
      { key: 'react', protocol: undefined },
      { key: 'react-2', protocol: 'anthropic' },
    ]);
    const reqs = server.chatRequests();
    const messages = reqs.filter((r) => r.path.endsWith('/messages'));
    const chat = reqs.filter((r) => r.path.endsWith('/chat/completions'));
    expect([chat.length, messages.length]).toEqual([2, 2]);
    for (const r of messages) expect([r.headers['x-api-key'], r.headers.authorization]).toEqual([KEY, undefined]);
    for (const r of chat) expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
    const byRun = (runId: string) => events.filter((e) => e.runId === runId);
    const runIds = [...new Set(events.map((e) => e.runId))];
    expect(runIds).toHaveLength(2);
    for (const id of runIds) {
      const run = byRun(id);
      const started = run.find((e): e is RunStartedEvent => e.type === 'run-started')!;
      const fin = run.find((e): e is RunFinishedEvent => e.type === 'run-finished')!;
      expect(fin.status, fin.error ?? undefined).toBe('answered');
      expect(fin.answer).toBe(ANSWER);
      const first = run.find((e): e is ModelResponseEvent => e.type === 'model-response')!;
      if (started.provider.protocol === 'anthropic') expect(first.usage).toEqual(anthropic.expect.usage);
      else expect(first.usage).toEqual(openai.expect.usage);
    }
    expect(
      events
        .filter((e): e is RunStartedEvent => e.type === 'run-started')
        .map((e) => e.provider.protocol ?? 'openai')
        .sort(),
    ).toEqual(['anthropic', 'openai']);
  });
});
