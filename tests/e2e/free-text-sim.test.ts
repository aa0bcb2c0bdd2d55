/**
 * A free-text task on the simulated model, in the browser against a real `parallax serve`: the composer warns
 * before the run, every run ends as "No policy (simulated)" (not answered) in the columns and the summary,
 * and no mode is named a winner.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppSession, stopAppSession, type AppSession } from './app-session.js';
import { waitForStatus } from './page-helpers.js';
import { saveShot } from './screenshots.js';

describe('a free-text task on the simulated model', () => {
  let session: AppSession;

  beforeAll(async () => {
    session = await startAppSession();
  });
  afterAll(() => stopAppSession(session ?? {}));

  it('warns in the composer and ends every run as no-policy', async () => {
    const { page } = session.driven;
    expect(await page.locator('[data-testid=sim-free-text-warning]').count()).toBe(0);
    await page.check('[data-testid=task-custom] input');
    await page.fill('[data-testid=custom-task]', 'Write a haiku about log files.');
    expect(await page.textContent('[data-testid=sim-free-text-warning]')).toContain('only knows the built-in tasks');
    await page.click('[data-testid=run]');
    for (const mode of ['react', 'code'] as const)
      expect(await waitForStatus(page, mode, ['no-policy', 'answered', 'error', 'crashed'], 120_000)).toBe('no-policy');
    expect(await page.textContent('[data-testid=column-react] [data-testid=run-status]')).toContain(
      'No policy (simulated)',
    );
    const [item] = await session.host.invoke('history:list');
    expect(item!.runs.map((r) => r.status)).toEqual(['no-policy', 'no-policy']);
    await saveShot(page, 'free-text-simulated', { docs: false });
    await page.click('[data-testid=tab-charts]');
    expect(await page.locator('[data-testid=summary-table]').textContent()).not.toMatch(/Cheaper|Fewest tokens:/);
    expect(session.driven.errors).toEqual([]);
  });

  it('finds it again in the history by text, outcome and mode', async () => {
    const { page } = session.driven;
    await page.click('[data-testid=side-tab-compose]');
    await page.check('[data-testid=task-calc] input');
    await page.click('[data-testid=run]');
    for (const mode of ['react', 'code'] as const)
      expect(await waitForStatus(page, mode, ['answered', 'error', 'crashed'], 120_000)).toBe('answered');
    await page.click('[data-testid=side-tab-history]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=history-item]').length === 2);
    const shown = () =>
      page.$$eval('[data-testid=history-item] .history-title', (els) => els.map((e) => e.textContent));
    await page.fill('[data-testid=history-search]', 'haiku');
    await expect.poll(shown).toEqual(['Write a haiku about log files.']);
    // The count is the host's answer over the whole history (history:page), which follows the list shortly.
    await page.waitForFunction(
      () => document.querySelector('[data-testid=history-filter-note]')?.textContent?.includes('1 of 2 match'),
      undefined,
    );
    await page.fill('[data-testid=history-search]', '');
    await page.selectOption('[data-testid=history-filter-outcome]', 'answered');
    await expect.poll(shown).toEqual(['Arithmetic']);
    await page.selectOption('[data-testid=history-filter-mode]', 'hybrid');
    await page.waitForSelector('[data-testid=history-no-match]');
    await saveShot(page, 'history-filter-empty', { docs: false });
    await page.click('[data-testid=history-filter-note] .link-btn');
    await expect.poll(async () => (await shown()).length).toBe(2);
    await page.selectOption('[data-testid=history-filter-outcome]', 'not-answered');
    await expect.poll(shown).toEqual(['Write a haiku about log files.']);
    await saveShot(page, 'history-filter', { docs: false });
    expect(session.driven.errors).toEqual([]);
  });
});
