/**
 * A worker's start-up in the app against a real `parallax serve`: counted live in the column head while the
 * worker starts ("Starting worker… 0.1 s"), then the host's measured figure, apart from the run's time, with a
 * warm-pool worker's loading reported as before Run; the same figure in the summary table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MODES } from '../../shared/run-spec.js';
import type { RunStartedEvent } from '../../shared/step-event.js';
import { formatDuration } from '../../shared/number-format.js';
import { startAppSession, stopAppSession } from './app-session.js';
import type { Driven, Served } from './harness.js';
import type { HostClient } from './host-client.js';
import { waitForStatus } from './page-helpers.js';
import { saveShot } from './screenshots.js';

describe('worker start-up in the app, against parallax serve', () => {
  let served: Served;
  let driven: Driven;
  let host: HostClient;

  beforeAll(async () => {
    ({ served, driven, host } = await startAppSession());
  });

  afterAll(() => stopAppSession({ served, driven, host }));

  it('counts the start-up while it happens, then shows the measured figure apart from the run time', async () => {
    const { page } = driven;
    // Every text the "starting" line showed, as the DOM changed.
    await page.evaluate(() => {
      const w = window as unknown as { __starting: string[] };
      w.__starting = [];
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('[data-testid=worker-starting]'))
          w.__starting.push(el.textContent ?? '');
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    // Right after the page loaded: the warm workers are still loading, so part of the start-up is seen live.
    await page.keyboard.press('Control+Enter');
    // Shot as soon as the line shows, if the start lasts long enough for one (it is counted either way).
    if (
      await page.waitForSelector('[data-testid=worker-starting]', { timeout: 5000 }).then(
        () => true,
        () => false,
      )
    )
      await saveShot(page, 'worker-starting', { docs: false });
    for (const mode of DEFAULT_MODES)
      expect(await waitForStatus(page, mode, ['answered', 'max-steps', 'error', 'crashed'])).toBe('answered');
    const seen = await page.evaluate(() => (window as unknown as { __starting: string[] }).__starting);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((t) => /^Starting worker… \d+\.\d s$/.test(t.trim()))).toBe(true);
    expect(await page.locator('[data-testid=worker-starting]').count()).toBe(0);

    const [item] = await host.invoke('history:list');
    const stored = await host.invoke('history:open', item!.meta.id);
    for (const mode of DEFAULT_MODES) {
      const started = stored.events.find((e): e is RunStartedEvent => e.type === 'run-started' && e.mode === mode)!;
      const start = started.workerStart!;
      expect(start.ms).toBeGreaterThan(0);
      const cell = page.locator(`[data-testid=column-${mode}] [data-testid=col-startup]`);
      expect(Number(await cell.getAttribute('data-value'))).toBe(start.ms);
      expect(await cell.getAttribute('data-pooled')).toBe(String(start.pooled));
      expect(await cell.textContent()).toBe(`${formatDuration(start.ms)}${start.pooled ? ' warm' : ''}`);
      if (start.pooled && start.beforeRunMs > 0)
        expect(await cell.getAttribute('title')).toContain(
          `${formatDuration(start.beforeRunMs)} of it (process start and engine load) happened before Run`,
        );
    }
    await saveShot(page, 'worker-started', { docs: false });

    await page.click('[data-testid=tab-charts]');
    for (const mode of DEFAULT_MODES) {
      const started = stored.events.find((e): e is RunStartedEvent => e.type === 'run-started' && e.mode === mode)!;
      const cell = page.locator(`[data-testid=sum-startupMs-${mode}]`);
      expect(Number(await cell.getAttribute('data-value'))).toBe(started.workerStart!.ms);
    }
    await page.locator('[data-metric=startupMs]').first().scrollIntoViewIfNeeded();
    await saveShot(page, 'worker-start-summary', { docs: false });
    expect(driven.errors).toEqual([]);
  });
});
