/**
 * The timeline's layout with four modes in a window too narrow for them, against a real `parallax serve`:
 * a hint says how many columns are out of view and scrolls to them; the column heads' badges stay on one line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODE_IDS } from '../../shared/run-spec.js';
import { startAppSession, stopAppSession } from './app-session.js';
import type { Driven, Served } from './harness.js';
import type { HostClient } from './host-client.js';
import { runAndOpen, waitForStatus } from './page-helpers.js';
import { saveShot } from './screenshots.js';

const FOUR = ['react', 'code', 'hybrid', 'react-search'] as const;

/** Columns less than half in view, counted in the page. */
const outOfView = (driven: Driven) =>
  driven.page.evaluate(() => {
    const el = document.querySelector<HTMLElement>('[data-testid=timeline]')!;
    const box = el.getBoundingClientRect();
    const left = document.querySelector('.gutter-head')!.getBoundingClientRect().right;
    const right = box.left + el.clientWidth;
    let l = 0;
    let r = 0;
    for (const c of document.querySelectorAll('.timeline-head .column-head')) {
      const b = c.getBoundingClientRect();
      const shown = Math.max(0, Math.min(b.right, right) - Math.max(b.left, left));
      if (shown / b.width >= 0.5) continue;
      if ((b.left + b.right) / 2 < (left + right) / 2) l++;
      else r++;
    }
    return { left: l, right: r };
  });

describe('timeline layout, against parallax serve', () => {
  let served: Served;
  let driven: Driven;
  let host: HostClient;

  beforeAll(async () => {
    ({ served, driven, host } = await startAppSession());
  });

  afterAll(() => stopAppSession({ served, driven, host }));

  it('says how many columns are out of view, scrolls to them, and keeps badges on one line', async () => {
    const { page } = driven;
    expect(MODE_IDS).toEqual(expect.arrayContaining([...FOUR]));
    await page.click('[data-testid=task-calc]');
    for (const mode of FOUR) {
      const box = page.locator(`[data-testid=mode-${mode}] input`);
      if (!(await box.isChecked())) await box.check();
    }
    await page.click('[data-testid=run]');
    for (const mode of FOUR)
      expect(await waitForStatus(page, mode, ['answered', 'max-steps', 'error', 'crashed'], 120_000)).toBe('answered');

    // 1000 px: the side panel folds by itself, leaving the columns the window; opened again by the user, four
    // columns (at least 224 px each) do not all fit beside it.
    await page.setViewportSize({ width: 1000, height: 800 });
    await page.waitForSelector('[data-testid=side-panel]', { state: 'hidden' });
    expect(await outOfView(driven)).toEqual({ left: 0, right: 0 });
    await saveShot(page, 'narrow-folded', { docs: false });
    await page.click('[data-testid=sidebar-toggle]');
    await page.waitForSelector('[data-testid=side-panel]', { state: 'visible' });
    const hint = page.locator('[data-testid=scroll-hint-right]');
    await hint.waitFor();
    const hidden = await outOfView(driven);
    expect(hidden.right).toBeGreaterThan(0);
    expect(Number(await hint.getAttribute('data-count'))).toBe(hidden.right);
    expect(await hint.textContent()).toBe(`${hidden.right} more column${hidden.right === 1 ? '' : 's'} →`);
    expect(await page.locator('[data-testid=scroll-hint-left]').count()).toBe(0);
    await saveShot(page, 'scroll-hint', { docs: false });

    // Badges and titles on one line each, in every head.
    const lines = await page.$$eval('.column-head', (heads) =>
      heads.map((h) =>
        [h.querySelector('.column-title')!, h.querySelector('.column-badges')!].map((row) => {
          const tops = new Set(
            [...row.children].map((c) =>
              Math.round(c.getBoundingClientRect().top + c.getBoundingClientRect().height / 2),
            ),
          );
          return tops.size;
        }),
      ),
    );
    for (const l of lines) expect(l).toEqual([1, 1]);

    // The hint scrolls until nothing is left on the right; then the left one counts what scrolled away.
    for (let i = 0; i < 6 && (await hint.count()) > 0; i++) {
      await hint.click();
      await page.waitForTimeout(400);
    }
    expect(await page.locator('[data-testid=scroll-hint-right]').count()).toBe(0);
    const after = await outOfView(driven);
    const left = page.locator('[data-testid=scroll-hint-left]');
    expect(Number(await left.getAttribute('data-count'))).toBe(after.left);
    expect(after.left).toBeGreaterThan(0);
    await saveShot(page, 'scroll-hint-left', { docs: false });

    // With the side panel folded away every column fits: no hint.
    await page.click('[data-testid=sidebar-toggle]');
    await page.waitForFunction(() => !document.querySelector('[data-testid^=scroll-hint]'));
    expect(await outOfView(driven)).toEqual({ left: 0, right: 0 });
    expect(driven.errors).toEqual([]);
  });

  it('a failed program keeps its width: the error message takes a row of its own under the failing line', async () => {
    const { page } = driven;
    await page.setViewportSize({ width: 1280, height: 900 });
    // Without return types each program treats fetch_url's object as a string and fails at a line; Python's
    // message is the longest ("TypeError: expected string or bytes-like object, got 'dict'").
    await runAndOpen(
      { served, driven, host },
      {
        task: 'time-and-title',
        provider: { name: 'simulated', baseUrl: null, model: 'sim' },
        modes: ['code', 'code-py', 'hybrid'],
        settings: { returnTypes: false },
      },
    );
    await page.click('[data-testid=tab-timeline]');
    for (const width of [1280, 1920, 900]) {
      await page.setViewportSize({ width, height: 900 });
      for (const wrap of [true, false]) {
        const box = page.locator('[data-testid=wrap-code-toggle] input');
        if ((await box.isChecked()) !== wrap) await box.click();
        await page.waitForSelector('[data-error-line] .code-line-msg');
        const lines = await page.$$eval('[data-error-line]', (els) =>
          els.map((line) => {
            const code = line.querySelector('code')!.getBoundingClientRect();
            const msg = line.querySelector('.code-line-msg')!.getBoundingClientRect();
            const block = line.closest('[data-testid=code-block]')!.getBoundingClientRect();
            return {
              code: code.width,
              codeBottom: code.bottom,
              msgTop: msg.top,
              block: block.width,
              msg: line.querySelector('.code-line-msg')!.textContent,
            };
          }),
        );
        expect(lines.length).toBe(3);
        expect(lines.some((l) => /expected string or bytes-like object/.test(l.msg ?? ''))).toBe(true);
        for (const l of lines) {
          // The code keeps most of the block's width (the line numbers take the rest) and the message sits below it.
          expect(l.code, `${width} px, wrap ${wrap}`).toBeGreaterThan(l.block * 0.6);
          expect(l.msgTop).toBeGreaterThanOrEqual(l.codeBottom - 1);
        }
      }
      await page.locator('[data-error-line]').first().scrollIntoViewIfNeeded();
      await saveShot(page, `failed-program-${width}`, { docs: false });
    }
    expect(driven.errors).toEqual([]);
  });
});
