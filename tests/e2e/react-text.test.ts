/**
 * ReAct (text) in the browser against a real `parallax serve` (simulated model): beside ReAct, each step shows
 * the Thought, Action and Input as parsed, the Final Answer at the end, and the raw reply on demand; the
 * figures in the column are the stored events'. Screenshots to look at.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StepEvent } from '../../shared/step-event.js';
import { computeTotals, groupByRun } from '../../shared/summary.js';
import { startAppSession, stopAppSession } from './app-session.js';
import type { Driven, Served } from './harness.js';
import type { HostClient } from './host-client.js';
import { waitForStatus } from './page-helpers.js';
import { saveShot } from './screenshots.js';

describe('ReAct (text) in the browser', () => {
  let served: Served;
  let driven: Driven;
  let host: HostClient;

  beforeAll(async () => {
    ({ served, driven, host } = await startAppSession());
  });

  afterAll(() => stopAppSession({ served, driven, host }));

  it("shows each step's parsed Thought, Action and Input, the final answer, and the raw text on demand", async () => {
    const { page } = driven;
    await page.check('[data-testid=task-log-stats] input');
    await page.uncheck('[data-testid=mode-code] input');
    await page.check('[data-testid=mode-react-text] input');
    await page.keyboard.press('Control+Enter');
    for (const m of ['react', 'react-text'] as const)
      expect(await waitForStatus(page, m, ['answered', 'max-steps', 'error', 'crashed']), m).toBe('answered');
    expect(driven.errors).toEqual([]);

    const [item] = await host.invoke('history:list');
    const stored = await host.invoke('history:open', item!.meta.id);
    const run = stored.meta.runs.find((r) => r.mode === 'react-text')!;
    const events = groupByRun(stored.events).get(run.runId)!;
    const responses = events.filter(
      (e): e is Extract<StepEvent, { type: 'model-response' }> => e.type === 'model-response',
    );
    expect(await page.locator('[data-testid=column-react-text] [data-testid=col-total]').textContent()).toBe(
      computeTotals(events).total.toLocaleString('en-US'),
    );

    const card = (step: number) =>
      page.locator(`[data-testid=step-card][data-run-id="${run.runId}"][data-step="${step}"]`);
    for (const r of responses) {
      const parsed = card(r.step).locator('[data-testid=parsed-reply]');
      await parsed.scrollIntoViewIfNeeded();
      expect(await parsed.locator('[data-testid=parsed-action]').allInnerTexts(), `step ${r.step}`).toEqual(
        r.toolCalls.map((c) => c.name),
      );
      expect(await parsed.locator('dd').first().innerText(), `step ${r.step} thought`).toBe(r.parsed!.thought);
    }
    const last = responses.at(-1)!;
    expect(await card(last.step).locator('[data-testid=parsed-reply] [aria-label="Final Answer"]').innerText()).toBe(
      last.parsed!.finalAnswer,
    );
    await card(last.step).scrollIntoViewIfNeeded();
    await saveShot(page, 'react-text-final-step', { docs: false });

    // The raw reply is one click away, exactly as the model wrote it.
    const first = card(1);
    await first.scrollIntoViewIfNeeded();
    await first.locator('[data-testid=raw-toggle]').click();
    expect(await first.locator('[aria-label="Raw reply"]').innerText()).toBe(responses[0]!.text);
    await page.locator('[data-testid=timeline]').evaluate((el) => (el.scrollTop = 0));
    await page.waitForTimeout(150);
    await saveShot(page, 'react-text-timeline', { docs: false });
    await page.keyboard.press('Control+b');
    await page.waitForTimeout(150);
    await saveShot(page, 'react-text-timeline-wide', { docs: false });
    expect(driven.errors).toEqual([]);
  });
});
