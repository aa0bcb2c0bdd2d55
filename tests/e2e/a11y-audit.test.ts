/**
 * The audit itself: axe put into a page once finds what it must (a missing alt text, text too faint to read), only the
 * colour rules when asked for colours, and a new document is audited with axe put into it again, never with the
 * previous document's findings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { newBrowserContext } from '../helpers/browser-context.js';
import { auditPage, counts } from './a11y-audit.js';

const html = (body: string) =>
  `data:text/html,${encodeURIComponent(`<!doctype html><html lang="en"><head><title>audit</title></head><body><main>${body}</main></body></html>`)}`;

const FLAWED = html(
  '<h1>Report</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="20" height="20">' +
    '<p style="color:#c8c8c8;background:#fff">faint words nobody can read</p>',
);
const CLEAN = html('<h1>Report</h1><p style="color:#111;background:#fff">plain words</p>');

describe('the accessibility audit', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await newBrowserContext();
    page = await context.newPage();
  });
  afterAll(async () => context?.close());

  const rules = (found: Awaited<ReturnType<typeof auditPage>>) => found.map((f) => f.rule).sort();

  it('finds a missing alt text and faint text, twice on one document, and only colours when asked', async () => {
    await page.goto(FLAWED);
    expect(rules(await auditPage(page, 'flawed'))).toEqual(['color-contrast', 'image-alt']);
    expect(counts['flawed']).toMatchObject({ violations: 2, rules: { 'color-contrast': 1, 'image-alt': 1 } });
    // axe is in the page now; a second audit of the same document finds the same.
    expect(await page.evaluate(() => typeof (window as { axe?: unknown }).axe)).toBe('object');
    const again = await auditPage(page, 'flawed again');
    expect(rules(again)).toEqual(['color-contrast', 'image-alt']);
    expect(again.find((f) => f.rule === 'color-contrast')!.nodes[0]!.html).toContain('faint words');
    expect(rules(await auditPage(page, 'flawed colours', { colours: true }))).toEqual(['color-contrast']);
  });

  it('audits a new document afresh: axe put into it again, nothing carried over', async () => {
    await page.goto(CLEAN);
    expect(await page.evaluate(() => typeof (window as { axe?: unknown }).axe)).toBe('undefined');
    expect(await auditPage(page, 'clean')).toEqual([]);
    await page.goto(FLAWED);
    expect(rules(await auditPage(page, 'flawed after clean'))).toEqual(['color-contrast', 'image-alt']);
  });
});
