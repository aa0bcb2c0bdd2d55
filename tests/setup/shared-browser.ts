/**
 * Vitest global setup: one Debian Chromium for every browser test of the run, started on first demand. Each test
 * file used to start a Chromium of its own with a fresh profile; now it opens a fresh browser context (its own
 * cookies, storage and cache, as a fresh profile had) in this one browser. The browser is started only when a test
 * asks for it (GET on a loopback address given to the test processes in PARALLAX_TEST_BROWSER), so a run with no
 * browser test starts none, and it is closed when the run ends.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type BrowserServer } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../helpers/chromium-args.js';

export default async function setup(): Promise<() => Promise<void>> {
  let browser: Promise<BrowserServer> | null = null;
  const server = createServer((_req, res) => {
    browser ??= chromium.launchServer({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS], headless: true });
    browser.then(
      (b) => res.end(b.wsEndpoint()),
      (e: Error) => {
        browser = null; // the next test may try again, and says why if it fails too
        res.statusCode = 500;
        res.end(`Chromium did not start: ${e.message}`);
      },
    );
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  process.env.PARALLAX_TEST_BROWSER = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return async () => {
    server.close();
    await (await browser?.catch(() => null))?.close();
  };
}
