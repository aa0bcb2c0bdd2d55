/**
 * `parallax diff` through the real CLI on stored comparisons (tests/fixtures/diff, real simulated runs written
 * into a fresh history): trials with a clear regression, a column that fails now, columns on one side only,
 * one run a side (no verdict), another task (refused with what to do), and the Markdown and HTML reports.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ComparisonDiff } from '../../../shared/comparison-diff.js';
import type { StoredComparison } from '../../../shared/ipc-contract.js';
import { summarizeRun, groupByRun } from '../../../shared/summary.js';
import { runOutcome } from '../../../shared/run-outcome.js';
import { storeComparison } from '../../helpers/cost-runs.js';
import { runCli } from '../host/cli-process.js';

const fixture = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../../fixtures/diff/${name}.stored.json`, import.meta.url), 'utf8'),
  ) as StoredComparison;
const otherTask = () =>
  JSON.parse(
    readFileSync(new URL('../../fixtures/reports/stored/four-modes.stored.json', import.meta.url), 'utf8'),
  ) as StoredComparison;

const base = fixture('baseline-5-trials');
const changed = fixture('changed-5-trials');
const one = fixture('one-trial');
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-diff-'));
  for (const s of [base, changed, one, otherTask()]) await storeComparison(dataDir, s);
  env = { ...process.env, PARALLAX_DATA_DIR: dataDir };
});

/** The figure of a column's runs, recomputed here from the stored events. */
function totals(stored: StoredComparison, label: string, passedOnly = true): number[] {
  return [...groupByRun(stored.events).values()]
    .map((ev) => summarizeRun(ev))
    .filter((r) => r.column.label === label && (!passedOnly || runOutcome(r).passed))
    .map((r) => r.totals.total);
}
const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;

async function diffJson(a: string, b: string): Promise<ComparisonDiff> {
  const res = await runCli(['diff', a, b, '--json'], env);
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout) as ComparisonDiff;
}

