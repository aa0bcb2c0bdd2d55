/**
 * Approvals in the app against a real `parallax serve`: with fetch_url set to ask, each run of the
 * time-and-title task stops at a card in its own column; Allow and Deny answer only that run; "Allow for this
 * comparison" answers the other run too; the wait is shown apart from the run's time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeTotals, groupByRun } from '../../shared/summary.js';
import type { StepEvent } from '../../shared/step-event.js';
import { startAppSession, stopAppSession } from './app-session.js';
import type { Driven, Served } from './harness.js';
import type { HostClient } from './host-client.js';
import { waitForStatus } from './page-helpers.js';
import { saveShot } from './screenshots.js';

const card = (mode: string) => `.cell[data-mode=${mode}] [data-testid=approval-card]`;

describe('approval cards in the run’s column, against parallax serve', () => {
  let served: Served;
  let driven: Driven;
  let host: HostClient;

  beforeAll(async () => {
    ({ served, driven, host } = await startAppSession());
  });

  afterAll(() => stopAppSession({ served, driven, host }));

  async function startAsking(): Promise<string> {
    const { page } = driven;
    await page.click('[data-testid=task-time-and-title]');
    if ((await page.locator('[data-testid=approval-fetch_url]').count()) === 0)
      await page.click('[data-testid=advanced-toggle]');
    await page.selectOption('[data-testid=approval-fetch_url]', 'ask');
    await page.click('[data-testid=run]');
    await page.waitForSelector('[data-testid=approval-card]', { timeout: 120_000 });
    const [item] = await host.invoke('history:list');
    return item!.meta.id;
  }

  it('pauses each run at a card in its own column; Allow runs the fetch, Deny tells the model, and only that run waits', async () => {
    const { page, errors } = driven;
    const id = await startAsking();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=approval-card]').length === 2, undefined, {
      timeout: 120_000,
    });
    for (const mode of ['react', 'code']) {
      expect(await page.locator(card(mode)).count(), mode).toBe(1);
      expect(await page.locator(`[data-testid=column-${mode}] [data-testid=needs-approval]`).count()).toBe(1);
      expect(await page.locator(card(mode)).getAttribute('data-tool')).toBe('fetch_url');
      expect(await page.textContent(`${card(mode)} [data-testid=approval-args]`)).toMatch(
        /http:\/\/127\.0\.0\.1:\d+\//,
      );
    }
    expect(await page.textContent(card('code'))).toContain('called inside the program');
    await saveShot(page, 'approval-cards', { docs: false });

    // Code Mode: Allow. It finishes while ReAct still waits.
    await page.click(`${card('code')} [data-testid=approval-allow]`);
    expect(await waitForStatus(page, 'code', ['answered', 'error', 'cancelled', 'crashed', 'max-steps'], 120_000)).toBe(
      'answered',
    );
    expect(await page.locator(card('react')).count()).toBe(1);
    expect(await page.getAttribute('[data-testid=column-react] [data-testid=run-status]', 'data-status')).toBe(
      'running',
    );
    await page.waitForTimeout(1200); // the user thinks it over; the run's own time must not grow with it

    await page.click(`${card('react')} [data-testid=approval-deny]`);
    expect(
      await waitForStatus(page, 'react', ['answered', 'error', 'cancelled', 'crashed', 'max-steps'], 120_000),
    ).toBe('answered');
    expect(await page.locator('[data-testid=approval-card]').count()).toBe(0);
    expect(await page.getAttribute('.cell[data-mode=code] [data-testid=approval-record]', 'data-decision')).toBe(
      'allow',
    );
    expect(await page.getAttribute('.cell[data-mode=react] [data-testid=approval-record]', 'data-decision')).toBe(
      'deny',
    );
    expect(await page.textContent('.cell[data-mode=react] [data-testid=tool-call][data-tool=fetch_url]')).toContain(
      'The user denied fetch_url',
    );

    // What the page shows is what the host stored: the wait apart from the run's time.
    const stored = await host.invoke('history:open', id);
    const byRun = groupByRun(stored.events as StepEvent[]);
    for (const r of stored.meta.runs) {
      const totals = computeTotals(byRun.get(r.runId)!);
      expect(totals.approvalWaitMs, r.mode).toBeGreaterThan(0);
      const shown = await page.textContent(`.cell[data-mode=${r.mode}] [data-testid=approval-wait]`);
      expect(shown).toMatch(/\+ waited .* for approval/);
    }
    const react = computeTotals(byRun.get(stored.meta.runs[0]!.runId)!);
    expect(react.approvalWaitMs).toBeGreaterThan(1200);
    await page.locator('.cell[data-mode=react] [data-testid=approval-record]').scrollIntoViewIfNeeded();
    await saveShot(page, 'approval-answered', { docs: false });
    expect(errors).toEqual([]);
  });

  it('"Allow for this comparison" in one column answers the other run’s card too', async () => {
    const { page, errors } = driven;
    await page.click('[data-testid=side-tab-compose]').catch(() => undefined);
    const id = await startAsking();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=approval-card]').length >= 1, undefined, {
      timeout: 120_000,
    });
    await page.click(`[data-testid=approval-card] [data-testid=approval-allow-all]`);
    for (const mode of ['react', 'code'] as const) {
      expect(await waitForStatus(page, mode, ['answered', 'error', 'cancelled', 'crashed', 'max-steps'], 120_000)).toBe(
        'answered',
      );
    }
    expect(await page.locator('[data-testid=approval-card]').count()).toBe(0);
    const stored = await host.invoke('history:open', id);
    const decisions = (stored.events as StepEvent[])
      .filter((e) => e.type === 'approval-resolved')
      .map((e) => (e as { decision: string }).decision);
    expect(decisions.length).toBeGreaterThanOrEqual(1);
    expect(new Set(decisions)).toEqual(new Set(['allow-comparison']));
    expect(
      (stored.events as StepEvent[])
        .filter((e) => e.type === 'run-finished')
        .every((e) => (e as { validation: { ok: boolean } }).validation.ok),
    ).toBe(true);
    expect(errors).toEqual([]);
  });
});
