/**
 * `parallax run` against a provider that reports usage: the tokenizer (for the prompt composition it prints) must
 * not begin to load before the first request is out. A resolve-hook probe preloaded into the real CLI notes when
 * each tokenizer module is first asked for; the replay server notes when the first request arrived.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ModelResponseEvent } from '../../../shared/step-event.js';
import { cliReplay } from '../../helpers/cli-replay.js';
import type { ReplayReply } from '../../helpers/replay-server.js';
import { WIRE_SHAPES } from '../../helpers/wire-shapes.js';
import { cliModules } from '../host/cli-process.js';

const PROBE = join(process.cwd(), 'tests/helpers/load-probe.mjs');
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe('parallax run loads its tokenizer after the first request', () => {
  it('with usage reported: the composition is counted, and nothing of the tokenizer was asked for before the request arrived', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parallax-load-probe-'));
    dirs.push(dir);
    const probe = join(dir, 'loads.txt');
    const shape = WIRE_SHAPES.find((s) => s.name === 'openai')!;
    let firstAt = 0;
    const script = (_req: unknown, n: number): ReplayReply => {
      if (n === 0) firstAt = Date.now();
      return shape.replies[Math.min(n, shape.replies.length - 1)]!;
    };
    // Module by module (the bundle's chunks have other names; tests/build/bundle-cli.test.ts probes those).
    const r = await cliReplay('sk-probe-5e6f', { cli: cliModules }).run(script, ['--json'], {
      nodeArgs: ['--import', PROBE],
      env: { PARALLAX_LOAD_PROBE: probe, PARALLAX_LOAD_PROBE_MATCH: 'count-tokens|prompt-composition|gpt-tokenizer' },
    });
    expect(r.code, r.stderr).toBe(0);
    // The composition was counted: the tokenizer did load, for it.
    const steps = r.events.filter((e): e is ModelResponseEvent => e.type === 'model-response');
    expect(steps[0]!.promptComposition, 'step 1 composition').toBeDefined();
    const loads = (await readFile(probe, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => ({ at: Number(l.split(' ')[0]), what: l.slice(l.indexOf(' ') + 1) }));
    expect(
      loads.some((l) => /count-tokens|gpt-tokenizer/.test(l.what)),
      'the probe saw the tokenizer load',
    ).toBe(true);
    expect(firstAt).toBeGreaterThan(0);
    for (const l of loads)
      expect(l.at, `${l.what} asked for ${firstAt - l.at} ms before the first request arrived`).toBeGreaterThanOrEqual(
        firstAt,
      );
  });
});
