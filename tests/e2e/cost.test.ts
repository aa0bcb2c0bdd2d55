/**
 * Cost and estimated usage in the app, in Debian Chromium against a real `parallax serve`: a comparison stored
 * in its data folder whose Code Mode usage was estimated (the provider sent none) shows "≈" and its cost in
 * the summary, the step cards, the result cells and the chart tooltips; the price editor changes the table on
 * disk and refuses a bad price at the field; a live run against a loopback "paid" provider is costed at the
 * price it recorded.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupByRun, summarizeRun } from '../../shared/summary.js';
import { parsePriceTable } from '../../shared/pricing.js';
import { startSimServer, type SimServer } from '../../electron/sim/index.js';
import { estimatedComparison, storeComparison } from '../helpers/cost-runs.js';
import { startProviderProxy, type ProviderProxy } from '../helpers/provider-proxy.js';
import { startAppSession, stopAppSession } from './app-session.js';
import type { Driven, Served } from './harness.js';
import type { HostClient } from './host-client.js';
import { waitForStatus } from './page-helpers.js';
import { saveShot } from './screenshots.js';
import { elementShot } from '../helpers/element-shot.js';

const stored = estimatedComparison('20261201-120000-e2ec0571');
const [reactId, codeId] = stored.meta.runs.map((r) => r.runId);

describe('cost and estimated usage in the app', () => {
  let served: Served;
  let driven: Driven;
  let host: HostClient;
  let sim: SimServer;
  let proxy: ProviderProxy;

  beforeAll(async () => {
    ({ served, driven, host } = await startAppSession());
    await storeComparison(served.dataDir, stored);
    sim = await startSimServer();
    proxy = await startProviderProxy(sim.url);
  });

  afterAll(async () => {
    await stopAppSession({ served, driven, host });
    await proxy?.close();
    await sim?.close();
  });

  it('shows the stored comparison\'s costs, "≈" on estimated figures and the cheapest run in the summary', async () => {
    const { page } = driven;
    await page.click('[data-testid=side-tab-history]');
    await page.click(`[data-testid=history-item][data-id="${stored.meta.id}"] .history-open`);
    await page.waitForSelector(`[data-testid=step-card][data-run-id="${codeId}"]`);
    await page.click('[data-testid=tab-charts]');
    const summary = page.locator('[data-testid=summary-table]');
    await summary.waitFor();
    // The words and figures of these cells for this comparison are the unit test's
    // (tests/renderer/summary/cost-parts.test.tsx); here, that the page shows them for the stored
    // comparison it opened, and that the ranking's buttons reach it.
    const expected = new Map([...groupByRun(stored.events)].map(([id, events]) => [id, summarizeRun(events)]));
    expect(Number(await summary.locator('[data-testid=sum-cost-react]').getAttribute('data-value'))).toBe(
      expected.get(reactId)!.cost.usd,
    );
    expect(await summary.locator('[data-testid=sum-cost-code]').innerText()).toBe('≈ $0.000456');
    expect(await page.locator('[data-testid=verdict-cost]').innerText()).toBe(
      'Cheapest: Code Mode — ≈ $0.000456 (≈ estimated)',
    );
    expect(await page.locator('[data-testid=ranking]').getAttribute('data-by')).toBe('cost');
    expect(
      await page.locator('[data-testid=rank-item]').evaluateAll((els) => els.map((e) => e.getAttribute('data-run-id'))),
    ).toEqual([codeId, reactId]);
    await page.click('[data-testid=rank-by-tokens]');
    expect(await page.locator('[data-testid=ranking]').getAttribute('data-by')).toBe('tokens');
    expect(await page.locator('[data-testid=rank-item]').nth(0).innerText()).toContain('≈ 960 tokens');
    await summary.scrollIntoViewIfNeeded();
    await elementShot(summary, join(await shotDir(), 'cost-summary-app.png'));
    expect(driven.errors).toEqual([]);
  });

  it('marks the estimated step in the chart tooltip', async () => {
    const { page } = driven;
    const bar = page.locator('[data-testid=token-bar][data-mode=code][data-step="1"][data-kind=prompt]');
    await bar.hover();
    const tip = page.locator('.chart-tooltip');
    await tip.waitFor();
    expect(await tip.innerText()).toContain('≈ 900');
    expect(await tip.innerText()).toContain('≈ estimated: the provider sent no usage');
    await saveShot(page, 'cost-tooltip', { docs: false });
  });

  it('shows each step\'s cost and "≈" on the step cards, and the run\'s cost in its result cell', async () => {
    const { page } = driven;
    await page.click('[data-testid=tab-timeline]');
    const codeCard = page.locator(`[data-testid=step-card][data-run-id="${codeId}"][data-step="1"]`);
    expect(await codeCard.locator('[data-testid=step-usage]').getAttribute('data-usage-source')).toBe('estimated');
    // The cells have content-visibility: auto, so a card's text is laid out only in the frame after the pane
    // shows; under load that frame can come after the click returns.
    await expect
      .poll(() => codeCard.locator('[data-testid=step-usage]').innerText())
      .toMatch(/in\s*≈ 900\s+out\s*≈ 60/);
    expect(await codeCard.locator('[data-testid=step-cost]').innerText()).toBe('≈ $0.000456');
    expect(await page.locator('[data-testid=column-code] [data-testid=col-cost]').innerText()).toBe('≈ $0.000456');
    expect(await page.locator('[data-testid=column-react] [data-testid=col-cost]').innerText()).toBe('$0.00109');
    const reactCard = page.locator(`[data-testid=step-card][data-run-id="${reactId}"][data-step="2"]`);
    expect(await reactCard.locator('[data-testid=step-cost]').innerText()).toBe('$0.000728');
    expect(
      await page
        .locator(`[data-testid=column-code] ~ * [data-testid=result-cost], [data-testid=result-cost]`)
        .allInnerTexts(),
    ).toEqual(['$0.00109', '≈ $0.000456']);
    await saveShot(page, 'cost-timeline', { docs: false });
  });

  it('edits a price in the price editor: refuses a bad one at the form, saves a good one to the data folder', async () => {
    const { page } = driven;
    await page.click('[data-testid=side-tab-compose]');
    await page.selectOption('[data-testid=provider-select]', 'openai');
    await page.fill('[data-testid=model-input]', 'gpt-4.1-mini');
    await expect(page.locator('[data-testid=model-price]').innerText()).resolves.toBe(
      'Price: $0.40 in · $0.10 cached · $1.60 out per 1M tokens, prices of 2026-12-01 · Edit prices',
    );
    await page.fill('[data-testid=model-input]', 'house-7b');
    await expect(page.locator('[data-testid=model-price]').getAttribute('data-kind')).resolves.toBe('unknown');
    await page.click('[data-testid=edit-prices]');
    const editor = page.locator('[data-testid=price-editor]');
    await editor.waitFor();
    expect(await page.inputValue('[data-testid=price-model]')).toBe('house-7b');
    expect(await editor.locator('[data-testid=price-table-date]').innerText()).toContain('prices of 2026-12-01');
    await page.fill('[data-testid=price-input]', '-1');
    await page.fill('[data-testid=price-output]', '0.6');
    await page.click('[data-testid=price-save]');
    await expect(page.locator('[data-testid=price-error]').innerText()).resolves.toContain('input: cannot be negative');
    await page.fill('[data-testid=price-input]', '0.2');
    await page.fill('[data-testid=price-cachedInput]', '0.05');
    await page.click('[data-testid=price-save]');
    await page.waitForSelector('[data-testid=price-row][data-model="house-7b"]');
    expect(await page.locator('[data-testid=price-error]').count()).toBe(0);
    const table = parsePriceTable(JSON.parse(await readFile(join(served.dataDir, 'prices.json'), 'utf8')));
    expect(table.models.find((m) => m.model === 'house-7b')).toMatchObject({
      input: 0.2,
      cachedInput: 0.05,
      cacheWrite: null,
      output: 0.6,
    });
    await page.fill('[data-testid=price-filter]', 'house');
    expect(await page.locator('[data-testid=price-row]').count()).toBe(1);
    await saveShot(page, 'price-editor', { docs: false });
    await page.keyboard.press('Escape');
    await editor.waitFor({ state: 'detached' });
    await expect(page.locator('[data-testid=model-price]').innerText()).resolves.toMatch(
      /^Price: \$0\.20 in · \$0\.05 cached · \$0\.60 out per 1M tokens, set \d{4}-\d{2}-\d{2}/,
    );
    expect(driven.errors).toEqual([]);
  });

  it('costs a live run against a priced provider at the price it recorded', async () => {
    const { page } = driven;
    await page.selectOption('[data-testid=provider-select]', 'custom');
    await page.fill('[data-testid=base-url]', proxy.url);
    await page.fill('[data-testid=model-input]', 'house-7b');
    await page.check('[data-testid=task-calc] input');
    await page.click('[data-testid=run]');
    // The columns switch to the new comparison's runs before their statuses mean anything.
    await page.waitForFunction((old) => {
      const id = document.querySelector('[data-testid=column-react]')?.getAttribute('data-run-id');
      return !!id && id !== old;
    }, reactId);
    for (const mode of ['react', 'code'] as const)
      expect(await waitForStatus(page, mode, ['answered', 'error', 'crashed', 'max-steps'], 90_000)).toBe('answered');
    const list = await host.invoke('history:list');
    const live = list.find((i) => i.meta.id !== stored.meta.id)!;
    const events = (await host.invoke('history:open', live.meta.id)).events;
    const runs = [...groupByRun(events).values()].map(summarizeRun);
    for (const r of runs)
      expect(r.cost.price).toMatchObject({ model: 'house-7b', input: 0.2, output: 0.6, cachedInput: 0.05 });
    const costs = await page
      .locator('[data-testid=result-cost]')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-value'))));
    expect(costs).toEqual(runs.map((r) => r.cost.usd));
    await page.click('[data-testid=tab-charts]');
    expect(await page.locator('[data-testid=verdict-cost]').innerText()).toMatch(
      /^Cheapest: (ReAct|Code Mode) — \$0\.0\d+$/,
    );
    await saveShot(page, 'cost-live-charts', { docs: false });
    expect(driven.errors).toEqual([]);
  });
});

async function shotDir(): Promise<string> {
  const { mkdir } = await import('node:fs/promises');
  const { ROOT } = await import('./harness.js');
  const dir = join(ROOT, 'test-results', 'e2e');
  await mkdir(dir, { recursive: true });
  return dir;
}
