/**
 * Round two of recorded provider shapes (tests/helpers/wire-shapes-2.ts) through the real worker path, in
 * ReAct, Code Mode and ReAct (text): the host spawns a worker, the worker talks to a loopback replay server
 * (OpenAI chat completions, or the Messages API for a custom provider with protocol anthropic), and what is
 * stored must be what the wire said: usage wherever the server put it, the calls it meant, refusals and content
 * filters as their own outcome with the provider's words, cut calls not run, an empty reply retried, and
 * Anthropic's paused turn continued with every block sent back.
 */
import { describe, expect, it } from 'vitest';
import { judge } from '../../helpers/wire-judge.js';
import { wireHost } from '../../helpers/wire-host.js';
import { WIRE_SHAPES_2 } from '../../helpers/wire-shapes-2.js';

const KEY = 'sk-replay-2-9d8c7b6a5f4e';
const { compare } = wireHost(KEY);

describe('round-two provider shapes through host + worker, in ReAct, Code Mode and ReAct (text)', () => {
  for (const shape of WIRE_SHAPES_2) {
    for (const family of shape.families) {
      it(`${shape.name} in ${family} (${shape.source})`, async () => {
        const { replies, expect: want } = shape.build(family);
        const { events, server } = await compare(replies, {
          modes: [family],
          settings: { maxRetries: 1, maxSteps: 4 },
          ...(shape.protocol === 'anthropic' ? { provider: { protocol: 'anthropic' } } : {}),
        });
        const reqs = server.chatRequests();
        judge(events, reqs, want);
        if (shape.protocol === 'anthropic') expect(reqs[0]!.headers['x-api-key']).toBe(KEY);
      });
    }
  }
});
