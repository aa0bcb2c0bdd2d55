/**
 * "Send to OTLP endpoint" in the browser against `parallax serve`: run a comparison, open the export menu's send
 * dialog, meet a refused endpoint (the error stays in the dialog, the fields kept), then send to a loopback OTLP
 * receiver with an Authorization header; what it decodes matches the stored comparison.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MODES } from '../../shared/run-spec.js';
import { readSpans, startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver.js';
import { checkTrace } from '../electron/host/reports/otlp-checks.js';
import { startAppSession, stopAppSession, type AppSession } from './app-session.js';
import { waitForStatus } from './page-helpers.js';
import { saveShot } from './screenshots.js';

const SECRET = 'sk-lf-e2e-secret';

describe('sending a comparison to an OTLP endpoint from the app', () => {
  let session: AppSession;
  let receiver: OtlpReceiver;

  beforeAll(async () => {
    [session, receiver] = await Promise.all([startAppSession(), startOtlpReceiver()]);
  });

  afterAll(async () => {
    await receiver?.close();
    await stopAppSession(session ?? {});
  });

  it('shows a refused endpoint in the dialog, then sends the trace with its header', async () => {
    const { page } = session.driven;
    await page.check('[data-testid=task-log-stats] input');
    await page.keyboard.press('Control+Enter');
    for (const mode of DEFAULT_MODES)
      expect(await waitForStatus(page, mode, ['answered', 'max-steps', 'error', 'crashed'])).toBe('answered');
    const [item] = await session.host.invoke('history:list');
    const stored = await session.host.invoke('history:open', item!.meta.id);

    await page.click('[data-testid=export-button]');
    await saveShot(page, 'otlp-export-menu', { docs: false });
    await page.click('[data-testid=export-otlp-send]');
    await page.waitForSelector('[data-testid=otlp-dialog]');
    const closed = await startOtlpReceiver();
    const refusedUrl = closed.url;
    await closed.close();
    await page.fill('[data-testid=otlp-endpoint]', refusedUrl);
    await page.fill('[data-testid=otlp-headers]', `Authorization: Bearer ${SECRET}`);
    await page.click('[data-testid=otlp-send]');
    const error = await page.waitForSelector('[data-testid=otlp-error]');
    expect(await error.textContent()).toMatch(/Could not reach the OTLP endpoint .*connection was refused/);
    expect(await error.textContent()).not.toContain(SECRET);
    await saveShot(page, 'otlp-send-refused', { docs: false });

    await page.fill('[data-testid=otlp-endpoint]', receiver.url);
    expect(await page.inputValue('[data-testid=otlp-headers]')).toBe(`Authorization: Bearer ${SECRET}`);
    await page.click('[data-testid=otlp-send]');
    await page.waitForSelector('[data-testid=otlp-dialog]', { state: 'detached' });
    expect(await page.locator('[data-testid=toast]').last().textContent()).toContain('Trace sent');
    await saveShot(page, 'otlp-sent', { docs: false });
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0].path).toBe('/v1/traces');
    expect(receiver.requests[0].headers.authorization).toBe(`Bearer ${SECRET}`);
    checkTrace(stored, readSpans(receiver.requests[0].body).spans);
    expect(session.served.output()).not.toContain(SECRET);
    expect(session.driven.errors).toEqual([]);
  });
});
