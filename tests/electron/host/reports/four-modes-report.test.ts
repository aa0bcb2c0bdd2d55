/**
 * Reports of a real `parallax compare` with all four modes (child process, simulated model, real workers), once
 * plain and once with two trials, opened in Debian Chromium at 1280 px: every figure equals the stored events
 * recomputed here, each mode keeps one colour from table to chart, and neither the page nor its print layout
 * scrolls sideways. Screenshots go to test-results/reports/ for a person to look at.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { StoredComparison } from '../../../../shared/ipc-contract.js';
import { MODE_IDS, MODE_LABELS } from '../../../../shared/run-spec.js';
import type { RunTotals, StepEvent } from '../../../../shared/step-event.js';
import {
  computePerStep,
  computeTotals,
  cumulativeTokens,
  formatPercent,
  groupByRun,
  percentDiff,
  summarizeRun,
} from '../../../../shared/summary.js';
import { toolsRun } from '../../../../shared/run-metrics.js';
import { buildReport } from '../../../../electron/host/reports/index.js';
import { expectHtmlAverage, expectMarkdownAverage } from './average-checks.js';
import { OUT, openInChromium, writeReport, type OpenedReport } from './chromium.js';
import { liveComparison } from './live-comparison.js';
import { recompute, type Recomputed } from './trials-comparison.js';

const ALL_MODES = ['--modes', MODE_IDS.join(',')];
const METRICS: (keyof RunTotals)[] = [
  'steps',
  'requests',
  'prompt',
  'completion',
  'cached',
  'reasoning',
  'total',
  'wallMs',
  'toolCalls',
];

let plain: StoredComparison;
let byRun: Map<string, StepEvent[]>;
let trials: StoredComparison;
let rec: Recomputed;
let opened: OpenedReport;
let openedTrials: OpenedReport;

/** Widths of the document and of the viewport: equal when nothing makes the page scroll sideways. */
const widths = (page: Page) =>
  page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));

const attrsOf = (page: Page, selector: string, names: readonly string[]) =>
  page
    .locator(selector)
    .evaluateAll((els, ns) => els.map((e) => Object.fromEntries(ns.map((n) => [n, e.getAttribute(n)]))), names);

beforeAll(async () => {
  [plain, trials] = await Promise.all([
    liveComparison(['--task', 'time-and-title', ...ALL_MODES]).then((l) => l.stored),
    liveComparison(['--task', 'calc', ...ALL_MODES, '--trials', '2']).then((l) => l.stored),
  ]);
  byRun = groupByRun(plain.events);
  rec = recompute(trials);
  opened = await openInChromium(await writeReport('four-modes.html', (await buildReport(plain, 'html')).content), {
    width: 1280,
    height: 900,
  });
  openedTrials = await openInChromium(
    await writeReport('four-modes-trials.html', (await buildReport(trials, 'html')).content),
    { width: 1280, height: 900 },
  );
});

afterAll(async () => {
  await opened?.close();
  await openedTrials?.close();
});

describe('a stored comparison of all four modes', () => {
  it('ran every mode once, in the order asked, and every run answered', () => {
    expect(plain.meta.runs.map((r) => r.mode)).toEqual([...MODE_IDS]);
    for (const r of plain.meta.runs) expect(computeTotals(byRun.get(r.runId)!).steps, r.mode).toBeGreaterThan(0);
    expect(
      plain.events.filter((e) => e.type === 'run-finished').map((e) => (e.type === 'run-finished' ? e.status : '')),
    ).toEqual(MODE_IDS.map(() => 'answered'));
  });
});

