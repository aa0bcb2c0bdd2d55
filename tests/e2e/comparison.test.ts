/**
 * The app in Debian Chromium against a real `parallax serve` (simulated model, temporary data dir): run
 * log-stats in both modes, watch it stream, check every chart bar and summary figure against the events the
 * host stored, reopen it from history, export it, delete it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MODES } from '../../shared/run-spec.js';
import type { StepEvent } from '../../shared/step-event.js';
import {
  computePerStep,
  computeTotals,
  cumulativeTokens,
  formatPercent,
  groupByRun,
  percentDiff,
} from '../../shared/summary.js';
import { startAppSession, stopAppSession } from './app-session.js';
import type { Driven, Served } from './harness.js';
import type { HostClient } from './host-client.js';
import {
  readBars,
  readPoints,
  recordedColumns,
  sortReadings,
  startRecordingColumns,
  summaryValue,
  waitForStatus,
} from './page-helpers.js';
import { saveShot } from './screenshots.js';

describe('a comparison in the browser, against parallax serve with the simulated model', () => {
  let served: Served;
  let driven: Driven;
  let host: HostClient;
  let comparisonId = '';
  let runs = new Map<string, StepEvent[]>();
  const modeOf = (runId: string) =>
    (runs.get(runId)!.find((e) => e.type === 'run-started') as Extract<StepEvent, { type: 'run-started' }>).mode;

  beforeAll(async () => {
    ({ served, driven, host } = await startAppSession());
  });

  afterAll(() => stopAppSession({ served, driven, host }));

  it('opens on the composer with the simulated model selected and badged, and designed empty states', async () => {
    const { page } = driven;
    await page.waitForSelector('[data-testid=connection-status]:has-text("Web host")');
    expect(await page.inputValue('[data-testid=provider-select]')).toBe('simulated');
    expect(await page.inputValue('[data-testid=model-input]')).toBe('sim');
    await expect(page.locator('[data-testid=composer] [data-testid=sim-badge]').first().isVisible()).resolves.toBe(
      true,
    );
    await expect(page.locator('[data-testid=main-empty]').isVisible()).resolves.toBe(true);
    await page.click('[data-testid=side-tab-history]');
    await page.waitForSelector('[data-testid=history-empty]');
    await page.click('[data-testid=side-tab-compose]');
    await saveShot(page, 'composer');
  });

  it('runs log-stats in both modes (Ctrl+Enter); each column shows steps while its run is still running', async () => {
    const { page } = driven;
    await page.check('[data-testid=task-log-stats] input');
    // Paced replies, as from a real model: without a pause a whole run can land in one batch on a fast machine.
    await page.click('[data-testid=advanced-toggle]');
    await page.check('[data-testid=fault-slow] input');
    await startRecordingColumns(page);
    await page.keyboard.press('Control+Enter');
    for (const mode of DEFAULT_MODES)
      expect(await waitForStatus(page, mode, ['answered', 'max-steps', 'error', 'crashed'])).toBe('answered');
    const frames = await recordedColumns(page);
    for (const mode of DEFAULT_MODES) {
      // A frame where this column already showed an answered step and had not finished yet.
      expect(
        frames.some((f) => (f[mode]?.steps ?? 0) >= 1 && f[mode]?.status === 'running'),
        `live steps seen for ${mode}`,
      ).toBe(true);
    }
    expect(driven.errors).toEqual([]);

    const list = await host.invoke('history:list');
    expect(list).toHaveLength(1);
    comparisonId = list[0]!.meta.id;
    const stored = await host.invoke('history:open', comparisonId);
    runs = groupByRun(stored.events);
    expect(runs.size).toBe(2);
    for (const [runId, events] of runs) {
      const totals = computeTotals(events);
      const mode = modeOf(runId);
      expect(await page.locator(`[data-testid=column-${mode}] [data-testid=col-steps]`).textContent()).toBe(
        String(totals.steps),
      );
      expect(await page.locator(`[data-testid=column-${mode}] [data-testid=col-total]`).textContent()).toBe(
        totals.total.toLocaleString('en-US'),
      );
      const shownSteps = await page.$$eval(`[data-testid=step-card][data-run-id="${runId}"]`, (els) =>
        els.map((e) => Number(e.getAttribute('data-step'))),
      );
      expect(shownSteps).toEqual(computePerStep(events).map((s) => s.step));
    }
    // Step 1 of both runs sits on the same row.
    const row1 = page.locator('[data-testid=step-row][data-step="1"]');
    expect(await row1.locator('[data-testid=step-card]').count()).toBe(2);
    await page.locator('[data-testid=timeline]').evaluate((el) => (el.scrollTop = 0));
    await page.waitForTimeout(150);
    await saveShot(page, 'finished-timeline');
  });

  it('draws one prompt/completion bar pair per step per mode, each equal to the stored events', async () => {
    const { page } = driven;
    await page.click('[data-testid=tab-charts]');
    await page.waitForSelector('[data-testid=token-bar]');
    const expected = [...runs].flatMap(([runId, events]) =>
      computePerStep(events).flatMap((s) => [
        { step: s.step, mode: modeOf(runId), kind: 'prompt', value: s.prompt },
        { step: s.step, mode: modeOf(runId), kind: 'completion', value: s.completion },
      ]),
    );
    expect(sortReadings(await readBars(page))).toEqual(sortReadings(expected));
    const expectedPoints = [...runs].flatMap(([runId, events]) =>
      cumulativeTokens(computePerStep(events)).map((p) => ({ step: p.step, mode: modeOf(runId), value: p.total })),
    );
    expect(sortReadings(await readPoints(page))).toEqual(sortReadings(expectedPoints));
    for (const id of ['per-step-chart', 'cumulative-chart', 'summary-table']) {
      expect(
        await page.locator(`[data-testid=${id}] [data-testid=sim-badge]`).count(),
        `${id} is labelled simulated`,
      ).toBe(1);
    }
    await saveShot(page, 'finished-charts');
  });

  it('shows summary figures equal to computeTotals of each run, and the difference in percent', async () => {
    const { page } = driven;
    const byMode = new Map([...runs].map(([runId, events]) => [modeOf(runId), computeTotals(events)]));
    for (const [mode, totals] of byMode) {
      for (const metric of [
        'steps',
        'requests',
        'prompt',
        'completion',
        'cached',
        'total',
        'wallMs',
        'toolCalls',
      ] as const) {
        expect(await summaryValue(page, metric, mode), `${metric} of ${mode}`).toBe(totals[metric]);
      }
      const finished = [...runs.values()]
        .flat()
        .find((e) => e.type === 'run-finished' && modeOf(e.runId) === mode) as Extract<
        StepEvent,
        { type: 'run-finished' }
      >;
      expect(finished.totals).toEqual(totals);
    }
    const diff = formatPercent(percentDiff(byMode.get('code')!.total, byMode.get('react')!.total));
    expect(await page.locator('[data-metric=total] td.diff').textContent()).toBe(diff);
  });

  it('reopens the comparison from history in a fresh page, rebuilding timelines and charts from the stored events', async () => {
    const { page } = driven;
    // A fresh page at the app's address: no comparison in its URL (a reload would reopen the one open now).
    await page.goto(page.url().split('#')[0]!);
    await page.waitForSelector('[data-testid=main-empty]');
    await page.click('[data-testid=side-tab-history]');
    await page.click(`[data-testid=history-item][data-id="${comparisonId}"] .history-open`);
    await page.waitForSelector('[data-testid=comparison-toolbar]');
    for (const [runId, events] of runs) {
      await waitForStatus(page, modeOf(runId), ['answered']);
      const shown = await page.$$eval(`[data-testid=step-card][data-run-id="${runId}"]`, (els) =>
        els.map((e) => Number(e.getAttribute('data-step'))),
      );
      expect(shown).toEqual(computePerStep(events).map((s) => s.step));
    }
    expect(await page.locator('[data-testid=comparison-toolbar]').textContent()).toContain('from history');
    await page.click('[data-testid=tab-charts]');
    const expected = [...runs].flatMap(([runId, events]) =>
      computePerStep(events).map((s) => ({ step: s.step, mode: modeOf(runId), kind: 'prompt', value: s.prompt })),
    );
    const prompts = (await readBars(page)).filter((b) => b.kind === 'prompt');
    expect(sortReadings(prompts)).toEqual(sortReadings(expected));
  });

  it('exports the reports as browser downloads', async () => {
    const { page } = driven;
    for (const format of ['html', 'csv'] as const) {
      await page.click('[data-testid=export-button]');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.click(`[data-testid=export-${format}]`),
      ]);
      expect(download.suggestedFilename()).toMatch(new RegExp(`\\.${format}$`));
      const text = await (await download.createReadStream())
        .toArray()
        .then((parts) => Buffer.concat(parts).toString('utf8'));
      expect(text.length).toBeGreaterThan(100);
      expect(text.toLowerCase()).toContain('simulated');
    }
    expect(await page.locator('[data-testid=toast]').last().textContent()).toContain('Report downloaded');
  });

  it('deletes the comparison with a moment to undo, and the history shows its empty state', async () => {
    const { page } = driven;
    await page.click('[data-testid=side-tab-history]');
    const item = page.locator(`[data-testid=history-item][data-id="${comparisonId}"]`);
    await item.hover();
    // Every answer of this comparison passed: each run shows its mark.
    expect(await item.locator('[data-testid=history-pass][data-passed=true]').count()).toBe(2);
    await item.locator('[data-testid=history-delete]').click();
    // Gone from the list at once, with a moment to undo; the files stay until the toast goes.
    await page.waitForSelector('[data-testid=history-empty]');
    expect(await page.textContent('[data-testid=toast]:has([data-testid=toast-action])')).toContain(
      'Comparison deleted',
    );
    expect((await host.invoke('history:list')).length).toBe(1);
    await saveShot(page, 'history-undo-delete', { docs: false });
    await page.click('[data-testid=toast-action]');
    await page.waitForSelector(`[data-testid=history-item][data-id="${comparisonId}"]`);
    expect((await host.invoke('history:list')).length).toBe(1);
    await item.hover();
    await item.locator('[data-testid=history-delete]').click();
    // Dismissing the toast (or letting it go) deletes the files.
    await page.click('[data-testid=toast]:has([data-testid=toast-action]) [data-testid=toast-dismiss]');
    await expect.poll(() => host.invoke('history:list')).toEqual([]);
    await page.waitForSelector('[data-testid=main-empty]');
  });
});
