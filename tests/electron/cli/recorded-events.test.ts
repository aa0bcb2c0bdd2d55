/**
 * Start-up work (bundling, loading later, probing in the background) must not change a recorded number: the
 * events of real CLI runs on the simulated model and on a replayed provider are byte for byte the committed
 * fixtures, recorded before that work, once the clock, random ids and loopback ports are normalised
 * (tests/fixtures/events/recorded-events.ts says which fields, and how to record again).
 * Where bubblewrap cannot run, every run-started records another shell sandbox: the comparison is skipped there.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { shellSandbox } from '../../../electron/engine/sandbox/shell-sandbox.js';
import { EVENT_CASES, FIXTURES, normalise } from '../../fixtures/events/recorded-events.js';

const cli = process.env.PARALLAX_EVENTS_CLI ?? join(process.cwd(), 'bin/parallax.js');
const recording = process.env.PARALLAX_RECORD_EVENTS === '1';
const bubblewrap = shellSandbox().kind === 'bubblewrap';

describe.skipIf(!bubblewrap)('recorded events are byte-identical to the fixtures', () => {
  it.each(EVENT_CASES.map((c) => [c.name, c] as const))('%s', async (name, c) => {
    const file = fileURLToPath(new URL(`${name}.jsonl`, FIXTURES));
    const got = normalise(await c.record(cli));
    if (recording) await writeFile(file, got);
    const want = await readFile(file, 'utf8');
    // Line by line first, so a difference names its event; then the whole text, byte for byte.
    const [g, w] = [got.split('\n'), want.split('\n')];
    for (let i = 0; i < Math.max(g.length, w.length); i++) expect(g[i], `${name}, event ${i}`).toBe(w[i]);
    expect(got).toBe(want);
  });

  it('the normalisation touches only the clock, ids and ports: a changed usage figure or text is still seen', async () => {
    const want = await readFile(fileURLToPath(new URL(`${EVENT_CASES[0]!.name}.jsonl`, FIXTURES)), 'utf8');
    const lines = want.trim().split('\n');
    const i = lines.findIndex((l) => l.includes('"type":"model-response"'));
    const changed = lines.map((l, k) =>
      k === i ? l.replace(/"prompt":(\d+)/, (_, n: string) => `"prompt":${Number(n) + 1}`) : l,
    );
    expect(normalise(changed)).not.toBe(want);
    expect(normalise(lines)).toBe(want);
  });

  it('two parallel calls of one step finishing the other way round are the same record (their seqs follow their places)', async () => {
    const want = await readFile(fileURLToPath(new URL('run-replay-openai-react.jsonl', FIXTURES)), 'utf8');
    const events = want
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; step: number; seq: number });
    const i = events.findIndex(
      (e, k) => e.type === 'tool-finished' && events[k + 1]?.type === 'tool-finished' && events[k + 1]!.step === e.step,
    );
    expect(i, 'the replay has two parallel calls').toBeGreaterThan(0);
    const swapped = [...events];
    [swapped[i], swapped[i + 1]] = [
      { ...events[i + 1]!, seq: events[i]!.seq },
      { ...events[i]!, seq: events[i + 1]!.seq },
    ];
    expect(normalise(swapped.map((e) => JSON.stringify(e)))).toBe(want);
  });
});
