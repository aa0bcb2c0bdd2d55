/**
 * The composer against a real `parallax serve`: settings validated at the field, connection tests with their
 * reasons, keys stored but never shown; cancelling held runs (sim fault 'hang'), one from its column, then the
 * rest with Esc; and the docs screenshots (running, dark theme).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppSession, stopAppSession } from './app-session.js';
import type { Driven, Served } from './harness.js';
import type { HostClient } from './host-client.js';
import { waitForStatus } from './page-helpers.js';
import { saveShot } from './screenshots.js';

describe('composer, cancel and themes, against parallax serve with the simulated model', () => {
  let served: Served;
  let driven: Driven;
  let host: HostClient;

  beforeAll(async () => {
    ({ served, driven, host } = await startAppSession());
  });

  afterAll(() => stopAppSession({ served, driven, host }));

  it('shows a bad setting at its field and does not start a run until it is fixed', async () => {
    const { page } = driven;
    await page.click('[data-testid=advanced-toggle]');
    await page.fill('[data-testid=setting-maxSteps]', '500');
    expect(await page.textContent('[data-testid=setting-maxSteps-error]')).toBe('Must be at most 100.');
    await page.fill('[data-testid=setting-truncateChars]', '12x');
    expect(await page.textContent('[data-testid=setting-truncateChars-error]')).toBe('Must be a number.');
    await page.click('[data-testid=run]');
    await page.waitForTimeout(300);
    expect(await host.invoke('history:list')).toEqual([]);
    await page.fill('[data-testid=setting-maxSteps]', '10');
    await page.fill('[data-testid=setting-truncateChars]', '4000');
    expect(await page.locator('[data-testid=setting-maxSteps-error]').count()).toBe(0);
  });

  it('tests the connection and names the reason when it fails', async () => {
    const { page } = driven;
    await page.click('[data-testid=test-connection]');
    await page.waitForSelector('[data-testid=test-result][data-ok=true]');
    await page.fill('[data-testid=model-input]', 'no-such-model');
    await page.click('[data-testid=test-connection]');
    await page.waitForSelector('[data-testid=test-result][data-ok=false]');
    expect(await page.getAttribute('[data-testid=test-result]', 'data-reason')).toBe('unknown-model');
    expect(await page.textContent('[data-testid=test-result]')).toContain('Unknown model');

    await page.selectOption('[data-testid=provider-select]', 'custom');
    await page.fill('[data-testid=base-url]', 'http://127.0.0.1:9/v1');
    await page.fill('[data-testid=model-input]', 'local');
    await page.click('[data-testid=test-connection]');
    await page.waitForSelector('[data-testid=test-result][data-ok=false]');
    expect(await page.getAttribute('[data-testid=test-result]', 'data-reason')).toBe('unreachable');
    expect(await page.textContent('[data-testid=test-result]')).toContain('Server unreachable');
  });

  it('stores an API key through the host and afterwards only says “Key stored”', async () => {
    const { page } = driven;
    const secret = 'sk-test-e2e-0123456789abcdef';
    await page.selectOption('[data-testid=provider-select]', 'openai');
    expect(await page.inputValue('[data-testid=base-url]')).toBe('https://api.openai.com/v1');
    await page.fill('[data-testid=api-key-input]', secret);
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=key-stored]');
    expect((await host.invoke('keys:status')).openai).toEqual({
      available: true,
      boundTo: 'https://api.openai.com/v1',
    });
    const html = await page.content();
    expect(html).not.toContain(secret);
    expect(await page.evaluate(() => localStorage.getItem('parallax.prefs.v1') ?? '')).not.toContain(secret);
    await page.selectOption('[data-testid=provider-select]', 'simulated');
    expect(await page.inputValue('[data-testid=model-input]')).toBe('sim');
  });

  it('cancels one held run from its column while the other keeps running, then the rest with Esc', async () => {
    const { page } = driven;
    await page.check('[data-testid=fault-hang] input');
    await page.click('[data-testid=run]');
    for (const mode of ['react', 'code'] as const) await waitForStatus(page, mode, ['running']);
    await page.waitForSelector('[data-testid=step-card][data-state=waiting]');
    // The wait shows a spinner that turns, and stands still for a reader who asked for reduced motion.
    const spinning = () =>
      page.$eval(
        '[data-testid=step-card][data-state=waiting] .waiting svg',
        (el) => getComputedStyle(el).animationName,
      );
    expect(await spinning()).toBe('none'); // the tests' pages prefer reduced motion (tests/helpers/browser-context.ts)
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    expect(await spinning()).toBe('spin');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.click('[data-testid=cancel-run-react]');
    expect(await waitForStatus(page, 'react', ['cancelled', 'answered', 'error', 'crashed'])).toBe('cancelled');
    expect(await waitForStatus(page, 'code', ['running', 'pending'], 2000)).toBe('running');
    await page.locator('[data-testid=timeline]').focus();
    await page.keyboard.press('Escape');
    expect(await waitForStatus(page, 'code', ['cancelled', 'answered', 'error', 'crashed'])).toBe('cancelled');
    expect(await page.locator('[data-testid=result-cell][data-status=cancelled]').count()).toBe(2);
    const [item] = await host.invoke('history:list');
    expect(item!.runs.map((r) => r.status).sort()).toEqual(['cancelled', 'cancelled']);
    await page.uncheck('[data-testid=fault-hang] input');
  });

  it('a program stopped by a cancel reads "aborted by cancel", not output returned to the model', async () => {
    const { page } = driven;
    await page.check('[data-testid=fault-loop-forever] input');
    await page.click('[data-testid=run]');
    // The endless program is running once its call card is there and the Code Mode run still runs.
    await page.waitForSelector('[data-testid=code-run]');
    expect(await waitForStatus(page, 'code', ['running', 'answered', 'error'])).toBe('running');
    await page.locator('[data-testid=timeline]').focus();
    await page.keyboard.press('Escape');
    expect(await waitForStatus(page, 'code', ['cancelled', 'answered', 'error', 'crashed'])).toBe('cancelled');
    const card = page.locator('[data-testid=code-run]').first();
    await card.locator('[data-testid=tool-cancelled]').waitFor();
    expect(await card.textContent()).toContain('aborted by cancel: nothing went back to the model');
    expect(await card.textContent()).not.toContain('chars returned to the model');
    await card.scrollIntoViewIfNeeded();
    await saveShot(page, 'cancelled-program', { docs: false });
    await page.uncheck('[data-testid=fault-loop-forever] input');
  });

  it('streams a run at a readable pace and keeps light and dark themes legible (docs screenshots)', async () => {
    const { page } = driven;
    // Hold the link to the page once the new comparison's third reply has gone through it, so the screenshot
    // catches the comparison mid-run however fast or slow the machine runs it; what was held is sent once the
    // screenshot is taken. The host, the runs and their events are untouched. (Delaying every batch instead made the
    // wait grow with the machine's load: a slower run is sent in more batches.)
    const replies = new Map<string, number>();
    let ours: readonly string[] = [];
    let held: (string | Buffer)[] | null = null;
    let released = false;
    let toPage: { send(m: string | Buffer): void } | null = null;
    const release = () => {
      released = true;
      const queued = held ?? [];
      held = null;
      for (const m of queued) toPage?.send(m);
    };
    await page.routeWebSocket(/\/ws/, (route) => {
      toPage = route;
      const server = route.connectToServer();
      server.onMessage((msg) => {
        if (held) return void held.push(msg);
        route.send(msg);
        if (released || typeof msg !== 'string') return;
        const m = JSON.parse(msg) as {
          kind: string;
          ok?: boolean;
          value?: { runs?: { runId: string }[] };
          channel?: string;
          payload?: { type: string; runId: string }[];
        };
        if (m.kind === 'result' && m.ok && Array.isArray(m.value?.runs)) ours = m.value.runs.map((r) => r.runId);
        if (m.kind === 'event' && m.channel === 'run:events')
          for (const e of m.payload ?? [])
            if (e.type === 'model-response') replies.set(e.runId, (replies.get(e.runId) ?? 0) + 1);
        if (ours.reduce((n, id) => n + (replies.get(id) ?? 0), 0) >= 3) held = [];
      });
    });
    // The previous test's comparison has ended on the host: its ReAct run stops a moment after the Esc, and while a
    // comparison runs the app leaves Run alone, so a click then would start nothing and the waits below would read the
    // old comparison's cards.
    await expect
      .poll(async () =>
        (await host.invoke('history:list')).flatMap((i) => i.runs).filter((r) => r.status === 'running'),
      )
      .toEqual([]);
    await page.reload();
    await page.waitForSelector('[data-testid=connection-status]:has-text("Web host")');
    await page.click('[data-testid=run]');
    // Run started a new comparison (its id came back through the page's link).
    await expect.poll(() => ours.length).toBeGreaterThan(0);
    // The reload came back to the last comparison (the URL carries it): its finished cards are not this run's.
    await waitForStatus(page, 'react', ['pending', 'running']);
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid=step-card][data-state=done]').length >= 3,
      undefined,
      { polling: 100 },
    );
    await saveShot(page, 'running');
    release();
    for (const mode of ['react', 'code'] as const) await waitForStatus(page, mode, ['answered']);
    await page.click('[data-testid=theme-toggle]');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.locator('[data-testid=timeline]').evaluate((el) => (el.scrollTop = 0));
    await page.waitForTimeout(200);
    await saveShot(page, 'dark-timeline');
    await page.click('[data-testid=tab-charts]');
    await page.waitForSelector('[data-testid=token-bar]');
    await saveShot(page, 'dark-charts');
    await page.click('[data-testid=theme-toggle]');
    expect(driven.errors).toEqual([]);
  });

  it('says plainly when the host goes away, and keeps retrying (last: it stops the server)', async () => {
    const { page } = driven;
    await page.unrouteAll();
    const exited = new Promise((ok) => served.child.once('exit', ok));
    served.child.kill('SIGTERM');
    await exited;
    await page.waitForSelector('[data-testid=connection-banner]');
    expect(await page.textContent('[data-testid=connection-banner]')).toContain('Disconnected from the Parallax host');
    expect(await page.textContent('[data-testid=connection-status]')).toMatch(/Disconnected|Connecting/);
    await saveShot(page, 'disconnected', { docs: false });
  });
});
