/**
 * Round three of recorded provider shapes (tests/helpers/wire-shapes-3.ts, wire-shapes-3-anthropic.ts) through the
 * real worker path, in ReAct, Code Mode and ReAct (text): costs as the provider reported them (BYOK fee plus the
 * provider's charge, Perplexity's cost object), an empty or cut-short final reply never answered, reasoning read from
 * content parts and <think> blocks and sent back as it came, Together's token_id never sent back, and errors
 * classified by status and code (Groq's 429 retried, its 413 not; LiteLLM's data-line error with its words).
 */
import { describe, expect, it } from 'vitest';
import { problems3 } from '../../helpers/wire-judge-3.js';
import { wireHost } from '../../helpers/wire-host.js';
import { WIRE_SHAPES_3_OPENAI } from '../../helpers/wire-shapes-3.js';
import { WIRE_SHAPES_3_ANTHROPIC } from '../../helpers/wire-shapes-3-anthropic.js';
import { WIRE_SHAPES_3_FILTERED } from '../../helpers/wire-shapes-3-filtered.js';

const { compare } = wireHost('sk-replay-3-0f1e2d3c4b5a');

describe('round-three provider shapes through host + worker, in ReAct, Code Mode and ReAct (text)', () => {
  for (const shape of [...WIRE_SHAPES_3_OPENAI, ...WIRE_SHAPES_3_ANTHROPIC, ...WIRE_SHAPES_3_FILTERED]) {
    for (const family of shape.families) {
      it(`${shape.name} in ${family} (${shape.source})`, async () => {
        const { replies, expect: want } = shape.build(family);
        const { events, server } = await compare(replies, {
          modes: [family],
          settings: { maxRetries: 1, maxSteps: 4 },
          ...(shape.protocol === 'anthropic' ? { provider: { protocol: 'anthropic' } } : {}),
        });
        expect(problems3(events, server.chatRequests(), want)).toEqual([]);
      });
    }
  }
});
