/**
 * Reports of a real `parallax compare --trials 3` (child process, simulated model, real workers, rounds):
 * the average table equals aggregateByColumn of the stored runs recomputed here from the events, runs are
 * labelled and grouped by trial, timelines fold, CSV rows carry their trial and JSON carries byMode.
 * The scripted simulated model spends the same tokens every trial, so token means equal their min and max
 * here; trials-spread.test.ts covers trials that differ. Screenshots go to test-results/reports/.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredComparison } from '../../../../shared/ipc-contract.js';
import { MODE_LABELS } from '../../../../shared/run-spec.js';
import { computeTotals, FIGURES_NOTE, groupByRun } from '../../../../shared/summary.js';
import { differencesByMode } from '../../../../shared/trial-differences.js';
import { buildReport, loadReportJson } from '../../../../electron/host/reports/index.js';
import { expectHtmlAverage, expectMarkdownAverage } from './average-checks.js';
import { openInChromium, type OpenedReport } from './chromium.js';
import { liveComparison, ROOT } from './live-comparison.js';
import { recompute, type Recomputed } from './trials-comparison.js';

const OUT = join(ROOT, 'test-results', 'reports');
const TRIALS = 3;
let stored: StoredComparison;
let rec: Recomputed;
let opened: OpenedReport;

beforeAll(async () => {
  stored = (await liveComparison(['--task', 'calc', '--trials', String(TRIALS)])).stored;
  rec = recompute(stored);
  await mkdir(OUT, { recursive: true });
  const file = join(OUT, 'calc-trials.html');
  await writeFile(file, (await buildReport(stored, 'html')).content);
  opened = await openInChromium(file);
});

afterAll(async () => {
  await opened?.close();
});

describe('the stored comparison', () => {
  it('is a real calc comparison of two modes over three trials, every run answered', () => {
    expect(rec.trials).toBe(TRIALS);
    expect(stored.meta.runs.map((r) => `${r.mode}:${r.trial}`)).toEqual(
      Array.from({ length: TRIALS }, (_, i) => [`react:${i + 1}`, `code:${i + 1}`]).flat(),
    );
    for (const r of rec.runs) expect(r.status, r.error ?? '').toBe('answered');
  });
});

describe('HTML report with trials', () => {
  it('loads with zero network requests, no script and no error', async () => {
    expect(opened.requests).toEqual([]);
    expect(opened.dialogs).toEqual([]);
    expect(opened.pageErrors).toEqual([]);
    expect(await opened.page.locator('script, img, iframe, object, embed, link[rel=stylesheet]').count()).toBe(0);
  });

  it('shows in "Average over 3 trials" exactly aggregateByColumn of the runs recomputed from their events', async () => {
    await expectHtmlAverage(opened.page, rec);
    // Right after the result, before each run's row (the averages first, then the detail).
    const order = await opened.page.locator('h2').allInnerTexts();
    expect(order.indexOf(`Average over ${TRIALS} trials`)).toBe(order.findIndex((h) => h.startsWith('Result')) + 1);
    expect(order.indexOf(`Average over ${TRIALS} trials`)).toBeLessThan(order.indexOf('Each run'));
    expect(await opened.page.locator('table.average caption').innerText()).toContain('Simulated:');
    expect(await opened.page.locator('#chart-average-total > title').textContent()).toContain('(simulated)');
  });

  it('labels every run "Mode · trial k", groups the per-run table by trial, with totals from the events', async () => {
    const byRun = groupByRun(stored.events);
    const groups = opened.page.locator('table.runs tbody');
    expect(await groups.count()).toBe(TRIALS);
    for (let t = 1; t <= TRIALS; t++) {
      const group = groups.nth(t - 1);
      expect(await group.locator('tr.trial-head').innerText()).toBe(`Trial ${t}`);
      const ids = await group.locator('tr.run').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-run')));
      expect(ids).toEqual(stored.meta.runs.filter((r) => r.trial === t).map((r) => r.runId));
    }
    for (const r of stored.meta.runs) {
      const row = opened.page.locator(`tr.run[data-run="${r.runId}"]`);
      expect(await row.locator('th').innerText()).toMatch(new RegExp(`^${MODE_LABELS[r.mode]} · trial ${r.trial}\\b`));
      const totals = computeTotals(byRun.get(r.runId)!);
      for (const key of ['steps', 'prompt', 'completion', 'total', 'wallMs', 'toolCalls'] as const) {
        expect(await row.locator(`td[data-metric="${key}"]`).getAttribute('data-value'), `${r.runId} ${key}`).toBe(
          String(totals[key]),
        );
      }
    }
    expect(await opened.page.locator('table.runs').innerText()).not.toMatch(/#\d/);
  });

  it("folds each run's timeline, so its steps are hidden until opened", async () => {
    const folded = opened.page.locator('section.mode.folded > details:not([open])');
    expect(await folded.count()).toBe(stored.meta.runs.length);
    expect(await opened.page.locator('section.mode .step').first().isVisible()).toBe(false);
    await folded.first().locator(':scope > summary').click();
    expect(await opened.page.locator('section.mode .step').first().isVisible()).toBe(true);
  });

  it('renders legibly: no sideways scrolling; screenshots folded, with a timeline open, and printed (open)', async () => {
    const { scrollWidth, clientWidth } = await opened.page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    expect(scrollWidth, 'no horizontal scrolling at 1280 px').toBeLessThanOrEqual(clientWidth);
    await opened.page.screenshot({ path: join(OUT, 'calc-trials-open.png'), fullPage: true });
    await opened.page.reload();
    await opened.page.screenshot({ path: join(OUT, 'calc-trials.png'), fullPage: true });
    // Print has no clicks: the folded timelines print open.
    await opened.page.emulateMedia({ media: 'print' });
    expect(await opened.page.locator('section.mode .step').first().isVisible()).toBe(true);
    await opened.page.screenshot({ path: join(OUT, 'calc-trials-print.png'), fullPage: true });
    await opened.page.emulateMedia({ media: 'screen' });
    expect(await opened.page.locator('section.mode .step').first().isVisible()).toBe(false);
  });
});

describe('Markdown, CSV and JSON with trials', () => {
  it("Markdown puts the average table first, with aggregateByColumn's figures, then the runs by trial", async () => {
    const md = (await buildReport(stored, 'md')).content;
    expectMarkdownAverage(md, rec);
    const at = (s: string) => md.indexOf(s);
    expect(at(`## Average over ${TRIALS} trials`)).toBeGreaterThan(0);
    expect(at(`## Average over ${TRIALS} trials`)).toBeLessThan(at('## Summary per run'));
    expect(at('## Summary per run')).toBeLessThan(at(`## ${MODE_LABELS.react} · trial 1 — steps`));
    const perRun = md.split('## Summary per run')[1].split('\n## ')[0];
    const labels = [...perRun.matchAll(/^\| ((?:ReAct|Code Mode) · trial \d+)/gm)].map((m) => m[1]);
    expect(labels).toEqual(stored.meta.runs.map((r) => `${MODE_LABELS[r.mode]} · trial ${r.trial}`));
  });

  it("CSV rows carry each run's trial from the comparison", async () => {
    const parsed = Papa.parse<Record<string, string>>((await buildReport(stored, 'csv')).content, {
      header: true,
      skipEmptyLines: true,
    });
    expect(parsed.errors).toEqual([]);
    for (const r of stored.meta.runs) {
      const rows = parsed.data.filter((row) => row.run_id === r.runId);
      expect(rows).toHaveLength(computeTotals(groupByRun(stored.events).get(r.runId)!).steps);
      expect(new Set(rows.map((row) => row.trial))).toEqual(new Set([String(r.trial)]));
    }
    const steps = parsed.data.filter((row) => row.row === 'step');
    expect(new Set(steps.map((row) => row.trial)).size).toBe(TRIALS);
    // Statistics rows follow, with their step columns empty: one per mode and figure, one per difference.
    const modeRows = parsed.data.filter((row) => row.row === 'mode');
    for (const a of rec.byMode) {
      const prompt = modeRows.find((row) => row.mode === a.mode && row.figure === 'prompt')!;
      expect([Number(prompt.n), Number(prompt.mean), prompt.prompt, prompt.step]).toEqual([
        a.prompt!.n,
        Number(a.prompt!.mean.toPrecision(12)),
        '',
        '',
      ]);
      const pass = modeRows.find((row) => row.mode === a.mode && row.figure === 'passRate')!;
      expect([Number(pass.ci95_low), Number(pass.ci95_high)]).toEqual(
        a.passRate!.ci95.map((v) => Number(v.toPrecision(12))),
      );
    }
    const diff = parsed.data.find((row) => row.row === 'difference' && row.figure === 'prompt')!;
    expect([diff.mode, diff.baseline, diff.test]).toEqual(['code', 'react', 'paired permutation (sign-flip)']);
    expect(diff.sentence).toMatch(/^Code Mode used \d+ % /);
  });

  it('JSON holds byMode = aggregateByColumn of the events; loading rebuilds the same byMode when it is missing', async () => {
    const text = (await buildReport(stored, 'json')).content;
    const doc = JSON.parse(text) as { summary: { byMode?: unknown; differences?: unknown; figures?: string } };
    expect(doc.summary.byMode).toEqual(rec.byMode);
    expect(doc.summary.differences).toEqual(
      differencesByMode(rec.runs.map((summary) => ({ trial: summary.trial, summary }))),
    );
    expect(doc.summary.figures).toBe(FIGURES_NOTE);
    const loaded = loadReportJson(text);
    expect(loaded.meta).toEqual(stored.meta);
    expect(loaded.summary.byMode).toEqual(rec.byMode);
    // A file without byMode (written before trials existed, or trimmed by hand) reads back the same.
    const { byMode: _dropped, ...older } = doc.summary;
    const rebuilt = loadReportJson(JSON.stringify({ ...doc, summary: older }));
    expect(rebuilt.summary.byMode).toEqual(rec.byMode);
    const again = {
      meta: loaded.meta,
      events: loaded.events,
      warnings: stored.warnings,
      interruptedRunIds: stored.interruptedRunIds,
    };
    for (const f of ['html', 'md', 'csv'] as const)
      expect((await buildReport(again, f)).content).toBe((await buildReport(stored, f)).content);
  });
});
