/**
 * All four modes in the browser against a real `parallax serve` (simulated model): picking them by keyboard,
 * time-and-title in four columns that stay readable at 1280×800, every bar and summary figure equal to the
 * events the host stored, and each mode in colours of its own in both themes (screenshots to look at).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MODES, MODE_IDS, MODE_LABELS, type ModeId } from '../../shared/run-spec.js';
import type { StepEvent } from '../../shared/step-event.js';
import {
  aggregateByColumn,
  computePerStep,
  computeTotals,
  cumulativeTokens,
  formatPercent,
  groupByRun,
  percentDiff,
  summarizeRun,
} from '../../shared/summary.js';
import { startAppSession, stopAppSession } from './app-session.js';
import type { Driven, Served } from './harness.js';
import type { HostClient } from './host-client.js';
import { toolsRun } from '../../shared/run-metrics.js';
import { columnRunIds, readBars, readPoints, sortReadings, summaryValue, waitForStatus } from './page-helpers.js';
import { saveShot } from './screenshots.js';

/** Narrowest a column may get before the timeline scrolls sideways instead (MIN_COLUMN_PX, timeline-view.tsx). */
const MIN_COLUMN = 224;

// Tests wait up to 120 s for runs side by side (twelve of them for two trials of six modes): above the default 60 s.
describe('four modes in the browser, against parallax serve with the simulated model', () => {
  let served: Served;
  let driven: Driven;
  let host: HostClient;
  let runs = new Map<ModeId, { runId: string; events: StepEvent[] }>();

  beforeAll(async () => {
    ({ served, driven, host } = await startAppSession());
  });

  afterAll(() => stopAppSession({ served, driven, host }));

  const checked = () =>
    driven.page.$$eval('[data-testid^=mode-] input[type=checkbox]', (els) =>
      els
        .filter((e) => (e as HTMLInputElement).checked)
        .map((e) => e.closest('[data-testid]')!.getAttribute('data-testid')!.slice(5)),
    );

  it('offers every mode with what it gives the model, the default ones picked, and asks for at least one', async () => {
    const { page } = driven;
    for (const m of MODE_IDS) {
      const row = page.locator(`[data-testid=mode-${m}]`);
      expect(await row.locator('.check-label').innerText()).toBe(MODE_LABELS[m]);
      expect((await row.locator('.check-hint').innerText()).length, `${m} has a description`).toBeGreaterThan(20);
    }
    expect(await checked()).toEqual([...DEFAULT_MODES]);
    // Untick everything from the keyboard: Run then names the problem and starts nothing.
    for (const m of DEFAULT_MODES) {
      await page.focus(`[data-testid=mode-${m}] input`);
      await page.keyboard.press('Space');
    }
    expect(await checked()).toEqual([]);
    expect(await page.locator('[data-testid=composer] [role=alert]').allInnerTexts()).toContain(
      'Pick at least one mode.',
    );
    expect(await page.isDisabled('[data-testid=run]')).toBe(true);
    await page.keyboard.press('Control+Enter');
    await page.waitForTimeout(300);
    expect(await host.invoke('history:list')).toEqual([]);
    // Tick all four, last first: the columns still come in the app's order.
    for (const m of [...MODE_IDS].reverse()) {
      await page.focus(`[data-testid=mode-${m}] input`);
      await page.keyboard.press('Space');
    }
    expect(await checked()).toEqual([...MODE_IDS]);
    expect(await page.textContent('[data-testid=run]')).toContain(`Run ${MODE_IDS.length} modes`);
    await page.locator('[data-testid=mode-hybrid]').scrollIntoViewIfNeeded();
    await saveShot(page, 'four-modes-picker', { docs: false });
  });

  it('runs time-and-title in four columns that keep their width and scroll sideways inside the timeline', async () => {
    const { page } = driven;
    await page.check('[data-testid=task-time-and-title] input');
    await page.keyboard.press('Control+Enter');
    for (const m of MODE_IDS)
      expect(await waitForStatus(page, m, ['answered', 'max-steps', 'error', 'crashed']), m).toBe('answered');
    expect(driven.errors).toEqual([]);

    const [item] = await host.invoke('history:list');
    const stored = await host.invoke('history:open', item!.meta.id);
    const byRun = groupByRun(stored.events);
    runs = new Map(stored.meta.runs.map((r) => [r.mode, { runId: r.runId, events: byRun.get(r.runId)! }]));
    expect(stored.meta.runs.map((r) => r.mode)).toEqual([...MODE_IDS]);
    expect(await columnRunIds(page)).toEqual(stored.meta.runs.map((r) => r.runId));

    for (const [mode, { runId, events }] of runs) {
      const totals = computeTotals(events);
      const head = page.locator(`[data-testid=column-${mode}]`);
      expect(await head.locator('[data-testid=col-steps]').textContent(), mode).toBe(String(totals.steps));
      expect(await head.locator('[data-testid=col-total]').textContent(), mode).toBe(
        totals.total.toLocaleString('en-US'),
      );
      expect((await head.boundingBox())!.width, `${mode} column width`).toBeGreaterThanOrEqual(MIN_COLUMN);
      const shown = await page.$$eval(`[data-testid=step-card][data-run-id="${runId}"]`, (els) =>
        els.map((e) => Number(e.getAttribute('data-step'))),
      );
      expect(shown, mode).toEqual(computePerStep(events).map((s) => s.step));
    }
    expect(await page.locator('[data-testid=step-row][data-step="1"] [data-testid=step-card]').count()).toBe(
      MODE_IDS.length,
    );
    // Beside the side panel the columns keep their width and the timeline scrolls sideways; the window never does.
    const widths = () =>
      page.locator('[data-testid=timeline]').evaluate((el) => ({
        scroll: el.scrollWidth,
        client: el.clientWidth,
        page: document.documentElement.scrollWidth,
        window: window.innerWidth,
      }));
    let w = await widths();
    expect(w.page).toBeLessThanOrEqual(w.window);
    expect(w.scroll).toBeGreaterThan(w.client);
    // The focused timeline scrolls to the last column with the keyboard.
    await page.locator('[data-testid=timeline]').evaluate((el) => el.scrollTo(0, 0));
    await page.focus('[data-testid=timeline]');
    for (
      let i = 0;
      i < 40 &&
      (await page.locator('[data-testid=timeline]').evaluate((el) => el.scrollLeft + el.clientWidth < el.scrollWidth));
      i++
    )
      await page.keyboard.press('ArrowRight');
    const last = await page.locator(`[data-testid=column-${MODE_IDS[MODE_IDS.length - 1]}]`).boundingBox();
    expect(last!.x + last!.width).toBeLessThanOrEqual(1280);
    await saveShot(page, 'four-modes-scrolled', { docs: false });

    // Ctrl+B folds the side panel: the columns fit the window when they can, none narrower than the minimum.
    await page.keyboard.press('Control+b');
    await page.waitForSelector('[data-testid=side-panel]', { state: 'hidden' });
    expect(await page.getAttribute('[data-testid=sidebar-toggle]', 'aria-expanded')).toBe('false');
    w = await widths();
    // As many columns as fit at their narrowest fit the window; more still scroll inside the timeline only.
    const fit = MODE_IDS.length * MIN_COLUMN <= w.client;
    if (fit) expect(w.scroll).toBeLessThanOrEqual(w.client);
    else expect(w.page).toBeLessThanOrEqual(w.window);
    for (const m of MODE_IDS) {
      const box = (await page.locator(`[data-testid=column-${m}]`).boundingBox())!;
      expect(box.width, `${m} column width`).toBeGreaterThanOrEqual(MIN_COLUMN);
      if (fit) expect(box.x + box.width, m).toBeLessThanOrEqual(1280);
    }
    await page.locator('[data-testid=timeline]').evaluate((el) => el.scrollTo(0, 0));
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.waitForTimeout(150);
    await saveShot(page, 'four-modes');
    // The toolbar button brings it back (and is a real button: Enter works on it).
    await page.focus('[data-testid=sidebar-toggle]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=side-panel]', { state: 'visible' });
  });

  it('draws a prompt/completion pair per step per mode, and sums each mode as computeTotals with Δ against the first', async () => {
    const { page } = driven;
    await page.click('[data-testid=tab-charts]');
    await page.waitForSelector('[data-testid=token-bar]');
    const expected = [...runs].flatMap(([mode, { events }]) =>
      computePerStep(events).flatMap((s) =>
        (['prompt', 'completion'] as const).map((kind) => ({ step: s.step, mode, kind, value: s[kind] })),
      ),
    );
    expect(sortReadings(await readBars(page))).toEqual(sortReadings(expected));
    const points = [...runs].flatMap(([mode, { events }]) =>
      cumulativeTokens(computePerStep(events)).map((p) => ({ step: p.step, mode, value: p.total })),
    );
    expect(sortReadings(await readPoints(page))).toEqual(sortReadings(points));
    expect(
      await page.$$eval('[data-testid=per-step-chart] [data-testid=legend-mode]', (els) =>
        els.map((e) => e.getAttribute('data-mode')),
      ),
    ).toEqual([...MODE_IDS]);
    await saveShot(page, 'four-modes-tokens', { docs: false });

    const base = computeTotals(runs.get(MODE_IDS[0])!.events);
    for (const [mode, { events }] of runs) {
      const totals = computeTotals(events);
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
    }
    // One Δ per mode after the first, each against the first: under each figure, as six modes leave no room for Δ columns.
    expect(await page.locator('[data-testid=summary-table] td.diff').count()).toBe(0);
    const diffs = (
      await page
        .locator('[data-testid=summary-table] tr[data-metric=total] [data-testid^=sum-diff-total-]')
        .allInnerTexts()
    ).map((t) => t.replace(/^Δ\s*/, ''));
    expect(diffs).toEqual(
      MODE_IDS.slice(1).map((m) => formatPercent(percentDiff(computeTotals(runs.get(m)!.events).total, base.total))),
    );
    // Tool calls compare the tools run (a program counts by the calls inside it), in no colour of better or worse.
    const ran = (m: ModeId) => toolsRun(summarizeRun(runs.get(m)!.events));
    for (const m of MODE_IDS.slice(1)) {
      const cell = page.locator(`[data-testid=sum-diff-toolCalls-${m}]`);
      expect((await cell.innerText()).replace(/^Δ\s*/, ''), m).toBe(
        formatPercent(percentDiff(ran(m), ran(MODE_IDS[0]))),
      );
      expect(await cell.getAttribute('class'), m).not.toMatch(/is-(more|less)/);
    }
    const codeRun = summarizeRun(runs.get('code')!.events);
    expect(codeRun.programToolCalls).toBeGreaterThan(0);
    expect(ran('code')).toBe(codeRun.totals.toolCalls - codeRun.programs! + codeRun.programToolCalls);
    // The summary has the full width: no column is cut off or scrolled away.
    await page.locator('[data-testid=summary-table]').scrollIntoViewIfNeeded();
    await saveShot(page, 'four-modes-charts', { docs: false });
    const wrap = await page
      .locator('[data-testid=summary-table] .table-wrap')
      .evaluate((el) => el.scrollWidth <= el.clientWidth);
    expect(wrap).toBe(true);
  });

  it('gives each mode colours of its own in both themes', async () => {
    const { page } = driven;
    const colours = () =>
      page.evaluate(
        (modes) =>
          modes.map((m) => {
            const el = document.querySelector(
              `[data-testid=per-step-chart] [data-testid=legend-mode][data-mode="${m}"] .legend-swatch`,
            )!;
            const pale = el.nextElementSibling!;
            return `${getComputedStyle(el).backgroundColor}|${getComputedStyle(pale).backgroundColor}`;
          }),
        [...MODE_IDS],
      );
    const light = await colours();
    expect(new Set(light.flatMap((c) => c.split('|'))).size).toBe(MODE_IDS.length * 2);
    await page.click('[data-testid=theme-toggle]');
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    const dark = await colours();
    expect(new Set(dark.flatMap((c) => c.split('|'))).size).toBe(MODE_IDS.length * 2);
    for (const [i, m] of MODE_IDS.entries()) expect(dark[i], m).not.toBe(light[i]);
    await page.waitForTimeout(100);
    await saveShot(page, 'four-modes-dark-charts', { docs: false });
    await page.click('[data-testid=tab-timeline]');
    await page.locator('[data-testid=timeline]').evaluate((el) => el.scrollTo(0, 0));
    await page.waitForTimeout(150);
    await saveShot(page, 'four-modes-dark', { docs: false });
    expect(driven.errors).toEqual([]);
  });

  it('runs every mode twice: averages and Δ for every mode, and each run\'s bars in "All", as the stored events', async () => {
    const { page } = driven;
    if ((await page.evaluate(() => document.documentElement.dataset.theme)) === 'dark')
      await page.click('[data-testid=theme-toggle]');
    await page.click('[data-testid=side-tab-compose]');
    await page.check('[data-testid=task-calc] input');
    for (const m of MODE_IDS) await page.check(`[data-testid=mode-${m}] input`);
    await page.fill('[data-testid=trials-input]', '2');
    expect(await page.textContent('[data-testid=run]')).toContain(`Run ${MODE_IDS.length} modes × 2`);
    await page.click('[data-testid=run]');
    await page.waitForSelector('[data-testid=trial-bar]');
    await page.waitForFunction(
      () => {
        const opts = [...document.querySelectorAll('[data-testid=trial-option][data-state]')];
        return opts.length === 2 && opts.every((o) => o.getAttribute('data-state') === 'done');
      },
      undefined,
      { timeout: 120_000, polling: 100 },
    );
    const list = await host.invoke('history:list');
    const stored = await host.invoke('history:open', list.find((i) => i.meta.task.id === 'calc')!.meta.id);
    const byRun = groupByRun(stored.events);
    const expected = aggregateByColumn(stored.meta.runs.map((r) => summarizeRun(byRun.get(r.runId)!)));
    expect(expected.map((a) => [a.mode, a.trials])).toEqual(MODE_IDS.map((m) => [m, 2]));

    await page.click('[data-testid=tab-charts]');
    await page.waitForSelector('[data-testid=average-table]');
    const shown = (id: string, attr: string) => page.getAttribute(`[data-testid=${id}]`, attr);
    for (const a of expected) {
      expect(Number(await shown(`avg-answered-${a.mode}`, 'data-value')), a.mode).toBe(a.answered);
      expect(Number(await shown(`avg-total-${a.mode}`, 'data-mean')), a.mode).toBe(a.total!.mean);
    }
    for (const a of expected.slice(1)) {
      expect(await page.textContent(`[data-testid=avg-diff-total-${a.mode}]`), a.mode).toBe(
        formatPercent(percentDiff(a.total!.mean, expected[0]!.total!.mean)),
      );
    }
    const fits = (id: string) =>
      page.locator(`[data-testid=${id}] .table-wrap`).evaluate((el) => el.scrollWidth <= el.clientWidth);
    await saveShot(page, 'four-modes-trials', { docs: false });
    expect(await fits('average-table'), 'averages fit without sideways scrolling').toBe(true);
    await page.click('[data-testid=trial-option][data-trial="all"]');
    const bars = await page.$$eval('[data-testid=trial-token-bar]', (els) =>
      els.map(
        (e) =>
          `${e.getAttribute('data-trial')}:${e.getAttribute('data-mode')}:${e.getAttribute('data-kind')}:${e.getAttribute('data-value')}`,
      ),
    );
    const want = stored.meta.runs.flatMap((r) => {
      const t = computeTotals(byRun.get(r.runId)!);
      return [`${r.trial}:${r.mode}:prompt:${t.prompt}`, `${r.trial}:${r.mode}:completion:${t.completion}`];
    });
    expect(bars.sort()).toEqual(want.sort());
    expect(await fits('trials-table'), 'every trial fits without sideways scrolling').toBe(true);
    await page.locator('[data-testid=trials-table]').scrollIntoViewIfNeeded();
    await saveShot(page, 'four-modes-trials-all', { docs: false });
    await page.click('[data-testid=tab-timeline]');
    expect(await columnRunIds(page)).toEqual(stored.meta.runs.map((r) => r.runId));
    expect(driven.errors).toEqual([]);
  });
});