describe('HTML report with four modes', () => {
  it('fits 1280 px without scrolling sideways, loads nothing and runs nothing', async () => {
    const w = await widths(opened.page);
    expect(w.scroll).toBeLessThanOrEqual(w.client);
    expect(opened.requests).toEqual([]);
    expect(opened.pageErrors).toEqual([]);
  });

  it("shows in the summary each run's totals recomputed from its events, and each difference against the first mode", async () => {
    const [first] = plain.meta.runs;
    const base = computeTotals(byRun.get(first!.runId)!);
    for (const [i, r] of plain.meta.runs.entries()) {
      const totals = computeTotals(byRun.get(r.runId)!);
      for (const m of METRICS) {
        const cell = opened.page.locator(`table.summary td[data-run="${r.runId}"][data-metric="${m}"]`);
        expect(await cell.getAttribute('data-value'), `${r.mode} ${m}`).toBe(String(totals[m]));
        const diff = await cell.locator('.diff').innerText();
        // Tool calls compare the tools run: a program counts by the calls made inside it, not as one more call.
        const [now, then] =
          m === 'toolCalls'
            ? [toolsRun(summarizeRun(byRun.get(r.runId)!)), toolsRun(summarizeRun(byRun.get(first!.runId)!))]
            : [totals[m], base[m]];
        expect(diff, `${r.mode} ${m}`).toBe(i === 0 ? 'baseline' : `${formatPercent(percentDiff(now, then))} vs first`);
        // Neither more nor fewer tool calls (or wall time) is a win: no colour of either.
        if (m === 'toolCalls' || m === 'wallMs')
          expect(await cell.locator('.diff').getAttribute('class'), `${r.mode} ${m}`).toBe('diff');
      }
    }
    const heads = await opened.page.locator('table.summary thead th[scope=col]').allInnerTexts();
    expect(heads.map((h) => h.trim())).toEqual(MODE_IDS.map((m) => MODE_LABELS[m]));
  });

  it('draws the first request, every step bar and every cumulative point of each mode from its events', async () => {
    const firstBars = await attrsOf(opened.page, '#chart-first-request rect.bar', ['data-mode', 'data-value']);
    expect(firstBars).toEqual(
      plain.meta.runs.map((r) => ({
        'data-mode': r.mode,
        'data-value': String(computePerStep(byRun.get(r.runId)!)[0]!.prompt),
      })),
    );
    for (const [i, r] of plain.meta.runs.entries()) {
      const per = computePerStep(byRun.get(r.runId)!);
      const bars = await attrsOf(opened.page, `#chart-steps-${i} rect.bar`, [
        'data-mode',
        'data-step',
        'data-kind',
        'data-value',
      ]);
      expect(bars).toEqual(
        per.flatMap((s) =>
          (['prompt', 'completion'] as const).map((k) => ({
            'data-mode': r.mode,
            'data-step': String(s.step),
            'data-kind': k,
            'data-value': String(s[k]),
          })),
        ),
      );
      const points = await attrsOf(opened.page, `#chart-cumulative .point[data-mode="${r.mode}"]`, [
        'data-step',
        'data-value',
      ]);
      expect(points).toEqual(
        cumulativeTokens(per).map((p) => ({ 'data-step': String(p.step), 'data-value': String(p.total) })),
      );
    }
    expect(await opened.page.locator('#chart-cumulative .legend').count()).toBe(MODE_IDS.length);
  });

  it('gives each mode one colour of its own, the same in the summary swatch, its step bars and its first-request bar', async () => {
    const colours = await opened.page.evaluate(
      (runs) =>
        runs.map((r, i) => {
          const fill = (sel: string) => getComputedStyle(document.querySelector(sel)!).fill;
          return {
            swatch: getComputedStyle(document.querySelector(`table.summary thead .swatch.mode-${r.mode}`)!)
              .backgroundColor,
            steps: fill(`#chart-steps-${i} rect.bar[data-kind=prompt]`),
            first: fill(`#chart-first-request rect.bar[data-mode="${r.mode}"]`),
          };
        }),
      plain.meta.runs.map((r) => ({ mode: r.mode })),
    );
    for (const c of colours) expect([c.steps, c.first]).toEqual([c.swatch, c.swatch]);
    expect(new Set(colours.map((c) => c.swatch)).size).toBe(MODE_IDS.length);
  });

  it('has one timeline per mode, each with its steps', async () => {
    const heads = await opened.page.locator('section.mode > h2').allInnerTexts();
    expect(heads.map((h) => h.trim())).toEqual(MODE_IDS.map((m) => `${MODE_LABELS[m]} — timeline`));
    for (const r of plain.meta.runs) {
      const steps = await opened.page.locator(`.step[id^="${r.runId}-step-"]`).count();
      expect(steps, r.mode).toBe(computePerStep(byRun.get(r.runId)!).length);
    }
  });

  it('prints on A4 without cutting a table or chart at the side, each timeline on its own pages', async () => {
    const { page } = opened;
    await page.screenshot({ path: join(OUT, 'four-modes.png'), fullPage: true });
    await page.setViewportSize({ width: 718, height: 1000 }); // A4 at 96 dpi inside 12 mm margins
    await page.emulateMedia({ media: 'print' });
    const w = await widths(page);
    // On a failure, the message names what reaches past the page (CI once saw 719 > 718, not seen here since).
    const past = await page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth)
        .slice(-6)
        .map(
          (e) =>
            `<${e.tagName.toLowerCase()} class="${e.getAttribute('class') ?? ''}"> right ${e.getBoundingClientRect().right}: ${(e.textContent ?? '').slice(0, 120)}`,
        ),
    );
    expect(w.scroll, past.join('\n')).toBeLessThanOrEqual(w.client);
    await page.screenshot({ path: join(OUT, 'four-modes-print.png'), fullPage: true });
    await page.emulateMedia({ media: 'screen' });
    await page.setViewportSize({ width: 1280, height: 900 });
    const pdf = await page.pdf({ format: 'A4', path: join(OUT, 'four-modes.pdf') });
    const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
    expect(pages).toBeGreaterThan(MODE_IDS.length);
  });

  it('Markdown has a column per mode with the same totals', async () => {
    const md = (await buildReport(plain, 'md')).content;
    const rows = md
      .split('## Summary')[1]!
      .split('\n## ')[0]!
      .split('\n')
      .filter((l) => l.startsWith('| '));
    const cells = (label: string) =>
      rows
        .find((l) => l.startsWith(`| ${label} |`))!
        .replace(/^\| | \|$/g, '')
        .split(' | ')
        .slice(1);
    expect(cells('')).toEqual(MODE_IDS.map((m) => MODE_LABELS[m]));
    const totals = plain.meta.runs.map((r) => computeTotals(byRun.get(r.runId)!).total);
    expect(cells('Total tokens').map((c) => Number(c.split(' ')[0]!.replace(/,/g, '')))).toEqual(totals);
  });
});

