/**
 * Rounds at once in the browser against a real `parallax serve` (simulated model): the field under the trials
 * shows only with several rounds, refuses a value above the cap at the field, and a 3-trial comparison with 2
 * rounds at once records its concurrency, every run answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppSession, stopAppSession, type AppSession } from './app-session.js';
import { saveShot } from './screenshots.js';

describe('rounds at once in the composer', () => {
  let session: AppSession;
  beforeAll(async () => {
    session = await startAppSession();
  });
  afterAll(() => stopAppSession(session ?? {}));

  it('is asked for beside the trials, checked at the field, and recorded with the comparison', async () => {
    const { page } = session.driven;
    expect(await page.locator('[data-testid=concurrency-input]').count()).toBe(0); // one round: nothing to choose
    await page.fill('[data-testid=trials-input]', '3');
    await page.fill('[data-testid=concurrency-input]', '40');
    expect(await page.textContent('[data-testid=concurrency-error]')).toBe(
      'At most 16 rounds at once for the simulated model.',
    );
    await page.fill('[data-testid=concurrency-input]', '2');
    expect(await page.locator('[data-testid=concurrency-error]').count()).toBe(0);
    await page.check('[data-testid=task-calc] input');
    await page.locator('[data-testid=concurrency-input]').scrollIntoViewIfNeeded();
    await saveShot(page, 'concurrency-field', { docs: false });
    await page.click('[data-testid=run]');
    await page.waitForFunction(
      () => {
        const opts = [...document.querySelectorAll('[data-testid=trial-option][data-state]')];
        return opts.length === 3 && opts.every((o) => o.getAttribute('data-state') === 'done');
      },
      undefined,
      { timeout: 120_000, polling: 100 },
    );
    const [item] = await session.host.invoke('history:list');
    expect(item!.meta.concurrency).toBe(2);
    expect(item!.runs.map((r) => r.status)).toEqual(Array(6).fill('answered'));
    expect(session.driven.errors).toEqual([]);
  });
});
