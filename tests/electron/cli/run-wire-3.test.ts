/**
 * The real CLI (`parallax run --mode … --base-url <replay> [--protocol anthropic]`) against every round-three wire
 * shape, in ReAct, Code Mode and ReAct (text): the event log must hold what the wire said and the requests what
 * should go back (the same checks as the host + worker test), the exit code and the JSON status must say whether the
 * run answered, and a run whose final reply was cut short or empty prints its status and the provider's reason,
 * never an answer.
 */
import { describe, expect, it } from 'vitest';
import { cliReplay } from '../../helpers/cli-replay.js';
import { problems3 } from '../../helpers/wire-judge-3.js';
import { WIRE_SHAPES_3_OPENAI } from '../../helpers/wire-shapes-3.js';
import { WIRE_SHAPES_3_ANTHROPIC } from '../../helpers/wire-shapes-3-anthropic.js';

const KEY = 'sk-replay-cli3-5e4d3c2b1a';
const { run } = cliReplay(KEY);
const SHAPES = [...WIRE_SHAPES_3_OPENAI, ...WIRE_SHAPES_3_ANTHROPIC];
const args = (family: string, anthropic: boolean, json = true) => ['--mode', family, '--max-steps', '4', ...(json ? ['--json'] : []), '--settings', '{"maxRetries":1}', ...(anthropic ? ['--protocol', 'anthropic'] : [])];

// Each case is its own CLI process; they run a few at a time.
describe.concurrent('parallax run against round-three provider shapes', () => {
  for (const shape of SHAPES) {
    for (const family of shape.families) {
      it(`${shape.name} in ${family}`, async () => {
        const { replies, expect: want } = shape.build(family);
        const r = await run(replies, args(family, shape.protocol === 'anthropic'));
        expect(r.stdout + r.stderr + r.log).not.toContain(KEY);
        expect(problems3(r.events, r.server.chatRequests(), want)).toEqual([]);
        expect(r.code, r.stderr).toBe(want.status === 'answered' ? 0 : 1);
        const out = JSON.parse(r.stdout) as { status: string; answer: string };
        expect(out.status).toBe(want.status);
        if (want.status !== 'answered') expect(out.answer).toBe('');
      });
    }
  }

  it.each(['gemini-empty-stop', 'final-reply-cut-by-length'])('%s: the terminal says the status and why, and prints no answer', async (name) => {
    const shape = SHAPES.find((s) => s.name === name)!;
    const { replies, expect: want } = shape.build('react');
    const r = await run(replies, args('react', false, false));
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`status: ${want.status} — `));
    expect(r.stdout).toMatch(want.error!);
    expect(r.stdout).not.toMatch(/^answer:/m);
    expect(r.stdout).not.toMatch(/status: answered/);
  });
});
