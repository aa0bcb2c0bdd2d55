/**
 * `parallax compare --trials 5 --json` end to end: the simulated model varies per trial, so the figures have a
 * real spread. Means, sds and intervals are recomputed here from the runs in the same output, with the t
 * quantile written down from scipy, and the differences are checked against the runs paired by trial.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../host/cli-process.js';

// scipy.stats.t.ppf(0.975, 4)
const T975_DF4 = 2.7764451051977934;

type Interval = [number, number] | null;
interface Out {
  runs: {
    mode: string;
    trial: number;
    status: string;
    validation: { ok: boolean } | null;
    steps: number;
    usage: { prompt: number; completion: number };
  }[];
  byMode: Record<
    string,
    Record<string, { n: number; mean: number; sd: number | null; ci95: Interval } | undefined> & {
      passRate: { k: number; n: number; ci95: [number, number] };
    }
  >;
  differences: {
    mode: string;
    baseline: string;
    figure: string;
    paired: boolean;
    n: number;
    diff: number;
    ci95: Interval;
    p: number | null;
    sentence: string;
  }[];
  figures: string;
}

describe('parallax compare --trials 5 --json', () => {
  it('gives mean, sd and 95 % interval per mode and figure, and paired differences with exact p', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'parallax-cli-stats-'));
    const env: NodeJS.ProcessEnv = { ...process.env, PARALLAX_DATA_DIR: dataDir };
    delete env.OPENAI_API_KEY;
    const res = await runCli(['compare', '--task', 'log-stats', '--trials', '5', '--json'], env);
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout) as Out;
    expect(out.figures).toMatch(/every run that ended by itself/);
    for (const mode of ['react', 'code']) {
      const runs = out.runs.filter((r) => r.mode === mode);
      expect(runs).toHaveLength(5);
      const prompts = runs.map((r) => r.usage.prompt);
      const m = prompts.reduce((a, b) => a + b, 0) / 5;
      const sd = Math.sqrt(prompts.reduce((a, v) => a + (v - m) ** 2, 0) / 4);
      const s = out.byMode[mode].prompt!;
      expect(s.n).toBe(5);
      expect(s.mean).toBeCloseTo(m, 9);
      expect(s.sd).toBeCloseTo(sd, 9);
      expect(s.ci95![0]).toBeCloseTo(m - (T975_DF4 * sd) / Math.sqrt(5), 6);
      expect(s.ci95![1]).toBeCloseTo(m + (T975_DF4 * sd) / Math.sqrt(5), 6);
      expect(out.byMode[mode].passRate.n).toBe(5);
    }
    // The simulated model varies per trial: some figure really spreads.
    expect(['react', 'code'].some((mode) => (out.byMode[mode].prompt!.sd ?? 0) > 0)).toBe(true);

    const prompt = out.differences.find((d) => d.mode === 'code' && d.figure === 'prompt')!;
    expect(prompt).toMatchObject({ baseline: 'react', paired: true, n: 5 });
    const pairs = [1, 2, 3, 4, 5].map((t) => {
      const of = (mode: string) => out.runs.find((r) => r.mode === mode && r.trial === t)!.usage.prompt;
      return of('code') - of('react');
    });
    expect(prompt.diff).toBeCloseTo(pairs.reduce((a, b) => a + b, 0) / 5, 9);
    // Sign-flip test over 32 patterns: a multiple of 1/32.
    expect(Number.isInteger(prompt.p! * 32)).toBe(true);
    // "± h %" when the interval stays above −100 %, else the interval written as a range ending at 100 % fewer.
    expect(prompt.sentence).toMatch(
      /^Code Mode used \d+ % (± \d+ % )?(fewer|more) prompt tokens than ReAct \((95 % CI \d+ % to 100 % fewer prompt tokens; )?p = [\d.]+, 5 paired trials/,
    );
    expect(out.differences.map((d) => d.figure)).toEqual([
      'prompt',
      'completion',
      'total',
      'steps',
      'wallMs',
      'passRate',
    ]);
  });
});
