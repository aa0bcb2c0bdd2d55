import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHost } from '../../../electron/host/host.js';
import { HistoryStore } from '../../../electron/host/history-store.js';
import { runCli } from '../host/cli-process.js';
import { syntheticLauncher } from '../host/session-helpers.js';

describe('parallax history', () => {
  it('lists what the host stored, as JSON and as text, and says how to start when empty', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'parallax-cli-history-'));
    const env = { ...process.env, PARALLAX_DATA_DIR: dataDir };
    const empty = await runCli(['history'], env);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toMatch(/No comparisons stored .* parallax compare --task log-stats/);

    const host = createHost({
      dataDir,
      launcher: syntheticLauncher({}, ['--events', '8']),
      getApiKey: async () => null,
      onEvents: () => {},
    });
    const meta = await host['comparison:start']({
      task: 'calc',
      modes: ['react', 'code'],
      provider: { name: 'simulated', baseUrl: null, model: 'sim' },
    });
    await host.whenDone(meta.id);
    await host.close();

    const json = await runCli(['history', '--json'], env);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(await new HistoryStore(dataDir).list());
    const text = await runCli(['history'], env);
    expect(text.stdout).toContain(meta.id);
    expect(text.stdout).toMatch(/calc\s+sim \(simulated\)/);
    expect(text.stdout).toMatch(/ReAct: answered, 2 steps, 320 tokens \| Code Mode: answered, 2 steps, 320 tokens/);
  });

  it("shows a comparison with trials as ×N, with each mode's statuses and means over its answered runs", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'parallax-cli-history-'));
    const crash = syntheticLauncher({}, ['--events', '3', '--then', 'crash']);
    const ok = syntheticLauncher({ react: ['--events', '8'], code: ['--events', '11'] });
    const host = createHost({
      dataDir,
      getApiKey: async () => null,
      onEvents: () => {},
      // ReAct's second trial crashes: it counts as a trial, not in the means.
      launcher: { launch: (o) => (o.name.endsWith('-react-t2') ? crash : ok).launch(o) },
    });
    const meta = await host['comparison:start']({
      task: 'calc',
      modes: ['react', 'code'],
      trials: 3,
      provider: { name: 'simulated', baseUrl: null, model: 'sim' },
    });
    await host.whenDone(meta.id);
    await host.close();
    const [item] = await new HistoryStore(dataDir).list();
    const answered = (mode: string) => item.runs.filter((r) => r.mode === mode && r.status === 'answered');
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(answered('react')).toHaveLength(2);

    const text = await runCli(['history'], { ...process.env, PARALLAX_DATA_DIR: dataDir });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/calc\s+sim \(simulated\)\s+×3 trials/);
    const react = answered('react');
    expect(text.stdout).toContain(
      `ReAct ×3: 2 answered, 1 crashed · mean ${mean(react.map((r) => r.steps))} steps, ${mean(react.map((r) => r.totalTokens))} tokens`,
    );
    const code = answered('code');
    expect(text.stdout).toContain(
      `Code Mode ×3: 3 answered · mean ${mean(code.map((r) => r.steps))} steps, ${mean(code.map((r) => r.totalTokens))} tokens`,
    );
  });
});
