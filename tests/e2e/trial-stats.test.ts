/**
 * Statistics over trials in the browser, against a real `parallax serve` (simulated model, which varies per
 * trial): log-stats run 5 times per mode; the averages table shows each mean's 95 % interval and sd and the
 * pass rate's Wilson interval exactly as aggregateByColumn of the stored runs, the sentences are
 * differencesByMode's, and the "Mean tokens per mode" chart draws an error bar per mean with an interval.
 * Then the HTML report of the same comparison, opened in Chromium, with its error bars.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ComparisonMeta } from '../../shared/ipc-contract.js';
import type { StepEvent } from '../../shared/step-event.js';
import { aggregateByColumn, groupByRun, summarizeRun } from '../../shared/summary.js';
import { differencesByMode } from '../../shared/trial-differences.js';
import { buildReport } from '../../electron/host/reports/index.js';
import { startAppSession, stopAppSession } from './app-session.js';
import { openPage, ROOT, type Driven, type Served } from './harness.js';
import type { HostClient } from './host-client.js';
import { saveShot } from './screenshots.js';
import { elementShot } from '../helpers/element-shot.js';

const TRIALS = 5;

describe('statistics over trials in the browser', () => {
  let served: Served;
  let driven: Driven;
  let host: HostClient;
  let meta: ComparisonMeta;
  let events: readonly StepEvent[] = [];

  beforeAll(async () => {
    ({ served, driven, host } = await startAppSession());
  });
  afterAll(() => stopAppSession({ served, driven, host }));

  it('shows intervals, sds, pass-rate intervals and the differences in words, as the shared statistics compute them', async () => {
    const { page } = driven;
    await page.check('[data-testid=task-log-stats] input');
    await page.fill('[data-testid=trials-input]', String(TRIALS));
    await page.click('[data-testid=run]');
    await page.waitForSelector('[data-testid=trial-bar]');
    await page.waitForFunction(
      (n) => {
        const opts = [...document.querySelectorAll('[data-testid=trial-option][data-state]')];
        return opts.length === n && opts.every((o) => o.getAttribute('data-state') === 'done');
      },
      TRIALS,
      { timeout: 120_000, polling: 100 },
    );
    const [item] = await host.invoke('history:list');
    const stored = await host.invoke('history:open', item!.meta.id);
    meta = stored.meta;
    events = stored.events;
    const byRun = groupByRun(events);
    const summaries = meta.runs.map((r) => summarizeRun(byRun.get(r.runId)!));
    const expected = aggregateByColumn(summaries);
    const diffs = differencesByMode(meta.runs.map((r, i) => ({ trial: r.trial ?? 1, summary: summaries[i]! })));

    await page.click('[data-testid=tab-charts]');
    await page.waitForSelector('[data-testid=average-table]');
    for (const a of expected) {
      for (const key of ['prompt', 'completion', 'total', 'steps', 'wallMs'] as const) {
        const s = a[key]!;
        const ci = page.locator(`[data-testid=avg-${key}-${a.mode}] .stat-ci`);
        if (s.ci95) {
          expect(
            [
              Number(await ci.getAttribute('data-ci-low')),
              Number(await ci.getAttribute('data-ci-high')),
              Number(await ci.getAttribute('data-sd')),
            ],
            `${key} ${a.mode}`,
          ).toEqual([s.ci95[0], s.ci95[1], s.sd]);
        } else expect(await ci.textContent()).toBe('1 trial: no interval');
      }
      const pass = page.locator(`[data-testid=avg-passed-${a.mode}] .stat-ci`);
      expect([Number(await pass.getAttribute('data-ci-low')), Number(await pass.getAttribute('data-ci-high'))]).toEqual(
        [...a.passRate!.ci95],
      );
    }
    const sentences = await page.$$eval('[data-testid=avg-differences] li', (els) => els.map((e) => e.textContent));
    expect(sentences).toEqual(diffs.map((d) => `${d.sentence}.`));
    // One error bar per mode and figure whose mean has an interval (recharts draws each as a group of lines).
    const chart = page.locator('[data-testid=mode-means-chart]');
    await chart.scrollIntoViewIfNeeded();
    const withInterval = expected.reduce(
      (n, a) => n + (['prompt', 'completion', 'total'] as const).filter((k) => a[k]?.ci95).length,
      0,
    );
    expect(await chart.locator('.recharts-errorBar').count()).toBe(withInterval);
    expect(driven.errors).toEqual([]);
    await page.locator('[data-testid=charts-view]').evaluate((el) => (el.scrollTop = 0));
    await saveShot(page, 'trial-stats-table');
    await chart.scrollIntoViewIfNeeded();
    await saveShot(page, 'trial-stats-chart', { docs: false });
  });

  it('the HTML report of the same comparison shows the intervals, the sentences and the error bars', async () => {
    const path = join(ROOT, 'test-results', 'e2e', 'trial-stats-report.html');
    await writeFile(path, (await buildReport({ meta, events, warnings: [], interruptedRunIds: [] }, 'html')).content);
    const report = await openPage(`file://${path}`);
    try {
      const { page } = report;
      await page.locator('#average').scrollIntoViewIfNeeded();
      expect(await page.locator('ul.differences li').count()).toBe(
        differencesByMode(
          meta.runs.map((r) => ({ trial: r.trial ?? 1, summary: summarizeRun(groupByRun(events).get(r.runId)!) })),
        ).length,
      );
      expect(await page.locator('#chart-average-total line.whisker[data-ci-low]').count()).toBeGreaterThan(0);
      await elementShot(page.locator('#average'), join(ROOT, 'test-results', 'e2e', 'trial-stats-report.png'));
    } finally {
      await report.close();
    }
  });
});
