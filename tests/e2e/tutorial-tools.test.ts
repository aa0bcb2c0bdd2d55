/**
 * The tutorial tool profile chosen in the composer, against a real `parallax serve` (simulated model): the
 * runs offer the tutorial's six tools and prompts, the stored settings and the report say which tools ran,
 * and the figures are the ones the tutorial profile's test pins to the published table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLSETS } from '../../shared/toolsets.js';
import { startAppSession, stopAppSession, type AppSession } from './app-session.js';
import { waitForStatus } from './page-helpers.js';
import { saveShot } from './screenshots.js';

describe('the tutorial tool profile from the composer', () => {
  let session: AppSession;

  beforeAll(async () => {
    session = await startAppSession();
  });
  afterAll(() => stopAppSession(session ?? {}));

  it('runs both modes on the six one-line tools and records the profile with the comparison', async () => {
    const { page } = session.driven;
    await page.check('[data-testid=task-log-stats] input');
    await page.click('[data-testid=advanced-toggle]');
    await page.selectOption('[data-testid=setting-toolset]', 'seed');
    expect(await page.textContent('.field:has([data-testid=setting-toolset]) .field-hint')).toBe(TOOLSETS.seed.about);
    expect(await page.textContent('[data-testid=advanced-toggle]')).toContain('1 changed');
    await page.locator('[data-testid=setting-toolset]').scrollIntoViewIfNeeded();
    await saveShot(page, 'tutorial-tools-composer', { docs: false });

    await page.click('[data-testid=run]');
    for (const mode of ['react', 'code'] as const)
      expect(await waitForStatus(page, mode, ['answered', 'error', 'crashed'], 120_000)).toBe('answered');

    const [item] = await session.host.invoke('history:list');
    expect(item!.meta.settings.toolset).toBe('seed');
    const stored = await session.host.invoke('history:open', item!.meta.id);
    const started = stored.events.filter((e) => e.type === 'run-started');
    const react = started.find((e) => e.mode === 'react')!;
    expect(react.type === 'run-started' && react.tools.map((t) => t.name)).toEqual([
      'list_dir',
      'read_file',
      'write_file',
      'run_shell',
      'fetch_url',
      'current_time',
    ]);
    expect(react.type === 'run-started' && react.systemPrompt).toBe('You are a helpful agent. Use the tools to act.');

    const report = await session.host.invoke('report:export', item!.meta.id, 'md');
    expect(report.status).toBe('download');
    expect(report.status === 'download' && report.content).toContain(`tools ${TOOLSETS.seed.label}`);
    expect(session.driven.errors).toEqual([]);
  });
});