describe('parallax diff', () => {
  it('over trials: flags the clear regression, the column that fails now, and the columns on one side only', async () => {
    const d = await diffJson(base.meta.id, changed.meta.id.slice(0, 18));
    expect(d.baseline.id).toBe(base.meta.id);
    expect(d.comparison.id).toBe(changed.meta.id);
    expect([d.baseline.trials, d.comparison.trials]).toEqual([5, 5]);
    expect(d.simulated).toBe(true);
    const by = new Map(d.columns.map((c) => [c.label, c]));
    expect([...by.keys()]).toEqual(['ReAct', 'Code Mode', 'ReAct + tool search', 'Hybrid']);

    // ReAct ran under another key (a labelled variant): matched by its label. Vague descriptions cost more.
    const react = by.get('ReAct')!;
    expect([react.matchedBy, react.presence, react.flag]).toEqual(['label', 'both', 'regressed']);
    const total = react.figures.find((f) => f.figure === 'total')!;
    expect(total.baseline && 'mean' in total.baseline ? total.baseline.mean : null).toBeCloseTo(
      mean(totals(base, 'ReAct')),
      6,
    );
    expect(total.comparison && 'mean' in total.comparison ? total.comparison.mean : null).toBeCloseTo(
      mean(totals(changed, 'ReAct')),
      6,
    );
    expect(total.trend).toBe('regressed');
    expect(total.p).toBeLessThan(0.05);
    expect(total.ci95).not.toBeNull();
    expect(total.sentence).toMatch(
      /^Total tokens: [\d,.]+ → [\d,.]+ \(simulated\), \+\d+ % \(more tokens in all; 95 % CI .*p = 0\.0\d+, 5 vs 5 passing runs\)\.$/,
    );

    // Code Mode stops at its step limit in every run: it fails now, and its cheap failures are no improvement.
    const code = by.get('Code Mode')!;
    expect([code.matchedBy, code.flag]).toEqual(['label', 'regressed']);
    expect(code.comparison).toEqual({
      runs: 5,
      passed: 0,
      failures: ['it hit the step limit after 1 step without an answer'],
    });
    expect(code.figures.find((f) => f.figure === 'passRate')!.trend).toBe('now-fails');
    expect(code.figures.filter((f) => f.figure !== 'passRate').map((f) => f.trend)).toEqual(Array(5).fill('no-figure'));
    // The baseline's passing runs still show their mean beside the empty side, so the reader sees what was lost.
    const codeTotal = code.figures.find((f) => f.figure === 'total')!;
    expect(codeTotal.comparison).toBeNull();
    expect(codeTotal.baseline).toMatchObject({ n: 5, mean: mean(totals(base, 'Code Mode')) });
    expect(code.figures.some((f) => f.trend === 'improved')).toBe(false);

    expect([by.get('ReAct + tool search')!.presence, by.get('ReAct + tool search')!.figures]).toEqual([
      'comparison-only',
      [],
    ]);
    expect([by.get('Hybrid')!.presence, by.get('Hybrid')!.baseline?.passed]).toEqual(['baseline-only', 5]);
    expect(d.headline.slice(0, 2)).toEqual([
      'ReAct regressed: total tokens, prompt tokens, completion tokens, steps.',
      'Code Mode regressed: it fails now.',
    ]);
  });

  it('one run a side: the change and the caveat, never a verdict; columns matched by key', async () => {
    const d = await diffJson(base.meta.id, one.meta.id);
    expect(d.columns.map((c) => [c.label, c.matchedBy, c.flag])).toEqual([
      ['ReAct', 'key', 'no-verdict'],
      ['Code Mode', 'key', 'no-verdict'],
      ['Hybrid', null, 'baseline-only'],
    ]);
    for (const c of d.columns.slice(0, 2)) {
      for (const f of c.figures) expect(['one-run', 'same']).toContain(f.trend);
      expect(c.figures.every((f) => f.p === null)).toBe(true);
    }
    const react = d.columns[0]!.figures.find((f) => f.figure === 'total')!;
    expect(react.comparison && 'mean' in react.comparison ? react.comparison.mean : null).toBe(totals(one, 'ReAct')[0]);
    expect(react.sentence).toContain('cannot tell this from noise: run 5 trials for a verdict');
    expect(d.headline).toContain('No column changed clearly against the baseline.');
  });

  it('refuses another task, the same comparison twice and an unknown id, each with what to do', async () => {
    const other = otherTask().meta.id;
    const [task, same, unknown] = await Promise.all([
      runCli(['diff', base.meta.id, other], env),
      runCli(['diff', base.meta.id, base.meta.id], env),
      runCli(['diff', 'no-such', base.meta.id], env),
    ]);
    expect(task.code).toBe(1);
    expect(task.stderr).toContain(
      `ran task "time-and-title", its baseline ${base.meta.id} ran task "log-stats": only comparisons of the same task can be compared`,
    );
    expect(same.code).toBe(1);
    expect(same.stderr).toContain('are the same comparison');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No comparison "no-such"/);
  });

  it('writes the same sentences as Markdown and as a self-contained HTML page', async () => {
    const d = await diffJson(base.meta.id, changed.meta.id);
    const dir = await mkdtemp(join(tmpdir(), 'parallax-diff-out-'));
    const [md, page] = await Promise.all([
      runCli(['diff', base.meta.id, changed.meta.id, '--format', 'md'], env),
      runCli(['diff', base.meta.id, changed.meta.id, '-o', join(dir, 'diff.html')], env),
    ]);
    expect(md.code, md.stderr).toBe(0);
    expect(page.code, page.stderr).toBe(0);
    const htmlText = await readFile(join(dir, 'diff.html'), 'utf8');
    expect(htmlText).toMatch(/^<!doctype html>/);
    expect(htmlText).not.toMatch(/<script|<link|src="http/);
    for (const c of d.columns) expect(md.stdout).toContain(`## ${c.label}`);
    const sentence = d.columns[0]!.figures[0]!.sentence;
    expect(md.stdout).toContain(sentence.replace(/\|/g, '\\|'));
    expect(htmlText).toContain(sentence.replace(/&/g, '&amp;').replace(/'/g, '&#39;'));
    // A failure is never in the colour or word of success.
    expect(htmlText).toMatch(/<td class="bad">Fails now<\/td>/);
    expect(md.stdout).toContain('(simulated)');
  });
});
