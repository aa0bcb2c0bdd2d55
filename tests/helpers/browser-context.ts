/**
 * A fresh browser context for a test: in the run's one shared Chromium (tests/setup/shared-browser.ts) when the
 * run has one, else in a Chromium of its own. A context has its own cookies, storage and cache, as a fresh
 * profile had. Closing it closes the context (and the browser, when it was the test's own).
 */
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium-args.js';

let shared: Promise<Browser> | null = null;

async function sharedBrowser(): Promise<Browser | null> {
  const broker = process.env.PARALLAX_TEST_BROWSER;
  if (!broker) return null;
  shared ??= (async () => {
    const res = await fetch(broker);
    const text = await res.text();
    if (!res.ok) throw new Error(text);
    return chromium.connect(text);
  })();
  const browser = await shared.catch((e: Error) => {
    shared = null;
    throw e;
  });
  if (browser.isConnected()) return browser;
  shared = null; // the shared browser went away (it crashed or the run is ending): ask again
  return sharedBrowser();
}

export async function newBrowserContext(options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const browser =
    (await sharedBrowser()) ??
    (await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS], headless: true }));
  const own = !process.env.PARALLAX_TEST_BROWSER;
  // Pages prefer reduced motion, as the app honours it (no spinner, no sheen; base.css): headless Chromium draws
  // in software, and one looping animation kept it drawing 60 frames a second, a core's worth of CPU (15 s in 15 s
  // of a held run's page, 0.2 s without) taken from the runs and tests beside it. A test of motion asks for it.
  const context = await browser.newContext({ reducedMotion: 'reduce', ...options });
  // Waits are on state; the limit only catches a hang, so a loaded machine never reaches it (Playwright's own: 30 s).
  context.setDefaultTimeout(120_000);
  if (own) context.once('close', () => void browser.close());
  return context;
}
