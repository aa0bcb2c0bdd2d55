/**
 * The tabs of a finished comparison mounted ahead, in Chromium against a real `parallax serve` with the
 * simulated model: once the page has mounted them, the tabs not shown are in the page but inert, out of the
 * accessibility tree (read through CDP) and never the ones a reader of the main panel finds; another trial shown
 * mounts them again with that trial's figures; the URL hash still carries the open tab across a reload.
 */
import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComparisonMeta } from '../../shared/ipc-contract.js';
import { startAppSession, stopAppSession, type AppSession } from './app-session.js';

const SIM = { name: 'simulated', baseUrl: null, model: 'sim' } as const;
const TABS = ['timeline', 'answers', 'charts', 'waterfall'] as const;

/** Every name in the page's accessibility tree (what a screen reader can reach). */
async function axNames(cdp: CDPSession): Promise<string[]> {
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
    nodes: { ignored?: boolean; name?: { value?: string } }[];
  };
  return nodes
    .filter((n) => !n.ignored)
    .map((n) => n.name?.value ?? '')
    .filter(Boolean);
}

/** Each tab's pane; `visible`: its content is drawn (a kept pane is itself in place, its content skipped). */
const panes = (page: Page) =>
  page.$$eval('.tab-pane', (els) =>
    els.map((e) => ({
      tab: (e as HTMLElement).dataset.tab!,
      inert: (e as HTMLElement).inert,
      hidden: e.getAttribute('aria-hidden'),
      visible: !!e.firstElementChild?.checkVisibility({ visibilityProperty: true }),
    })),
  );

describe('tabs mounted ahead, against parallax serve with the simulated model', () => {
  let session: AppSession;
  let meta: ComparisonMeta;
  beforeAll(async () => {
    session = await startAppSession();
    meta = await session.host.invoke('comparison:start', {
      task: 'log-stats',
      provider: SIM,
      modes: ['react', 'code'],
      trials: 2,
    });
    for (let i = 0; i < 900; i++) {
      const item = (await session.host.invoke('history:list')).find((x) => x.meta.id === meta.id);
      if (item && item.runs.length === meta.runs.length && item.runs.every((r) => r.status !== 'running')) break;
      await new Promise((ok) => setTimeout(ok, 200));
    }
  });
  afterAll(async () => {
    await stopAppSession(session ?? {});
  });

  it('mounts every tab ahead, keeps the hidden ones out of reach, and shows any of them at once', async () => {
    const page = session.driven.page;
    const cdp = await page.context().newCDPSession(page);
    await page.click('[data-testid=side-tab-history]');
    await page.click(`[data-testid=history-item][data-id="${meta.id}"] .history-open`);
    await page.waitForSelector('.tab-pane[data-tab=timeline][data-settled]', { state: 'attached' });
    expect((await panes(page)).map((p) => p.tab).sort()).toEqual([...TABS].sort());
    for (const p of await panes(page)) {
      const shown = p.tab === 'timeline';
      expect(p, p.tab).toEqual({ tab: p.tab, inert: !shown, hidden: shown ? null : 'true', visible: shown });
    }
    // The Tokens tab is in the page with its figures, but neither a screen reader nor a click reaches it.
    expect(await page.$('.tab-pane[data-tab=charts] [data-testid=average-table] table')).not.toBeNull();
    let names = await axNames(cdp);
    expect(names).toContain('Errors only');
    expect(names).not.toContain("Waterfall: where each run's time went");
    expect(names.some((n) => n.startsWith('Average over'))).toBe(false);
    expect(await page.isVisible('[data-testid=waterfall-view]')).toBe(false);

    // Shown: the kept tab is the one visible and reachable, and the hash names it across a reload.
    await page.click('[data-testid=tab-waterfall]');
    await page.waitForFunction(() => location.hash.includes('tab=waterfall'));
    expect(await page.isVisible('[data-testid=waterfall-view]')).toBe(true);
    names = await axNames(cdp);
    expect(names).toContain("Waterfall: where each run's time went");
    expect(names).not.toContain('Errors only');
    expect((await panes(page)).filter((p) => p.visible).map((p) => p.tab)).toEqual(['waterfall']);

    // Another trial: the hidden tabs are mounted again with its runs, not the first trial's.
    await page.click('[data-testid=trial-option][data-trial="2"]');
    await page.waitForSelector('.tab-pane[data-tab=waterfall][data-settled]', { state: 'attached' });
    expect(await page.getAttribute('.tab-pane[data-tab=charts] [data-testid=charts-view]', 'data-trial')).toBe('2');
    const trial2 = meta.runs
      .filter((r) => r.trial === 2)
      .map((r) => r.runId)
      .sort();
    const timelineRuns = await page.$$eval('.tab-pane[data-tab=timeline] .column-head', (els) =>
      els.map((e) => e.getAttribute('data-run-id')!),
    );
    expect([...timelineRuns].sort()).toEqual(trial2);
    const waterfallRuns = await page.$$eval('.tab-pane[data-tab=waterfall] [data-run-id]', (els) =>
      els.map((e) => e.getAttribute('data-run-id')!),
    );
    expect([...waterfallRuns].sort()).toEqual(trial2);

    await page.reload();
    await page.waitForSelector('[data-testid=waterfall-view]');
    expect(await page.isVisible('[data-testid=waterfall-view]')).toBe(true);
    expect(await page.getAttribute('[data-testid=tab-waterfall]', 'aria-selected')).toBe('true');
    await cdp.detach();
  });
});
