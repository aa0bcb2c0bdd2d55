/**
 * A summarize:3 comparison in Debian Chromium against a real `parallax serve` (simulated model): ReAct's step
 * after the summary shows a card with what it replaced and what its request cost (labelled simulated), the
 * per-step chart's note holds the summary tokens so bars + note = the run's totals, and the composition
 * panel says what the summary replaced.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistorySummaryEvent } from '../../shared/step-event.js';
import { computeTotals, groupByRun } from '../../shared/summary.js';
import { startAppSession, stopAppSession, type AppSession } from './app-session.js';
import { waitForStatus } from './page-helpers.js';
import { saveShot } from './screenshots.js';

describe('history summaries in the app', () => {
  let session: AppSession;

  beforeAll(async () => {
    session = await startAppSession();
  });
  afterAll(() => stopAppSession(session ?? {}));

  it('shows each summary in its step, apart from the bars, and in the composition', async () => {
    const { page } = session.driven;
    await page.check('[data-testid=task-log-stats] input');
    await page.click('[data-testid=advanced-toggle]');
    await page.selectOption('[data-testid=setting-toolHistory]', 'summarize:3');
    await page.click('[data-testid=run]');
    for (const mode of ['react', 'code'] as const)
      expect(await waitForStatus(page, mode, ['answered', 'error', 'crashed', 'max-steps'], 120_000)).toBe('answered');

    const [item] = await session.host.invoke('history:list');
    const stored = await session.host.invoke('history:open', item!.meta.id);
    const reactId = item!.meta.runs.find((r) => r.mode === 'react')!.runId;
    const events = groupByRun(stored.events).get(reactId)!;
    const summaries = events.filter((e): e is HistorySummaryEvent => e.type === 'history-summary');
    expect(summaries.length).toBeGreaterThan(0);
    const s = summaries[0]!;

    await page.click('[data-testid=tab-timeline]');
    const card = page.locator(
      `[data-testid=step-card][data-run-id="${reactId}"][data-step="${s.step}"] [data-testid=history-summary]`,
    );
    await card.waitFor();
    expect(await card.getAttribute('data-state')).toBe('done');
    expect(Number(await card.getAttribute('data-prompt'))).toBe(s.usage!.prompt);
    expect(Number(await card.getAttribute('data-replaced'))).toBe(s.replacedTokens);
    const text = (await card.textContent())!;
    expect(text).toContain(
      `History summary of ${s.fromStep === s.toStep ? `step ${s.fromStep}` : `steps ${s.fromStep}–${s.toStep}`}`,
    );
    expect(text).toContain(
      `Replaced ${s.replacedMessages} messages (${s.replacedTokens.toLocaleString('en-US')} prompt tokens)`,
    );
    expect(await card.locator('[data-testid=sim-badge]').count()).toBe(1);
    await card.scrollIntoViewIfNeeded();
    await saveShot(page, 'history-summary-card', { docs: false });

    await page.click('[data-testid=tab-charts]');
    const note = page.locator('[data-testid=summary-note][data-mode=react]');
    await note.waitFor();
    const bars = await page.$$eval('[data-testid=per-step-prompt] [data-testid=token-bar][data-mode=react]', (els) =>
      els.reduce((n, e) => n + Number(e.getAttribute('data-value')), 0),
    );
    expect(bars + Number(await note.getAttribute('data-prompt'))).toBe(computeTotals(events).prompt);
    expect(await note.textContent()).toMatch(
      /\(simulated\), not in the bars above; bars \+ these = the run's totals\.$/,
    );
    expect(await page.locator('[data-testid=summary-note][data-mode=code]').count()).toBe(0);
    const composition = page.locator('[data-testid=composition-panel][data-mode=react] [data-testid=history-note]');
    expect(await composition.textContent()).toMatch(
      /^history summary: steps? 1(–\d+)? sent as a [\d,]+-token summary instead of [\d,]+ tokens; /,
    );
    await composition.scrollIntoViewIfNeeded();
    await saveShot(page, 'history-summary-charts', { docs: false });

    // The waterfall draws each summary request as its own span, and its legend names the kind.
    await page.click('[data-testid=tab-waterfall]');
    const legend = page.locator('.tab-pane.is-shown .wf-legend');
    await legend.waitFor();
    expect(await legend.textContent()).toContain('history summary');
    expect(await page.locator('.tab-pane.is-shown .wf-summary').count()).toBeGreaterThanOrEqual(summaries.length + 1);
    await saveShot(page, 'history-summary-waterfall', { docs: false });
    expect(session.driven.errors).toEqual([]);
  });
});
