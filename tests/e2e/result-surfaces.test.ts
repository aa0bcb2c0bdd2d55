/**
 * The result's surfaces beyond the first screen, in Chromium against a real `parallax serve` (simulated model):
 * a comparison cancelled in its first round (the trial bar marks the trials that never ran and stays on the one
 * that did; no figures or tests for runs that never started; its banner neutral, where no result from runs that all
 * failed wears the colour of failure), six modes at 1280 and 900 px (the header keeps its title and Export in the
 * window; column names are never cut without the full name at hand), the charts' axis titles and tooltips, a matrix
 * whose failing cell is never shaded best, and the HTML report of five trials.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComparisonMeta, StoredComparison } from '../../shared/ipc-contract.js';
import { resultStatement } from '../../shared/result-statement.js';
import { MODE_IDS, type ComparisonRequest } from '../../shared/run-spec.js';
import { groupByRun, summarizeRun } from '../../shared/summary.js';
import { auditBothThemes, describeFindings } from './a11y-audit.js';
import { startAppSession, stopAppSession, type AppSession } from './app-session.js';
import { ROOT } from './harness.js';
import { saveShot } from './screenshots.js';

const SIM = { name: 'simulated', baseUrl: null, model: 'sim' } as const;

function expected(stored: StoredComparison) {
  const byRun = groupByRun(stored.events);
  return resultStatement({
    runs: stored.meta.runs.map((r) => ({ trial: r.trial ?? 1, summary: summarizeRun(byRun.get(r.runId) ?? []) })),
    simulated: true,
  });
}

describe('the result across surfaces', { timeout: 600_000 }, () => {
  let session: AppSession;
  beforeAll(async () => {
    session = await startAppSession();
  });
  afterAll(() => stopAppSession(session ?? {}));

  async function finished(id: string): Promise<StoredComparison> {
    for (let i = 0; i < 1200; i++) {
      const stored = await session.host.invoke('history:open', id);
      if (stored.meta.runs.every((r) => stored.events.some((e) => e.runId === r.runId && e.type === 'run-finished')))
        return stored;
      await new Promise((ok) => setTimeout(ok, 250));
    }
    throw new Error(`comparison ${id} did not finish`);
  }

  async function runToEnd(request: ComparisonRequest): Promise<{ meta: ComparisonMeta; stored: StoredComparison }> {
    const meta = await session.host.invoke('comparison:start', request);
    return { meta, stored: await finished(meta.id) };
  }

  /** Opens a comparison on a tab through its address, as a bookmark would. */
  async function open(id: string, tab: 'timeline' | 'answers' | 'charts') {
    const { page } = session.driven;
    await page.evaluate(
      (h) => {
        location.hash = h;
      },
      `#/comparison/${id}${tab === 'timeline' ? '' : `?tab=${tab}`}`,
    );
    await page.reload();
    await page.waitForSelector('[data-testid=result-banner]');
    await page.waitForSelector(
      tab === 'timeline'
        ? '[data-testid=step-row]'
        : tab === 'charts'
          ? '[data-testid=per-step-chart], [data-testid=average-table]'
          : '[data-testid=answer-diff]',
    );
  }

  /** The header: the title readable (not cut to an ellipsis), every control inside the window. */
  async function headerFits() {
    return session.driven.page.evaluate(() => {
      const h1 = document.querySelector<HTMLElement>('.toolbar-title h1')!;
      const width = document.documentElement.clientWidth;
      const out = [...document.querySelectorAll<HTMLElement>('.toolbar button, .toolbar label, .toolbar-meta > *')]
        .filter((e) => e.getBoundingClientRect().width > 0)
        .filter((e) => e.getBoundingClientRect().right > width + 0.5 || e.getBoundingClientRect().left < -0.5)
        .map((e) => e.textContent?.trim() ?? e.className);
      const meta = document.querySelector<HTMLElement>('.toolbar-meta')!;
      return { titleCut: h1.scrollWidth > h1.clientWidth + 1, metaCut: meta.scrollWidth > meta.clientWidth + 1, out };
    });
  }

  it('a comparison cancelled in its first round: the trial bar stays on the trial that ran and marks the others, with no figures or tests for them', async () => {
    const { page } = session.driven;
    await page.click('[data-testid=side-tab-compose]');
    await page.check('[data-testid=task-log-stats] input');
    await page.fill('[data-testid=trials-input]', '3');
    if (!(await page.isVisible('[data-testid=fault-hang] input'))) await page.click('[data-testid=advanced-toggle]');
    await page.check('[data-testid=fault-hang] input');
    const before = new Set((await session.host.invoke('history:list')).map((i) => i.meta.id));
    await page.click('[data-testid=run]');
    let id: string | undefined;
    for (let i = 0; !id && i < 400; i++) {
      id = (await session.host.invoke('history:list')).map((x) => x.meta.id).find((x) => !before.has(x));
      if (!id) await page.waitForTimeout(250);
    }
    // Cancel once every run of round 1 sent its (hanging) first request.
    for (let i = 0; i < 400; i++) {
      const s = await session.host.invoke('history:open', id!);
      const first = s.meta.runs.filter((r) => r.trial === 1);
      if (first.every((r) => s.events.some((e) => e.runId === r.runId && e.type === 'model-request'))) break;
      await page.waitForTimeout(250);
    }
    await page.click('[data-testid=toolbar-cancel]');
    const stored = await finished(id!);
    await page.waitForSelector('[data-testid=trial-status]:has-text("Cancelled: 1 of 3 trials ran")');
    // Live, the view ends on the last trial that ran — trial 1 — not on trial 3, which never ran.
    expect(await page.getAttribute('[data-testid=trial-option][aria-checked=true]', 'data-trial')).toBe('1');
    expect(
      await page.$$eval('[data-testid=trial-option]', (els) => els.map((e) => e.getAttribute('data-state'))),
    ).toEqual(['done', 'never-ran', 'never-ran', null]);
    expect(await page.getAttribute('[data-testid=trial-option][data-trial="2"]', 'aria-label')).toBe(
      'Trial 2, never ran',
    );
    const s = expected(stored);
    expect(s.outcome).toBe('none');
    expect(await page.textContent('[data-testid=result-headline]')).toContain(s.headline);
    // A cancel is said in neutral words, never in the colour of failure.
    expect(s.notes).toContain(
      'Cancelled after 1 of 3 trials: the other 2 trials never started, so no figure counts them.',
    );
    expect(s.leftOut).toEqual([]);
    if ((await page.getAttribute('[data-testid=result-toggle]', 'aria-expanded')) !== 'true')
      await page.click('[data-testid=result-toggle]');
    expect(await page.locator('[data-testid=result-notes] li').allTextContents()).toEqual([...s.notes]);
    expect(await page.locator('[data-testid=result-left-out]').count()).toBe(0);
    const colours = await page.$$eval('[data-testid=result-notes] li', (els) =>
      els.map((e) => getComputedStyle(e).color),
    );
    const errColour = await page.evaluate(() => {
      const p = document.createElement('p');
      p.style.color = 'var(--err)';
      document.body.append(p);
      const c = getComputedStyle(p).color;
      p.remove();
      return c;
    });
    for (const c of colours) expect(c).not.toBe(errColour);
    // Nor is the banner: no run failed, the cancel stopped them. Its edge and its "No result" are neutral.
    const look = () =>
      page.$eval('[data-testid=result-banner]', (e) => ({
        edge: getComputedStyle(e).borderLeftColor,
        tag: getComputedStyle(e.querySelector('.result-tag')!).color,
        text: e.querySelector('.result-tag')!.textContent,
      }));
    const cancelled = await look();
    expect(cancelled.text).toBe('No result');
    expect(cancelled.edge).not.toBe(errColour);
    expect(cancelled.tag).not.toBe(errColour);
    await saveShot(page, 'cancelled-comparison');
    const found = await auditBothThemes(page, 'a cancelled comparison');
    expect(found.length === 0 ? '' : describeFindings(found)).toBe('');
    await page.click('[data-testid=result-toggle]');
    // The averages count the round that ran; no interval or test is made of runs that never started.
    await page.click('[data-testid=tab-charts]');
    await page.waitForSelector('[data-testid=average-table]');
    for (const mode of ['react', 'code']) {
      const cell = page.locator(`[data-testid=avg-answered-${mode}]`);
      expect([
        await cell.getAttribute('data-value'),
        await cell.getAttribute('data-of'),
        await cell.getAttribute('data-never'),
      ]).toEqual(['0', '1', '2']);
      expect(await page.getAttribute(`[data-testid=avg-passed-${mode}]`, 'data-of')).toBe('1');
    }
    const table = (await page.textContent('[data-testid=average-table]'))!;
    expect(table).not.toMatch(/p = |permutation|of 3/);
    await saveShot(page, 'cancelled-comparison-averages', { docs: false });
    await page.uncheck('[data-testid=fault-hang] input');
    await page.fill('[data-testid=trials-input]', '1');
    // No result because every run failed (each hit its step limit) is said in the colour of failure.
    const { meta: failing, stored: failed } = await runToEnd({
      task: 'log-stats',
      provider: SIM,
      modes: ['react', 'code'],
      settings: { simFaults: ['loop-forever'], maxSteps: 2 },
    });
    expect(expected(failed)).toMatchObject({ outcome: 'none', leftOut: [expect.any(String), expect.any(String)] });
    await open(failing.id, 'timeline');
    expect(await look()).toEqual({ edge: errColour, tag: errColour, text: 'No result' });
    expect(session.driven.errors).toEqual([]);
  });

  it('six modes at 1280 and 900 px: the header keeps its title and controls in the window; column names are whole or at hand', async () => {
    const { page } = session.driven;
    const { meta } = await runToEnd({ task: 'log-stats', provider: SIM, modes: [...MODE_IDS] });
    for (const width of [1280, 900]) {
      await page.setViewportSize({ width, height: 800 });
      for (const tab of ['timeline', 'answers', 'charts'] as const) {
        await open(meta.id, tab);
        // Polled: after a resize the side panel folds and the toolbar wraps in later frames, which a loaded machine
        // draws late; the header must fit once the layout has settled.
        await expect
          .poll(headerFits, { message: `${tab} at ${width} px` })
          .toEqual({ titleCut: false, metaCut: false, out: [] });
        if (tab !== 'answers')
          await saveShot(page, `six-modes-${width}-${tab}`, { docs: tab === 'timeline' || width === 900 });
      }
      // Every column name is whole, or its head carries the full name.
      await open(meta.id, 'timeline');
      const heads = await page.$$eval('.column-head h3', (els) =>
        els.map((e) => ({
          text: e.textContent,
          cut: e.scrollWidth > e.clientWidth + 1,
          title: e.getAttribute('title') ?? e.closest('[title]')?.getAttribute('title') ?? null,
        })),
      );
      expect(heads).toHaveLength(6);
      for (const h of heads) if (h.cut) expect(h.title, `${h.text} at ${width} px`).toContain(h.text);
      if (width !== 900) continue;
      // 900 px: the side panel folded by itself, three columns whole in view, and no number in an answer's table
      // broken over two lines (a table too wide scrolls in its cell instead).
      // Polled, as the header: the panel folds and the columns settle in frames after the resize.
      await expect.poll(() => page.isHidden('[data-testid=side-panel]')).toBe(true);
      const whole = () =>
        page.evaluate(() => {
          const tl = document.querySelector('[data-testid=timeline]')!.getBoundingClientRect();
          return [...document.querySelectorAll('.timeline-head .column-head')].filter((c) => {
            const b = c.getBoundingClientRect();
            return b.left >= tl.left - 1 && b.right <= tl.right + 1;
          }).length;
        });
      await expect.poll(whole).toBeGreaterThanOrEqual(3);
      const answers = page.locator('[data-testid=answer-md]');
      // The answers' Markdown is drawn after the timeline's rows (on a loaded machine, well after): wait until their
      // tables hold numbers before measuring them.
      const numberCells = () =>
        page.$$eval(
          '[data-testid=answer-md] td',
          (tds) => tds.filter((td) => /^\d[\d,.]*$/.test(td.textContent!.trim())).length,
        );
      await expect.poll(numberCells, { message: "the answers' tables drawn" }).toBeGreaterThan(0);
      let cells = 0;
      for (let i = 0; i < (await answers.count()); i++) {
        await answers.nth(i).scrollIntoViewIfNeeded();
        const measure = () =>
          answers.nth(i).evaluate((md) =>
            [...md.querySelectorAll('td')]
              .filter((td) => /^\d[\d,.]*$/.test(td.textContent!.trim()))
              .map((td) => {
                const r = document.createRange();
                r.selectNodeContents(td);
                return {
                  text: td.textContent,
                  lines: new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size,
                };
              }),
          );
        // A cell scrolled into view is laid out in a later frame (content-visibility): wait until every number has
        // its line boxes, then each must sit on one line.
        await expect
          .poll(async () => (await measure()).filter((l) => l.lines === 0).length, {
            message: `answer ${i + 1} laid out`,
          })
          .toBe(0);
        const lines = await measure();
        cells += lines.length;
        for (const l of lines) expect(l.lines, `"${l.text}" in answer ${i + 1}`).toBe(1);
      }
      expect(cells).toBeGreaterThan(0);
      await saveShot(page, 'six-modes-900-answers-in-timeline', { docs: false });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(session.driven.errors).toEqual([]);
  });

  it('the charts name both axes and fit their titles; a tooltip lists every column, prompt and completion, marked simulated', async () => {
    const { page } = session.driven;
    const [latest] = await session.host.invoke('history:list');
    await open(latest!.meta.id, 'charts');
    // The charts below the first screen are drawn after it.
    await page.waitForSelector('[data-testid=charts-view]:not([aria-busy]) [data-testid=latency-chart]');
    const labels = await page.$$eval('[data-testid$=-chart] .recharts-label', (els) =>
      els.map((e) => {
        const svg = e.closest('svg')!.getBoundingClientRect();
        const b = e.getBoundingClientRect();
        const chart = e.closest('[data-testid$=-chart]')!.getAttribute('data-testid');
        return {
          chart,
          text: e.textContent,
          inside:
            b.top >= svg.top - 0.5 &&
            b.bottom <= svg.bottom + 0.5 &&
            b.left >= svg.left - 0.5 &&
            b.right <= svg.right + 0.5,
        };
      }),
    );
    const of = (chart: string) =>
      labels
        .filter((l) => l.chart === chart)
        .map((l) => l.text)
        .sort();
    expect(of('per-step-chart')).toEqual(['completion tokens', 'prompt tokens', 'step', 'step']);
    expect(of('cumulative-chart')).toEqual(['step', 'tokens so far']);
    expect(of('latency-chart')).toEqual(['latency', 'step']);
    for (const l of labels) expect(l.inside, `${l.chart}: "${l.text}" inside its chart`).toBe(true);
    // No axis title meets a tick label or another title, in a wide window or a narrow one.
    for (const width of [1280, 900]) {
      await page.setViewportSize({ width, height: 800 });
      await page.waitForFunction((w) => document.documentElement.clientWidth === w, width);
      const overlaps = await page.$$eval('[data-testid$=-chart] svg.recharts-surface', (svgs) =>
        svgs.flatMap((svg) => {
          const texts = [...svg.querySelectorAll('.recharts-label, .recharts-cartesian-axis-tick-value')];
          const boxes = texts.map((t) => ({
            text: t.textContent,
            label: t.classList.contains('recharts-label'),
            b: t.getBoundingClientRect(),
          }));
          return boxes.flatMap((a, i) =>
            boxes
              .slice(i + 1)
              .filter(
                (o) =>
                  (a.label || o.label) &&
                  a.b.left < o.b.right &&
                  o.b.left < a.b.right &&
                  a.b.top < o.b.bottom &&
                  o.b.top < a.b.bottom,
              )
              .map((o) => `${a.text} × ${o.text}`),
          );
        }),
      );
      expect(overlaps, `at ${width} px`).toEqual([]);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    // The latency axis says its unit once: in the ticks.
    const ticks = await page.$$eval(
      '[data-testid=latency-chart] .recharts-yAxis .recharts-cartesian-axis-tick-value',
      (els) => els.map((e) => e.textContent),
    );
    expect(ticks.every((t) => /^\d[\d.,]* (ms|s)$/.test(t ?? ''))).toBe(true);
    // Hover a prompt bar of step 2: the tooltip has both figures of every column there.
    const bar = page.locator('[data-testid=per-step-prompt] [data-testid=token-bar][data-step="2"]').first();
    await bar.hover();
    const tip = page.locator('[data-testid=step-tooltip]');
    await tip.waitFor();
    expect(await tip.locator('.chart-tooltip-title').textContent()).toBe('Step 2 · simulated');
    const rows = await tip
      .locator('.chart-tooltip-row[data-mode]')
      .evaluateAll((els) =>
        els.map((e) => [e.getAttribute('data-mode'), ...[...e.querySelectorAll('.num')].map((n) => n.textContent)]),
      );
    const stepTwo = await page.$$eval('[data-testid=token-bar][data-step="2"]', (els) =>
      els.map((e) => [e.getAttribute('data-mode'), e.getAttribute('data-kind'), Number(e.getAttribute('data-value'))]),
    );
    expect(rows.length).toBeGreaterThanOrEqual(5);
    for (const [mode, prompt, completion] of rows) {
      expect(Number(prompt!.replace(/,/g, ''))).toBe(stepTwo.find(([m, k]) => m === mode && k === 'prompt')![2]);
      expect(Number(completion!.replace(/,/g, ''))).toBe(
        stepTwo.find(([m, k]) => m === mode && k === 'completion')![2],
      );
    }
    await saveShot(page, 'step-tooltip', { docs: false });
    // The cumulative chart's tooltip: one row per line at that step.
    const surface = page.locator('[data-testid=cumulative-chart] .recharts-surface');
    await surface.scrollIntoViewIfNeeded();
    const box = (await surface.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
    const cum = page.locator('[data-testid=cumulative-chart] .chart-tooltip');
    await cum.waitFor();
    expect(await cum.locator('.chart-tooltip-title').textContent()).toMatch(/^Step \d+ · simulated$/);
    expect(await cum.locator('.chart-tooltip-row').count()).toBe(6);
    expect(session.driven.errors).toEqual([]);
  });

  it('models × modes: a cell where no run passed is marked so and never shaded best', async () => {
    const { page } = session.driven;
    const { meta } = await runToEnd({
      task: 'log-stats',
      provider: SIM,
      modes: ['react', 'code'],
      variants: [
        { mode: 'react', model: 'sim-careful' },
        { mode: 'code', model: 'sim-careful' },
        { mode: 'react', model: 'sim-hasty' },
        { mode: 'code', model: 'sim-hasty' },
      ],
    });
    await open(meta.id, 'charts');
    await page.waitForSelector('[data-testid=matrix-view]');
    const cells = await page.$$eval('[data-testid=matrix-view] button[data-testid=matrix-cell]', (els) =>
      els.map((e) => ({
        row: e.getAttribute('data-row'),
        mode: e.getAttribute('data-mode'),
        failing: e.getAttribute('data-failing') === 'true',
        value: Number(e.getAttribute('data-value')),
        bg: getComputedStyle(e).backgroundColor,
      })),
    );
    const failing = cells.filter((c) => c.failing);
    expect(failing.map((c) => [c.row, c.mode])).toEqual([['sim-hasty', 'code']]);
    // It used the fewest tokens, yet its shade is no ranked cell's.
    expect(failing[0]!.value).toBe(Math.min(...cells.map((c) => c.value)));
    const best = cells.filter((c) => !c.failing).sort((a, b) => a.value - b.value)[0]!;
    expect(failing[0]!.bg).not.toBe(best.bg);
    expect(await page.locator('[data-testid=matrix-view] .is-failing').textContent()).toContain(
      'none passed: not ranked',
    );
    await page.locator('[data-testid=matrix-view]').scrollIntoViewIfNeeded();
    await saveShot(page, 'matrix-failing-cell');
    expect(session.driven.errors).toEqual([]);
  });

  it('the HTML report of five trials opens with the result and the averages, its per-step charts open, every figure marked simulated', async () => {
    const { page } = session.driven;
    const { meta, stored } = await runToEnd({ task: 'log-stats', provider: SIM, modes: ['react', 'code'], trials: 5 });
    // The app's advice after five trials: ten (the most), never the five it already ran; none once it is clear.
    const s = expected(stored);
    expect(s.suggestTrials).toBe(s.outcome === 'won' ? null : 10);
    await open(meta.id, 'charts');
    if (s.suggestTrials === null) expect(await page.locator('[data-testid=offer-trials]').count()).toBe(0);
    else {
      expect(await page.textContent('[data-testid=offer-trials]')).toBe('Set up 10 trials');
      await page.click('[data-testid=offer-trials]');
      expect(await page.inputValue('[data-testid=trials-input]')).toBe('10');
      await page.fill('[data-testid=trials-input]', '1');
    }
    const exported = await session.host.invoke('report:export', meta.id, 'html');
    expect(exported.status).toBe('download');
    if (exported.status !== 'download') return;
    const file = join(ROOT, 'test-results', 'e2e', 'report-five-trials.html');
    writeFileSync(file, exported.content);
    const report = await page.context().newPage();
    try {
      await report.setViewportSize({ width: 1280, height: 800 });
      await report.goto(`file://${file}`);
      const order = await report.$$eval('main > section, body > section, section[id]', (els) =>
        els.map((e) => e.id || e.className),
      );
      expect(order.indexOf('result')).toBe(0);
      expect(order.indexOf('average')).toBe(1);
      const top = await report.$eval('#average', (e) => e.getBoundingClientRect().top + window.scrollY);
      expect(top).toBeLessThan(1600);
      expect(await report.textContent('#result')).toContain(expected(stored).headline);
      expect(await report.textContent('#result')).not.toContain('Run more trials (up to 10)');
      expect(
        await report.$$eval(
          'details.charts-trial',
          (els) => els.length > 0 && els.every((e) => (e as HTMLDetailsElement).open),
        ),
      ).toBe(true);
      expect(await report.textContent('#result h2')).toBe('Result (simulated)');
      expect(await report.textContent('#average')).toContain('(simulated)');
      await saveShot(report, 'report-five-trials');
    } finally {
      await report.close();
    }
    expect(session.driven.errors).toEqual([]);
  });
});
