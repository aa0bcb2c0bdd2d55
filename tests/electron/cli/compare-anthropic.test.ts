/**
 * `parallax compare --provider anthropic --base-url <simulated model>`: every mode runs through the native
 * Messages API client against the simulated model's /v1/messages, labelled simulated, with the usage each step
 * was sent (cache reads and writes as their own figures) and no key sent anywhere.
 */
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODE_IDS } from '../../../shared/modes.js';
import type { ModelResponseEvent, RunFinishedEvent, StepEvent } from '../../../shared/step-event.js';
import { startSimServer, type SimServer } from '../../../electron/sim/index.js';
import { runCli } from '../host/cli-process.js';

let sim: SimServer;
beforeAll(async () => {
  sim = await startSimServer();
});
afterAll(async () => {
  await sim.close();
});

async function compare(promptCache: string) {
  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-cli-anthropic-'));
  const env: NodeJS.ProcessEnv = { ...process.env, PARALLAX_DATA_DIR: dataDir };
  delete env.ANTHROPIC_API_KEY;
  const res = await runCli(
    [
      'compare',
      '--task',
      'log-stats',
      '--provider',
      'anthropic',
      '--base-url',
      sim.url,
      '--modes',
      MODE_IDS.join(','),
      '--prompt-cache',
      promptCache,
      '--json',
    ],
    env,
  );
  expect(res.code, res.stderr).toBe(0);
  const out = JSON.parse(res.stdout) as {
    comparisonId: string;
    simulated: boolean;
    runs: {
      mode: string;
      status: string;
      validation: { ok: boolean } | null;
      usage: { prompt: number; cached: number; cacheWrite: number };
    }[];
  };
  const folder = join(dataDir, 'comparisons', out.comparisonId, 'runs');
  const runs = new Map<string, StepEvent[]>();
  for (const f of await readdir(folder)) {
    const events = (await readFile(join(folder, f), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as StepEvent);
    runs.set(events[0].type === 'run-started' ? events[0].mode : f, events);
  }
  return { out, runs };
}

const responses = (events: readonly StepEvent[]) =>
  events.filter((e): e is ModelResponseEvent => e.type === 'model-response');

describe('parallax compare --provider anthropic on the simulated model', () => {
  it('every mode answers log-stats through the Messages API; each step records the split usage, stop_reason and request id', async () => {
    const { out, runs } = await compare('off');
    expect(out.simulated).toBe(true);
    expect(out.runs.map((r) => [r.mode, r.status, r.validation?.ok])).toEqual(
      MODE_IDS.map((m) => [m, 'answered', true]),
    );
    for (const [mode, events] of runs) {
      const started = events[0];
      expect(started.type === 'run-started' && started.provider.name, mode).toBe('anthropic');
      for (const r of responses(events)) {
        // No cache_control sent: the server reports zero reads and writes, and they are kept as sent.
        expect(r.usage, mode).toMatchObject({ cached: 0, cacheWrite: 0 });
        expect(r.usageSource).toBe('reported');
        expect(r.requestId).toMatch(/^req_msg_sim_/);
        // Text ReAct's actions are parsed from text cut at its stop sequence: the API says stop_sequence.
        if (r.parsed)
          expect([r.finishReason, r.stopReason]).toEqual(['stop', r.toolCalls.length ? 'stop_sequence' : 'end_turn']);
        else
          expect([r.finishReason, r.stopReason]).toEqual(
            r.toolCalls.length ? ['tool_calls', 'tool_use'] : ['stop', 'end_turn'],
          );
      }
      const finished = events.at(-1) as RunFinishedEvent;
      expect(finished.totals.prompt).toBe(responses(events).reduce((s, r) => s + r.usage!.prompt, 0));
    }
  });

  it('promptCache "conversation": ReAct reads each step\'s conversation back from the cache; reads and writes stay inside the prompt', async () => {
    const { out, runs } = await compare('conversation');
    expect(out.runs.every((r) => r.status === 'answered')).toBe(true);
    const react = responses(runs.get('react')!);
    expect(react[0].usage).toMatchObject({ cached: 0 });
    expect(react[0].usage!.cacheWrite).toBe(0);
    // From the second step on, the previous step's prefix is read.
    for (const r of react.slice(2)) expect(r.usage!.cached).toBeGreaterThan(0);
    // --json totals are the steps' own figures, cache writes included.
    const totals = out.runs.find((r) => r.mode === 'react')!.usage;
    expect(totals.cached).toBe(react.reduce((s, r) => s + r.usage!.cached!, 0));
    expect(totals.cacheWrite).toBe(react.reduce((s, r) => s + r.usage!.cacheWrite!, 0));
    expect(totals.cacheWrite).toBeGreaterThan(0);
    for (const events of runs.values()) {
      for (const r of responses(events))
        expect(r.usage!.cached! + r.usage!.cacheWrite!).toBeLessThanOrEqual(r.usage!.prompt);
    }
  });
});
