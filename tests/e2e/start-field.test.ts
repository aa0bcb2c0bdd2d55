/**
 * A start error points at the composer field it is about, against a real `parallax serve`: a base URL where
 * nothing listens highlights the base URL, a server that refuses the key highlights the key; the field is
 * marked invalid, says so under it, and gets the focus.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppSession, stopAppSession } from './app-session.js';
import type { Driven, Served } from './harness.js';
import type { HostClient } from './host-client.js';
import { saveShot } from './screenshots.js';

describe('start errors that point at a field, against parallax serve', () => {
  let served: Served;
  let driven: Driven;
  let host: HostClient;
  let refusing: Server;
  let refusingUrl = '';
  let closedUrl = '';

  beforeAll(async () => {
    ({ served, driven, host } = await startAppSession());
    refusing = createServer(
      (_req, res) =>
        void res
          .writeHead(401, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'Incorrect API key provided' } })),
    );
    await new Promise<void>((ok) => refusing.listen(0, '127.0.0.1', ok));
    refusingUrl = `http://127.0.0.1:${(refusing.address() as { port: number }).port}/v1`;
    const probe = createServer();
    await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', ok));
    closedUrl = `http://127.0.0.1:${(probe.address() as { port: number }).port}/v1`;
    await new Promise((ok) => probe.close(ok));
  });

  afterAll(async () => {
    refusing?.close();
    await stopAppSession({ served, driven, host });
  });

  it('highlights the base URL when nothing answers there, then the key when the server refuses it', async () => {
    const { page } = driven;
    await page.click('[data-testid=task-calc]');
    await page.selectOption('[data-testid=provider-select]', 'custom');
    await page.fill('[data-testid=base-url]', closedUrl);
    await page.fill('[data-testid=model-input]', 'some-model');
    await page.click('[data-testid=run]');
    await page.waitForSelector('[data-testid=start-error]');
    expect(await page.textContent('[data-testid=start-error]')).toMatch(
      /Nothing is listening .*Field to fix: base URL\./,
    );
    const url = page.locator('[data-testid=base-url]');
    expect(await url.getAttribute('aria-invalid')).toBe('true');
    expect(await url.evaluate((el) => el.classList.contains('is-invalid'))).toBe(true);
    expect(await url.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await page.locator('[data-testid=start-field-note]').count()).toBe(1);
    expect(await page.locator('[data-testid=api-key-input]').getAttribute('aria-invalid')).toBeNull();
    await saveShot(page, 'start-error-base-url', { docs: false });

    await page.fill('[data-testid=base-url]', refusingUrl);
    await page.click('[data-testid=run]');
    await page.waitForFunction(() =>
      /Field to fix: API key/.test(document.querySelector('[data-testid=start-error]')?.textContent ?? ''),
    );
    const key = page.locator('[data-testid=api-key-input]');
    expect(await key.getAttribute('aria-invalid')).toBe('true');
    expect(await key.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await url.getAttribute('aria-invalid')).toBe('false');
    expect(await page.locator('[data-testid=start-field-note]').count()).toBe(1);
    await saveShot(page, 'start-error-api-key', { docs: false });
    expect(await host.invoke('history:list')).toEqual([]);
    expect(driven.errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });
});
