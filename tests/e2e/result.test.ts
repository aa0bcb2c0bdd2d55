/**
 * The result on the first screen, in Chromium against a real `parallax serve` (simulated model): the statement
 * computed by shared/result-statement.ts from the stored events opens every tab of a finished comparison; with
 * `sim-hasty` Code Mode's wrong answer reads as a failure in its column head, the Answers tab, the summary's
 * verdict and the history, and the result names who passed and why Code Mode was left out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredComparison } from '../../shared/ipc-contract.js';
import { resultStatement } from '../../shared/result-statement.js';
import { groupByRun, summarizeRun } from '../../shared/summary.js';
import { startAppSession, stopAppSession, type AppSession } from './app-session.js';
import { waitForStatus } from './page-helpers.js';
import { saveShot } from './screenshots.js';

/** The statement the stored comparison gives, computed here from its events as every surface does. */
function expected(stored: StoredComparison) {
  const byRun = groupByRun(stored.events);
  return resultStatement({
    runs: stored.meta.runs.map((r) => ({ trial: r.trial ?? 1, summary: summarizeRun(byRun.get(r.runId) ?? []) })),
    simulated: true,
  });
}

describe('the result on the first screen', () => {
  let session: AppSession;

  beforeAll(async () => {
    session = await startAppSession();
  });
  afterAll(() => stopAppSession(session ?? {}));

  async function run(task: string, model: string): Promise<StoredComparison> {
    const { page } = session.driven;
    await page.click('[data-testid=side-tab-compose]');
    await page.check(`[data-testid=task-${task}] input`);
    await page.fill('[data-testid=model-input]', model);
    const before = new Set((await session.host.invoke('history:list')).map((i) => i.meta.id));
    await page.click('[data-testid=run]');
    // The new comparison's id, then its runs' ends (the columns of the one before it show ended runs too).
    let id: string | undefined;
    for (let i = 0; !id && i < 600; i++) {
      id = (await session.host.invoke('history:list')).map((x) => x.meta.id).find((x) => !before.has(x));
      if (!id) await page.waitForTimeout(250);
    }
    for (let i = 0; i < 600; i++) {
      const stored = await session.host.invoke('history:open', id!);
      if (stored.meta.runs.every((r) => stored.events.some((e) => e.runId === r.runId && e.type === 'run-finished')))
        break;
      await page.waitForTimeout(250);
    }
    for (const mode of ['react', 'code'] as const)
      await waitForStatus(page, mode, ['answered', 'max-steps', 'error', 'crashed'], 150_000);
    await page.waitForSelector('[data-testid=result-banner]');
    return session.host.invoke('history:open', id!);
  }

  it('opens every tab of a finished comparison with the statement in one short line, its reasons one click away, and offers trials', async () => {
    const { page } = session.driven;
    await page.setViewportSize({ width: 1280, height: 900 });
    const stored = await run('log-stats', 'sim');
    const s = expected(stored);
    expect(s.outcome).toBe('won');
    const banner = page.locator('[data-testid=result-banner]');
    for (const tab of ['timeline', 'answers', 'charts']) {
      await page.click(`[data-testid=tab-${tab}]`);
      await banner.waitFor();
      expect(await banner.getAttribute('data-winner')).toBe('code');
      expect(await page.textContent('[data-testid=result-headline]')).toBe(`Result ${s.headline}`);
      // Closed, it is the headline and its actions: a line or two, never the screen.
      const box = (await banner.boundingBox())!;
      expect(box.height, `banner on ${tab} at 1280×900`).toBeLessThanOrEqual(64);
      expect(box.y + box.height).toBeLessThan(200);
      expect(await page.locator('[data-testid=result-why]').count()).toBe(0);
    }
    await page.setViewportSize({ width: 900, height: 900 });
    expect((await banner.boundingBox())!.height, 'banner at 900 px').toBeLessThanOrEqual(100);
    await saveShot(page, 'result-banner-900', { docs: false });
    await page.setViewportSize({ width: 1280, height: 900 });
    // "Why" opens the reasons, the evidence and the one-run caveat, within a third of the window.
    await page.click('[data-testid=result-toggle]');
    expect(await page.locator('[data-testid=result-why] li').allTextContents()).toEqual([...s.why]);
    expect(await page.textContent('[data-testid=result-evidence]')).toContain(
      'One run each: a single run cannot separate a small difference from noise',
    );
    expect((await banner.boundingBox())!.height).toBeLessThanOrEqual(900 / 3 + 1);
    expect(
      s.why.some((w) =>
        /^ReAct sent its 8 tool definitions with each of its \d+ requests: [\d,]+ of its [\d,]+ prompt tokens/.test(w),
      ),
    ).toBe(true);
    await page.click('[data-testid=tab-timeline]');
    await saveShot(page, 'result-default');
    await page.click('[data-testid=result-toggle]');
    // The advice: 5 trials of this very comparison, loaded into the composer.
    expect(await page.getAttribute('[data-testid=offer-trials]', 'data-trials')).toBe('5');
    await page.click('[data-testid=side-tab-compose]');
    await page.check('[data-testid=task-calc] input');
    await page.click('[data-testid=offer-trials]');
    expect(await page.inputValue('[data-testid=trials-input]')).toBe('5');
    expect(await page.isChecked('[data-testid=task-log-stats] input')).toBe(true);
    expect(await page.textContent('[data-testid=loaded-from]')).toContain('Loaded from the comparison of');
    expect(session.driven.errors).toEqual([]);
  });

  it('with sim-hasty, a wrong Code Mode answer reads as a failure everywhere and is left out of the result', async () => {
    const { page } = session.driven;
    await page.fill('[data-testid=trials-input]', '1');
    const stored = await run('log-stats', 'sim-hasty');
    const s = expected(stored);
    const code = stored.meta.runs.find((r) => r.mode === 'code')!;
    const codeEvents = groupByRun(stored.events).get(code.runId)!;
    expect(summarizeRun(codeEvents).validation?.ok).toBe(false);
    await page.click('[data-testid=tab-timeline]');
    // The column head: "Wrong answer" in the colour of failure, never a green "Answered".
    const head = page.locator('[data-testid=column-code] [data-testid=run-status]');
    expect(await head.textContent()).toBe('Wrong answer');
    expect(await head.getAttribute('class')).toContain('badge-err');
    expect(await page.locator('[data-testid=column-react] [data-testid=run-status]').textContent()).toBe('Answered');
    // Its result cell's edge is a failure's red, not the green of the answered run beside it.
    const edges = await page.$$eval('[data-testid=result-cell]', (els) =>
      els.map((e) => ({ wrong: e.classList.contains('is-wrong-answer'), colour: getComputedStyle(e).borderLeftColor })),
    );
    expect(edges.map((e) => e.wrong).sort()).toEqual([false, true]);
    expect(edges[0]!.colour).not.toBe(edges[1]!.colour);
    // The result: only ReAct passed; Code Mode left out with its validation's reason.
    expect(await page.textContent('[data-testid=result-headline]')).toBe(`Result ${s.headline}`);
    expect(s.headline).toMatch(/^Only ReAct passed/);
    await page.click('[data-testid=result-toggle]');
    expect(await page.textContent('[data-testid=result-left-out]')).toMatch(
      /^Code Mode \([\d,]+ tokens\) is left out: its answer failed validation/,
    );
    await saveShot(page, 'result-failing-code-mode');
    // The Answers tab: pass and fail by each answer.
    await page.click('[data-testid=tab-answers]');
    await page.waitForSelector('[data-testid=answer-diff]');
    const fails = await page.locator('[data-testid=answer-diff] [data-testid=validation][data-ok=false]').count();
    expect(fails).toBe(1);
    expect(
      await page.locator('[data-testid=answer-diff] [data-testid=run-status][data-outcome=wrong-answer]').count(),
    ).toBe(1);
    await saveShot(page, 'answers-failing-code-mode', { docs: false });
    // The summary's verdict says it is among the runs that passed.
    await page.click('[data-testid=tab-charts]');
    expect(await page.textContent('[data-testid=verdict-tokens]')).toContain(
      'Fewest tokens: ReAct — among the runs that passed (left out: Code Mode, wrong answer)',
    );
    expect(
      await page.locator('[data-testid=summary-table] [data-testid=run-status][data-outcome=wrong-answer]').count(),
    ).toBe(1);
    // History: the run's badge is a failure's.
    await page.click('[data-testid=side-tab-history]');
    const badge = page
      .locator('[data-testid=history-item]')
      .first()
      .locator('[data-mode=code] [data-testid=run-status]');
    expect(await badge.getAttribute('data-outcome')).toBe('wrong-answer');
    expect(await badge.getAttribute('class')).toContain('badge-err');
    expect(session.driven.errors).toEqual([]);
  });

  it('the URL carries the open comparison and tab: a reload comes back to the same view', async () => {
    const { page } = session.driven;
    const [latest] = await session.host.invoke('history:list');
    await page.click('[data-testid=tab-charts]');
    await page.waitForFunction(() => location.hash.includes('tab=charts'));
    const hash = await page.evaluate(() => location.hash);
    expect(hash).toBe(`#/comparison/${latest!.meta.id}?tab=charts`);
    const headline = await page.textContent('[data-testid=result-headline]');
    await page.reload();
    await page.waitForSelector('[data-testid=result-banner]');
    expect(await page.getAttribute('[data-testid=tab-charts]', 'aria-selected')).toBe('true');
    expect(await page.textContent('[data-testid=result-headline]')).toBe(headline);
    expect(await page.evaluate(() => location.hash)).toBe(hash);
    // Back to the timeline: the hash drops the tab; a hand-edited id that does not exist opens nothing and keeps the app whole.
    await page.click('[data-testid=tab-timeline]');
    await page.waitForFunction((id) => location.hash === `#/comparison/${id}`, latest!.meta.id);
    await page.evaluate(() => {
      location.hash = '#/comparison/no-such-id?tab=answers';
    });
    await page.reload();
    await page.waitForSelector('[data-testid=main-empty]');
    expect(session.driven.errors).toEqual([]);
  });
});
