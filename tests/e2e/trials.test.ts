/**
 * Trials in the browser against a real `parallax serve` (simulated model): the composer's trials field, a
 * 2-trial calc comparison run in rounds with the picker following the round in progress, columns switching with
 * the picked trial, the averages table against aggregateByColumn of the stored runs, reopening from history,
 * a trial not started yet shown as waiting, and N = 1 looking as it did before trials.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MODES, MAX_TRIALS } from '../../shared/run-spec.js';
import type { ComparisonMeta } from '../../shared/ipc-contract.js';
import type { StepEvent } from '../../shared/step-event.js';
import {
  aggregateByColumn,
  computeTotals,
  formatPercent,
  groupByRun,
  percentDiff,
  summarizeRun,
  type ModeAggregate,
} from '../../shared/summary.js';
import { startAppSession, stopAppSession } from './app-session.js';
import type { Driven, Served } from './harness.js';
import type { HostClient } from './host-client.js';
import { columnRunIds, recordedTrials, startRecordingTrials, summaryValue, trialOptions } from './page-helpers.js';
import { saveShot } from './screenshots.js';

const STATS = ['steps', 'requests', 'prompt', 'completion', 'cached', 'total', 'wallMs', 'toolCalls'] as const;

// Tests wait up to 90 s for trials in rounds: above the default 60 s on a loaded machine.
describe('trials per mode in the browser, against parallax serve with the simulated model', () => {
  let served: Served;
  let driven: Driven;
  let host: HostClient;
  let meta: ComparisonMeta;
  let events: readonly StepEvent[] = [];
  const idsOf = (trial: number) => meta.runs.filter((r) => (r.trial ?? 1) === trial).map((r) => r.runId);
  const trialCount = async () => (await driven.page.$$('[data-testid=trial-option][data-state]')).length;
  const allDone = () =>
    driven.page.waitForFunction(
      () => {
        const opts = [...document.querySelectorAll('[data-testid=trial-option][data-state]')];
        // A trial cancelled before it began is over too: it is marked as one that never ran.
        return opts.length > 0 && opts.every((o) => ['done', 'never-ran'].includes(o.getAttribute('data-state') ?? ''));
      },
      undefined,
      { polling: 100 },
    );

  /** The averages table as the page shows it, read from its cells' data attributes. */
  async function shownAverages(): Promise<Record<string, Record<string, unknown>>> {
    return driven.page.$$eval('[data-testid=average-table] [data-testid^=avg-]', (els) =>
      Object.fromEntries(
        els.map((e) => [e.getAttribute('data-testid')!, { ...(e as HTMLElement).dataset, text: e.textContent }]),
      ),
    );
  }

  function expectAverages(shown: Record<string, Record<string, unknown>>, expected: readonly ModeAggregate[]) {
    for (const a of expected) {
      expect(Number(shown[`avg-answered-${a.mode}`]!.value), `answered ${a.mode}`).toBe(a.answered);
      expect(Number(shown[`avg-answered-${a.mode}`]!.of), `trials ${a.mode}`).toBe(a.trials);
      expect(Number(shown[`avg-passed-${a.mode}`]!.value), `passed ${a.mode}`).toBe(a.passed);
      for (const k of STATS) {
        const cell = shown[`avg-${k}-${a.mode}`]!;
        const stat = a[k];
        if (!stat) expect(cell.mean, `${k} of ${a.mode}`).toBe('');
        else
          expect([Number(cell.mean), Number(cell.min), Number(cell.max)], `${k} of ${a.mode}`).toEqual([
            stat.mean,
            stat.min,
            stat.max,
          ]);
      }
    }
    const [base, other] = expected;
    const diff = percentDiff(other!.total!.mean, base!.total!.mean);
    expect(shown[`avg-diff-total-${other!.mode}`]!.text).toBe(formatPercent(diff));
  }

  beforeAll(async () => {
    ({ served, driven, host } = await startAppSession());
  });

  afterAll(() => stopAppSession({ served, driven, host }));

  it('takes trials per mode at its field (1 to MAX_TRIALS, by keyboard too) and names the runs on the Run button', async () => {
    const { page } = driven;
    await page.check('[data-testid=task-calc] input');
    await page.fill('[data-testid=trials-input]', String(MAX_TRIALS + 1));
    expect(await page.textContent('[data-testid=trials-error]')).toBe(`At most ${MAX_TRIALS} trials per mode.`);
    await page.click('[data-testid=run]');
    await page.waitForTimeout(300);
    expect(await host.invoke('history:list')).toEqual([]);
    await page.fill('[data-testid=trials-input]', '1');
    await page.press('[data-testid=trials-input]', 'ArrowUp');
    expect(await page.inputValue('[data-testid=trials-input]')).toBe('2');
    expect(await page.locator('[data-testid=trials-error]').count()).toBe(0);
    expect(await page.textContent('[data-testid=run]')).toContain(`Run ${DEFAULT_MODES.length} modes × 2`);
    // One round at a time whatever the machine's cores (the simulated model's default follows them).
    await page.fill('[data-testid=concurrency-input]', '1');
  });

  it('runs calc twice per mode in rounds; the picker follows the trial in progress, the later one waiting', async () => {
    const { page } = driven;
    await startRecordingTrials(page);
    await page.click('[data-testid=run]');
    await page.waitForSelector('[data-testid=trial-bar]');
    await allDone();
    const frames = await recordedTrials(page);
    const [item] = await host.invoke('history:list');
    const stored = await host.invoke('history:open', item!.meta.id);
    meta = stored.meta;
    events = stored.events;
    expect(meta.runs.map((r) => r.trial)).toEqual([1, 1, 2, 2]);
    // While round 1 ran, trial 2 waited and the columns were round 1's; then they followed round 2.
    expect(
      frames.some((f) => f.states['2'] === 'waiting' && f.checked === '1' && f.columns.join() === idsOf(1).join()),
    ).toBe(true);
    expect(
      frames.some((f) => f.states['2'] === 'running' && f.checked === '2' && f.columns.join() === idsOf(2).join()),
    ).toBe(true);
    // What "waiting" claimed: in the stored events, round 2 started after every run of round 1 had ended.
    const byRun = groupByRun(events);
    const started = (id: string) =>
      (byRun.get(id)!.find((e) => e.type === 'run-started') as Extract<StepEvent, { type: 'run-started' }>).startedAt;
    const ended = (id: string) => started(id) + byRun.get(id)!.at(-1)!.t;
    expect(Math.min(...idsOf(2).map(started))).toBeGreaterThanOrEqual(Math.max(...idsOf(1).map(ended)));
    expect(await trialOptions(page)).toEqual({ trials: ['1', '2', 'all'], checked: '2' });
    expect(driven.errors).toEqual([]);
    await saveShot(page, 'trials-timeline');
  });

  it('switching trials switches the columns to that trial’s runs, by click and by arrow keys; All shows every run', async () => {
    const { page } = driven;
    await page.click('[data-testid=trial-option][data-trial="1"]');
    expect(await columnRunIds(page)).toEqual(idsOf(1));
    await page.keyboard.press('ArrowRight');
    expect((await trialOptions(page)).checked).toBe('2');
    expect(await columnRunIds(page)).toEqual(idsOf(2));
    await page.keyboard.press('End');
    expect((await trialOptions(page)).checked).toBe('all');
    expect(await columnRunIds(page)).toEqual(meta.runs.map((r) => r.runId));
    await saveShot(page, 'trials-all-timeline', { docs: false });
    await page.keyboard.press('Home');
    expect(await columnRunIds(page)).toEqual(idsOf(1));
  });

  it('averages every trial exactly as aggregateByColumn of the stored runs; the per-run summary shows the picked trial', async () => {
    const { page } = driven;
    await page.click('[data-testid=tab-charts]');
    await page.waitForSelector('[data-testid=average-table]');
    const byRun = groupByRun(events);
    const expected = aggregateByColumn(meta.runs.map((r) => summarizeRun(byRun.get(r.runId)!)));
    expect(expected.map((a) => a.trials)).toEqual([2, 2]);
    expectAverages(await shownAverages(), expected);
    expect(await page.textContent('[data-testid=average-table] .chart-title')).toBe('Average over 2 trials');
    expect(await page.locator('[data-testid=average-table] [data-testid=sim-badge]').count()).toBe(1);
    for (const trial of [1, 2]) {
      await page.click(`[data-testid=trial-option][data-trial="${trial}"]`);
      for (const r of meta.runs.filter((x) => x.trial === trial)) {
        expect(await summaryValue(page, 'total', r.mode), `trial ${trial} ${r.mode}`).toBe(
          computeTotals(byRun.get(r.runId)!).total,
        );
      }
      expect(await page.textContent('[data-testid=summary-table] .chart-title')).toBe(`Summary · Trial ${trial}`);
    }
    await page.locator('[data-testid=charts-view]').evaluate((el) => (el.scrollTop = 0));
    await saveShot(page, 'trials-charts');
    await page.click('[data-testid=trial-option][data-trial="all"]');
    const bars = await page.$$eval('[data-testid=trial-token-bar][data-kind=prompt]', (els) =>
      els.map((e) => `${e.getAttribute('data-trial')}:${e.getAttribute('data-mode')}:${e.getAttribute('data-value')}`),
    );
    expect(bars.sort()).toEqual(
      meta.runs.map((r) => `${r.trial}:${r.mode}:${computeTotals(byRun.get(r.runId)!).prompt}`).sort(),
    );
    await saveShot(page, 'trials-all-charts', { docs: false });
  });

  it('measures every Δ against the mode the user picks: the averages, the summary and the sentences follow', async () => {
    const { page } = driven;
    const byRun = groupByRun(events);
    const [react, code] = aggregateByColumn(meta.runs.map((r) => summarizeRun(byRun.get(r.runId)!)));
    expect([react!.mode, code!.mode]).toEqual(['react', 'code']);
    await page.click('[data-testid=trial-option][data-trial="1"]');
    await page.selectOption('[data-testid=avg-baseline]', 'code');
    const avg = await shownAverages();
    expect(avg['avg-diff-total-react']!.text).toBe(formatPercent(percentDiff(react!.total!.mean, code!.total!.mean)));
    expect(avg['avg-diff-total-code']).toBeUndefined();
    // One choice for the window: the trial's summary measures from Code Mode too.
    expect(await page.inputValue('[data-testid=sum-baseline]')).toBe('code');
    const totals = (mode: string) =>
      computeTotals(byRun.get(meta.runs.find((r) => r.trial === 1 && r.mode === mode)!.runId)!).total;
    expect(await page.textContent('[data-testid=sum-diff-total-react]')).toBe(
      formatPercent(percentDiff(totals('react'), totals('code'))),
    );
    expect(await page.locator('[data-testid=sum-diff-total-code]').count()).toBe(0);
    expect(await page.textContent('[data-testid=average-table]')).toMatch(/Against Code Mode/);
    await saveShot(page, 'baseline-picked', { docs: false });
    await page.selectOption('[data-testid=sum-baseline]', 'react');
    expect(await page.inputValue('[data-testid=avg-baseline]')).toBe('react');
  });

  it('reopens from history with ×2 in the list, rebuilding the trials from meta.runs', async () => {
    const { page } = driven;
    // A fresh page at the app's address: no comparison in its URL (a reload would reopen the one open now).
    await page.goto(page.url().split('#')[0]!);
    await page.waitForSelector('[data-testid=main-empty]');
    await page.click('[data-testid=side-tab-history]');
    const item = page.locator(`[data-testid=history-item][data-id="${meta.id}"]`);
    expect(await item.locator('[data-testid=history-trials]').textContent()).toBe('×2');
    await item.locator('.history-open').click();
    await page.waitForSelector('[data-testid=trial-bar]');
    expect(await trialCount()).toBe(2);
    // A stored comparison opens on trial 1.
    expect((await trialOptions(page)).checked).toBe('1');
    expect(await columnRunIds(page)).toEqual(idsOf(1));
    await page.click('[data-testid=tab-charts]');
    const byRun = groupByRun(events);
    expectAverages(await shownAverages(), aggregateByColumn(meta.runs.map((r) => summarizeRun(byRun.get(r.runId)!))));
    await page.click('[data-testid=theme-toggle]');
    await page.waitForTimeout(150);
    await saveShot(page, 'trials-dark-charts', { docs: false });
    await page.click('[data-testid=theme-toggle]');
  });

  it('shows a trial not started yet as waiting; cancelling one of its runs, then all, records them as cancelled', async () => {
    const { page } = driven;
    await page.click('[data-testid=side-tab-compose]');
    await page.click('[data-testid=advanced-toggle]');
    await page.check('[data-testid=fault-hang] input');
    await page.click('[data-testid=run]');
    await page.waitForSelector('[data-testid=trial-option][data-trial="2"][data-state=waiting]');
    await page.click('[data-testid=tab-timeline]');
    await page.click('[data-testid=trial-option][data-trial="2"]');
    for (const mode of DEFAULT_MODES)
      expect(await page.getAttribute(`[data-testid=column-${mode}] [data-testid=run-status]`, 'data-status')).toBe(
        'waiting',
      );
    expect(await page.locator('[data-testid=setup-waiting]').count()).toBe(DEFAULT_MODES.length);
    await saveShot(page, 'trials-waiting', { docs: false });
    // One run of the waiting trial cancelled from its column: recorded as cancelled, its partner still waits.
    await page.click('[data-testid=cancel-run-code]');
    await page.waitForSelector('[data-testid=column-code] [data-testid=run-status][data-status=cancelled]');
    expect(await page.getAttribute('[data-testid=column-react] [data-testid=run-status]', 'data-status')).toBe(
      'waiting',
    );
    expect(await page.getAttribute('[data-testid=trial-option][data-trial="2"]', 'data-state')).toBe('waiting');
    await page.locator('[data-testid=timeline]').focus();
    await page.keyboard.press('Escape');
    await allDone();
    for (const mode of DEFAULT_MODES)
      expect(await page.getAttribute(`[data-testid=column-${mode}] [data-testid=run-status]`, 'data-status')).toBe(
        'cancelled',
      );
    const held = (await host.invoke('history:list')).find((i) => i.meta.id !== meta.id)!;
    expect(held.runs.map((r) => r.status)).toEqual(['cancelled', 'cancelled', 'cancelled', 'cancelled']);
    await page.uncheck('[data-testid=fault-hang] input');
  });

  it('with one trial the view is as before trials: no picker, no averages', async () => {
    const { page } = driven;
    await page.fill('[data-testid=trials-input]', '1');
    expect((await page.textContent('[data-testid=run]'))!.includes('×')).toBe(false);
    await page.click('[data-testid=run]');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid=result-cell][data-status=answered]').length === 2,
      undefined,
    );
    expect(await page.locator('[data-testid=trial-bar]').count()).toBe(0);
    await page.click('[data-testid=tab-charts]');
    await page.waitForSelector('[data-testid=summary-table]');
    expect(await page.locator('[data-testid=average-table]').count()).toBe(0);
    expect(await page.textContent('[data-testid=summary-table] .chart-title')).toBe('Summary');
    expect(driven.errors).toEqual([]);
  });
});
