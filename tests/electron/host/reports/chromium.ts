/**
 * Test helper: open a report file in Debian Chromium (playwright-core) in a fresh browser context, recording every
 * network request, dialog and console message, so tests can assert that a report loads nothing and runs
 * nothing.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { newBrowserContext } from '../../../helpers/browser-context.js';
import { ROOT } from './live-comparison.js';

/** Where report tests leave the files and screenshots they made, for a person to open (git ignores it). */
export const OUT = join(ROOT, 'test-results', 'reports');

export async function writeReport(name: string, content: string): Promise<string> {
  await mkdir(OUT, { recursive: true });
  const file = join(OUT, name);
  await writeFile(file, content);
  return file;
}

export interface OpenedReport {
  readonly page: Page;
  /** Every request the page made, except the report file itself. */
  readonly requests: string[];
  readonly dialogs: string[];
  readonly pageErrors: string[];
  close(): Promise<void>;
}

export async function openInChromium(file: string, viewport = { width: 1280, height: 900 }): Promise<OpenedReport> {
  const context = await newBrowserContext({ viewport });
  const url = pathToFileURL(file).href;
  const requests: string[] = [];
  const dialogs: string[] = [];
  const pageErrors: string[] = [];
  context.on('request', (r) => {
    if (r.url() !== url) requests.push(r.url());
  });
  const page = await context.newPage();
  page.on('dialog', (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(url, { waitUntil: 'load' });
  // Give any deferred load (an image error handler, a late fetch) the chance to show up.
  await page.waitForTimeout(300);
  return {
    page,
    requests,
    dialogs,
    pageErrors,
    close: () => context.close(),
  };
}