describe('HTML report with four modes over two trials', () => {
  it('fits 1280 px, and its averages are aggregateByColumn of the events for every mode', async () => {
    expect(rec.byMode.map((a) => a.mode)).toEqual([...MODE_IDS]);
    const w = await widths(openedTrials.page);
    expect(w.scroll).toBeLessThanOrEqual(w.client);
    await expectHtmlAverage(openedTrials.page, rec);
    expectMarkdownAverage((await buildReport(trials, 'md')).content, rec);
  });

  it('lists every run by trial, and draws one cumulative line per run with the modes named once', async () => {
    const rows = await attrsOf(openedTrials.page, 'table.runs tr.run', ['data-run', 'data-trial']);
    expect(rows).toEqual(trials.meta.runs.map((r) => ({ 'data-run': r.runId, 'data-trial': String(r.trial) })));
    const series = await attrsOf(openedTrials.page, '#chart-cumulative .point', ['data-series', 'data-mode']);
    expect([...new Set(series.map((p) => `${p['data-series']}:${p['data-mode']}`))]).toEqual(
      trials.meta.runs.map((r, i) => `${i}:${r.mode}`),
    );
    expect(await openedTrials.page.locator('#chart-cumulative .legend').count()).toBe(MODE_IDS.length);
    await openedTrials.page.screenshot({ path: join(OUT, 'four-modes-trials.png'), fullPage: true });
  });
});
