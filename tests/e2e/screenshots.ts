/**
 * Screenshots taken by the e2e tests: always under test-results/e2e/ (to look at), and copied to
 * docs/screenshots/ when UPDATE_SCREENSHOTS=1 (the committed ones in the README).
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from './harness.js';

/** `docs: false` keeps a shot out of docs/screenshots (one to look at, not to show in the README). */
export async function saveShot(page: Page, name: string, options: { docs?: boolean } = {}): Promise<string> {
  const dir = join(ROOT, 'test-results', 'e2e');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path });
  if (process.env.UPDATE_SCREENSHOTS === '1' && options.docs !== false) {
    const docs = join(ROOT, 'docs', 'screenshots');
    mkdirSync(docs, { recursive: true });
    copyFileSync(path, join(docs, `${name}.png`));
  }
  return path;
}
