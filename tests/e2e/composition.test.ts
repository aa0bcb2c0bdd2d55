/**
 * The prompt-composition chart in the browser, against a real `parallax serve` (simulated model): each mode's
 * panel stacks every step's prompt tokens by part, the parts add up to the step's stored prompt tokens, and
 * the picture says why: ReAct's last request is mostly earlier results and replies, Code Mode's first is
 * mostly its catalog.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROMPT_PARTS } from '../../shared/prompt-composition.js';
import { computePerStep, groupByRun } from '../../shared/summary.js';
import { roundTicks } from '../../renderer/components/charts/chart-parts.js';
import { startAppSession, stopAppSession, type AppSession } from './app-session.js';
import { waitForStatus } from './page-helpers.js';
import { saveShot } from './screenshots.js';

describe('prompt composition chart', () => {
  let session: AppSession;

  beforeAll(async () => {
    session = await startAppSession();
  });
  afterAll(() => stopAppSession(session ?? {}));

  it('stacks each step by part, summing to the stored prompt tokens', async () => {
    const { page } = session.driven;
    await page.check('[data-testid=task-log-stats] input');
    await page.click('[data-testid=run]');
    for (const mode of ['react', 'code'] as const)
      expect(await waitForStatus(page, mode, ['answered', 'error', 'crashed'], 120_000)).toBe('answered');
    await page.click('[data-testid=tab-charts]');
    await page.waitForSelector('[data-testid=composition-chart] [data-testid=composition-bar]');

    const bars = await page.$$eval('[data-testid=composition-bar]', (els) =>
      els.map((e) => ({
        mode: e.getAttribute('data-mode')!,
        step: Number(e.getAttribute('data-step')),
        part: e.getAttribute('data-part')!,
        value: Number(e.getAttribute('data-value')),
      })),
    );
    const [item] = await session.host.invoke('history:list');
    const stored = await session.host.invoke('history:open', item!.meta.id);
    for (const [runId, events] of groupByRun(stored.events)) {
      const mode = item!.meta.runs.find((r) => r.runId === runId)!.mode;
      for (const step of computePerStep(events)) {
        const shown = bars.filter((b) => b.mode === mode && b.step === step.step);
        expect(
          shown.reduce((n, b) => n + b.value, 0),
          `${mode} step ${step.step}`,
        ).toBe(step.prompt);
        for (const b of shown) expect(b.value).toBe(step.promptComposition![b.part as (typeof PROMPT_PARTS)[number]]);
      }
    }
    // What the parts say of each mode (ReAct re-sends its results, Code Mode's first request is mostly its
    // catalog) is the engine's unit test's: tests/electron/engine/tokens/prompt-composition.test.ts.
    await page.locator('[data-testid=composition-chart]').scrollIntoViewIfNeeded();
    await page.locator('[data-testid=composition-bar][data-mode=react][data-part=toolResults]').last().hover();
    expect(await page.textContent('.chart-tooltip')).toContain('Tool results');
    await saveShot(page, 'composition-chart', { docs: false });
    expect(session.driven.errors).toEqual([]);
  });

  it('draws completion tokens in their own panel, round ticks, a log-scale toggle and the latency per step', async () => {
    const { page } = session.driven;
    const prompt = page.locator('[data-testid=per-step-prompt]');
    const completion = page.locator('[data-testid=per-step-completion]');
    expect(await prompt.locator('[data-testid=token-bar][data-kind=completion]').count()).toBe(0);
    expect(await completion.locator('[data-testid=token-bar][data-kind=completion]').count()).toBeGreaterThan(0);
    // Linear ticks are round steps from 0 up to the tallest bar (which steps: tests/renderer/charts/chart-parts.test.ts).
    const tallest = Math.max(
      ...(await prompt
        .locator('[data-testid=token-bar]')
        .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-value'))))),
    );
    expect(await prompt.getAttribute('data-ticks')).toBe(roundTicks(tallest).join(' '));

    await page.check('[data-testid=log-scale-toggle] input');
    expect(await prompt.getAttribute('data-scale')).toBe('log');
    expect(await prompt.getAttribute('data-ticks')).toMatch(/^1 10 100 1000( 10000)*$/);
    expect(await completion.getAttribute('data-scale')).toBe('log');

    const [item] = await session.host.invoke('history:list');
    const stored = await session.host.invoke('history:open', item!.meta.id);
    const latency = await page.$$eval('[data-testid=metric-bar][data-metric=latency]', (els) =>
      els.map((e) => `${e.getAttribute('data-mode')} ${e.getAttribute('data-step')} ${e.getAttribute('data-value')}`),
    );
    const expected = [...groupByRun(stored.events)].flatMap(([runId, events]) => {
      const mode = item!.meta.runs.find((r) => r.runId === runId)!.mode;
      return computePerStep(events).map((s) => `${mode} ${s.step} ${s.latencyMs}`);
    });
    expect(latency.sort()).toEqual(expected.sort());
    // No price for the simulated model: no cost chart.
    expect(await page.locator('[data-testid=cost-chart]').count()).toBe(0);
    await page.locator('[data-testid=per-step-chart]').scrollIntoViewIfNeeded();
    await saveShot(page, 'per-step-log-scale', { docs: false });
    await page.uncheck('[data-testid=log-scale-toggle] input');
    // Code Mode finished in fewer steps: its total carries forward to ReAct's last step as a faint line.
    expect(await page.locator('[data-testid=cumulative-chart] .carried-line').count()).toBe(1);
    await page.locator('[data-testid=cumulative-chart]').scrollIntoViewIfNeeded();
    await saveShot(page, 'cumulative-carried', { docs: false });
    expect(session.driven.errors).toEqual([]);
  });

  it('copies programs, outputs, answers and run ids, and wraps code on demand', async () => {
    const { page, browser } = session.driven;
    await browser.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.click('[data-testid=tab-timeline]');
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    const code = page.locator('[data-testid=column-code]').first();
    const runId = await code.getAttribute('data-run-id');
    await code.locator('[data-testid=copy-btn][data-what="run id"]').click();
    expect(await clipboard()).toBe(runId);

    const block = page.locator('[data-testid=code-block]').first();
    await block.hover();
    await block.locator('[data-testid=copy-btn]').click();
    const program = await clipboard();
    expect(program.length).toBeGreaterThan(20);
    expect(program).toBe((await block.locator('.code-line code').allTextContents()).join('\n'));
    expect(await block.locator('[data-testid=copy-btn]').textContent()).toBe('Copied');

    // The answers sit in the last row: scrolled to (the timeline renders only the rows in view).
    await page.locator('[data-testid=timeline]').evaluate((el) => (el.scrollTop = el.scrollHeight));
    const answer = page.locator('[data-testid=answer]').first();
    await answer.waitFor();
    await answer.hover();
    await answer.locator('[data-testid=copy-btn]').click();
    expect(await clipboard()).toContain('ERROR');

    // Code wraps inside the column by default (only lines too long for it wrap); unchecked, it scrolls sideways.
    const line = block.locator('.code-line code').first();
    expect(await line.evaluate((el) => getComputedStyle(el).whiteSpace)).toBe('pre-wrap');
    await saveShot(page, 'copy-and-wrap', { docs: false });
    await page.uncheck('[data-testid=wrap-code-toggle] input');
    expect(await line.evaluate((el) => getComputedStyle(el).whiteSpace)).toBe('pre');
    await page.check('[data-testid=wrap-code-toggle] input');
    expect(session.driven.errors).toEqual([]);
  });
});
