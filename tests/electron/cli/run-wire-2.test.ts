/**
 * The real CLI (`parallax run --mode … --base-url <replay> [--protocol anthropic] --api-key-env VAR`) against every
 * round-two wire shape, in ReAct, Code Mode and ReAct (text): the event log must hold what the wire said (the same
 * judge as the host + worker test), the exit code must say whether the run answered, and the key appears nowhere
 * in the output.
 */
import { describe, expect, it } from 'vitest';
import { cliReplay } from '../../helpers/cli-replay.js';
import { judge } from '../../helpers/wire-judge.js';
import { WIRE_SHAPES_2 } from '../../helpers/wire-shapes-2.js';

const KEY = 'sk-replay-cli2-1a2b3c4d5e';
const { exec, run } = cliReplay(KEY);

// Each case is its own CLI process; they run a few at a time.
describe.concurrent('parallax run against round-two provider shapes', () => {
  for (const shape of WIRE_SHAPES_2) {
    for (const family of shape.families) {
      it(`${shape.name} in ${family}`, async () => {
        const { replies, expect: want } = shape.build(family);
        const r = await run(replies, [
          '--mode',
          family,
          '--max-steps',
          '4',
          '--json',
          '--settings',
          '{"maxRetries":1}',
          ...(shape.protocol === 'anthropic' ? ['--protocol', 'anthropic'] : []),
        ]);
        expect(r.stdout + r.stderr + r.log).not.toContain(KEY);
        judge(r.events, r.server.chatRequests(), want);
        expect(r.code, r.stderr).toBe(want.status === 'answered' ? 0 : 1);
        expect((JSON.parse(r.stdout) as { status: string }).status).toBe(want.status);
        if (shape.protocol === 'anthropic') expect(r.server.chatRequests()[0]!.headers['x-api-key']).toBe(KEY);
      });
    }
  }

  it('--protocol needs --base-url, and a preset at another URL is told the CLI flags to use', async () => {
    const a = await exec(['run', '--task', 'calc', '--protocol', 'anthropic']);
    expect(a.code).not.toBe(0);
    expect(a.stderr).toMatch(/--protocol goes with --base-url/);
    const b = await exec([
      'run',
      '--task',
      'calc',
      '--provider',
      'anthropic',
      '--base-url',
      'https://gateway.example.com/v1',
    ]);
    expect(b.code).not.toBe(0);
    expect(b.stderr).toMatch(
      /drop --provider anthropic and pass --base-url https:\/\/gateway\.example\.com\/v1 --protocol anthropic --api-key-env VAR/,
    );
    expect(b.stderr).toMatch(/Flag to fix: --base-url\./);
    expect(b.stderr).not.toMatch(/Custom base URL|Field to fix/);
  });

  it('refuses a misspelt --settings key and a mistyped task id, each with a suggestion', async () => {
    const s = await exec(['run', '--task', 'calc', '--settings', '{"maxStep":1}']);
    expect(s.code).not.toBe(0);
    expect(s.stderr).toMatch(
      /Unknown key in settings: "maxStep" \(did you mean "maxSteps"\?\)\. Valid settings: .*maxSteps/,
    );
    const t = await exec(['run', '--task', 'log-stat']);
    expect(t.code).not.toBe(0);
    expect(t.stderr).toMatch(
      /"log-stat" is not a built-in task \(did you mean "log-stats"\?\)\. Built-in tasks: .*calc/,
    );
  });
});
