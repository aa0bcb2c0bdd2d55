/**
 * The History view with a long history, in Chromium against a real `parallax serve`: it asks the host for a page
 * at a time (history:page, never history:list), loads the next page when the list's end scrolls into view, and
 * searches the whole history on the host (a comparison far beyond the loaded pages is found).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../helpers/history-seed.js';
import { startAppSession, stopAppSession } from './app-session.js';
import type { Driven, Served } from './harness.js';
import type { HostClient } from './host-client.js';
import { saveShot } from './screenshots.js';

const STORED = 240;

describe('the History view pages through a long history', () => {
  let served: Served;
  let driven: Driven;
  let host: HostClient;

  beforeAll(async () => {
    ({ served, driven, host } = await startAppSession());
  });

  afterAll(() => stopAppSession({ served, driven, host }));

  it('shows the first page, loads the next as the end scrolls into view, and searches beyond the loaded pages', async () => {
    const { page, errors } = driven;
    const sent: string[] = [];
    const received: number[] = [];
    page.on('websocket', (ws) => {
      ws.on('framesent', (f) => sent.push(String(f.payload)));
      ws.on('framereceived', (f) =>
        received.push(typeof f.payload === 'string' ? Buffer.byteLength(f.payload) : f.payload.length),
      );
    });
    // The socket the page opened at start-up is not seen above: reload so the page's traffic is recorded.
    generate(served.dataDir, STORED);
    await page.reload();
    await page.waitForSelector('[data-testid=connection-status]:has-text("Web host")');
    await page.click('[data-testid=side-tab-history]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=history-item]').length > 0);

    const ids = () => page.$$eval('[data-testid=history-item]', (els) => els.map((e) => e.getAttribute('data-id')));
    const newest = Array.from({ length: STORED }, (_, i) => `cmp-${String(STORED - 1 - i).padStart(6, '0')}`);
    expect(await ids()).toEqual(newest.slice(0, 50));
    expect(await page.textContent('[data-testid=history] .panel-subhead')).toContain(`${STORED} comparisons`);
    expect(await page.textContent('[data-testid=history-shown]')).toBe(`50 of ${STORED} shown`);
    expect(await page.textContent('[data-testid=side-tab-history]')).toContain(String(STORED));
    await saveShot(page, 'history-paging-first', { docs: false });

    // Scrolled to the end: the next page comes, in order, without repeats.
    await page.locator('[data-testid=history-more]').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=history-item]').length >= 100);
    expect((await ids()).slice(0, 100)).toEqual(newest.slice(0, 100));

    // A comparison far beyond the loaded pages is found by the host's search.
    const oldest = newest.at(-1)!;
    await page.fill('[data-testid=history-search]', oldest);
    await page.waitForFunction((id) => {
      const items = [...document.querySelectorAll('[data-testid=history-item]')];
      return items.length === 1 && items[0]!.getAttribute('data-id') === id;
    }, oldest);
    expect(await page.textContent('[data-testid=history-filter-note]')).toContain(`1 of ${STORED} match`);
    expect(await page.$('[data-testid=history-more]')).toBeNull();
    await saveShot(page, 'history-paging-search', { docs: false });
    // It opens like any other.
    await page.click(`[data-testid=history-item][data-id="${oldest}"] .history-open`);
    await page.waitForSelector('[data-testid=result-cell][data-status=answered]');

    const channels = sent.map((s) => (JSON.parse(s) as { channel?: string }).channel);
    expect(channels).toContain('history:page');
    expect(channels).not.toContain('history:list');
    // No message carried the whole history: the largest is a page, far under the 100 KB goal.
    expect(Math.max(...received)).toBeLessThan(100 * 1024);
    const whole = Buffer.byteLength(JSON.stringify(await host.invoke('history:list')));
    expect(whole).toBeGreaterThan(Math.max(...received) * 3);
    expect(errors).toEqual([]);
  });
});
