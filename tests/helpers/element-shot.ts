/**
 * Test helper: a screenshot of one element, for a person to open. It captures the element's box from a full-page
 * capture instead of Playwright's element screenshot, whose wait for a "stable" box (two equal animation frames,
 * after scrolling to an element taller than the viewport) ran past 30 s under CI load.
 */
import type { Locator } from 'playwright-core';

export async function elementShot(locator: Locator, path: string): Promise<void> {
  await locator.waitFor({ state: 'visible' });
  const clip = await locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return {
      x: r.left + window.scrollX,
      y: r.top + window.scrollY,
      width: Math.max(1, r.width),
      height: Math.max(1, r.height),
    };
  });
  await locator.page().screenshot({ path, fullPage: true, clip, animations: 'disabled' });
}
