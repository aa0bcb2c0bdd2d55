/**
 * The real CLI (`parallax run --mode … --base-url <replay> [--protocol anthropic]`) against every round-three wire
 * shape, in ReAct, Code Mode and ReAct (text): the event log must hold what the wire said and the requests what
 * should go back (the same checks as the host + worker test), the exit code and the JSON status must say whether the
 * run answered, and a run whose final reply was cut short, empty, refused or filtered prints its status and the
 * provider's reason, and its last step's line why that reply is no answer, never an answer.
 */
import { describe, expect, it } from 'vitest';
import { cliReplay } from '../../helpers/cli-replay.js';
import { problems3 } from '../../helpers/wire-judge-3.js';
import { WIRE_SHAPES_3_OPENAI } from '../../helpers/wire-shapes-3.js';
import { WIRE_SHAPES_3_ANTHROPIC } from '../../helpers/wire-shapes-3-anthropic.js';
import { WIRE_SHAPES_3_FILTERED } from '../../helpers/wire-shapes-3-filtered.js';

const KEY = 'sk-replay-cli3-5e4d3c2b1a';
const { run } = cliReplay(KEY);
const SHAPES = [...WIRE_SHAPES_3_OPENAI, ...WIRE_SHAPES_3_ANTHROPIC, ...WIRE_SHAPES_3_FILTERED];
const args = (family: string, anthropic: boolean, json = true) => [
  '--mode',
  family,
  '--max-steps',
  '4',
  ...(json ? ['--json'] : []),
  '--settings',
  '{"maxRetries":1}',
  ...(anthropic ? ['--protocol', 'anthropic'] : []),
];

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

  const LAST_STEP: Record<string, RegExp> = {
    'gemini-empty-stop': /\(empty reply: not an answer\)/,
    'final-reply-cut-by-length': /\(cut short at the token limit: not an answer\)/,
    'gemini-final-recitation-after-text': /\(refused or filtered by the provider: not an answer\)/,
    'azure-final-content-filter-no-done': /\(refused or filtered by the provider: not an answer\)/,
    'anthropic-final-refusal-after-text': /\(refused or filtered by the provider: not an answer\)/,
  };
  it.each(
    Object.keys(LAST_STEP).flatMap((name) =>
      (['react', 'react-text'] as const).map((family) => [name, family] as const),
    ),
  )('%s in %s: the terminal says the status and why, and prints no answer', async (name, family) => {
    const shape = SHAPES.find((s) => s.name === name)!;
    const { replies, expect: want } = shape.build(family);
    const r = await run(replies, args(family, shape.protocol === 'anthropic', false));
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`status: ${want.status} — `));
    expect(r.stdout).toMatch(want.error!);
    // The last step's line says why its reply is no answer, though a filtered one held most of an answer.
    expect(r.stdout).toMatch(new RegExp(`^\\s+2\\s.*${LAST_STEP[name]!.source}$`, 'm'));
    expect(r.stdout).not.toMatch(/\(answer\)/);
    expect(r.stdout).not.toMatch(/^answer:/m);
    expect(r.stdout).not.toMatch(/status: answered/);
  });
});
