/**
 * The composer's guarded fields against a real `parallax serve --allow-dir DIR`: a workspace folder typed
 * inside the allowed folder runs, one outside is refused with the reason; a keyed preset's base URL cannot be
 * changed; the custom provider reads its key from a variable the user names among those `--allow-key-env` lists,
 * never from PATH.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, startServe, type Driven, type Served } from './harness.js';
import { connectHost, type HostClient } from './host-client.js';
import { waitForStatus } from './page-helpers.js';
import { saveShot } from './screenshots.js';

describe('guarded composer fields, against parallax serve --allow-dir', () => {
  let served: Served;
  let driven: Driven;
  let host: HostClient;
  const allowed = mkdtempSync(join(tmpdir(), 'parallax-e2e-allowed-'));
  const outside = mkdtempSync(join(tmpdir(), 'parallax-e2e-outside-'));

  beforeAll(async () => {
    mkdirSync(join(allowed, 'project'));
    writeFileSync(join(allowed, 'project', 'notes.txt'), 'mine');
    served = await startServe({ MY_SERVER_API_KEY: 'sk-e2e-env', OTHER_API_KEY: 'sk-e2e-other' }, [
      '--allow-dir',
      allowed,
      '--allow-key-env',
      'MY_SERVER_API_KEY',
    ]);
    driven = await openPage(served.url);
    host = await connectHost(served.url);
    await driven.page.waitForSelector('[data-testid=connection-status]:has-text("Web host")');
  });

  afterAll(async () => {
    host?.close();
    await driven?.close();
    await served?.stop();
  });

  it('copies a typed folder only when it is inside the allowed folder', async () => {
    const { page } = driven;
    expect(served.output()).toContain(`Workspace folders allowed inside: ${allowed}`);
    expect(await page.textContent('[data-testid=workspace-field]')).toContain(`Must be inside ${allowed}`);
    await page.click('[data-testid=task-calc]');
    await page.fill('[data-testid=workspace-dir]', outside);
    await page.click('[data-testid=run]');
    await page.waitForSelector('[data-testid=start-error]');
    expect(await page.textContent('[data-testid=start-error]')).toMatch(
      /is not inside a folder this web host allows .*--allow-dir/,
    );
    expect(await host.invoke('history:list')).toEqual([]);

    await page.fill('[data-testid=workspace-dir]', join(allowed, 'project'));
    await page.click('[data-testid=run]');
    expect(await waitForStatus(driven.page, 'react', ['answered', 'error', 'crashed'], 120_000)).toBe('answered');
    const [item] = await host.invoke('history:list');
    expect(item!.meta.workspaceSource).toBe(`folder:${join(allowed, 'project')}`);
    // A folder of the user's: fetch_url asks by default, and the policy says so where it is set.
    await page.click('[data-testid=advanced-toggle]');
    expect(await page.textContent('[data-testid=approval-fetch_url] option[value=default]')).toBe('Default: ask me');
    expect(driven.errors).toEqual([]);
  });

  it('keeps a keyed preset on its own base URL, and reads a custom key only from a named key variable', async () => {
    const { page } = driven;
    /** Names `name` as the key variable; the text of the notice that brings (earlier notices dismissed first). */
    const useKeyEnv = async (name: string): Promise<string> => {
      for (const dismiss of await page.locator('[data-testid=toast-dismiss]').all()) await dismiss.click();
      await page.locator('[data-testid=toast]').first().waitFor({ state: 'detached' });
      await page.fill('[data-testid=key-env-input]', name);
      await page.click('[data-testid=key-env-use]');
      const notice = page.locator('[data-testid=toast]').first();
      await notice.waitFor();
      return (await notice.textContent()) ?? '';
    };
    await page.selectOption('[data-testid=provider-select]', 'openai');
    expect(await page.getAttribute('[data-testid=base-url]', 'readonly')).not.toBeNull();
    expect(await page.inputValue('[data-testid=base-url]')).toBe('https://api.openai.com/v1');
    expect(await page.textContent('.field:has([data-testid=base-url])')).toContain('OpenAI keys are only sent here');

    await page.selectOption('[data-testid=provider-select]', 'custom');
    await page.fill('[data-testid=base-url]', 'http://127.0.0.1:9/v1');
    const refusal = await useKeyEnv('PATH');
    expect(refusal).toContain('Could not use that variable');
    expect(refusal).toContain('does not look like a variable that holds an API key');
    expect(await page.locator('[data-testid=key-env-used]').count()).toBe(0);

    // A key variable the operator did not list is refused, saying how to allow it.
    expect(await useKeyEnv('OTHER_API_KEY')).toContain('--allow-key-env OTHER_API_KEY');
    expect(await page.locator('[data-testid=key-env-used]').count()).toBe(0);

    await page.fill('[data-testid=key-env-input]', 'MY_SERVER_API_KEY');
    await page.click('[data-testid=key-env-use]');
    await page.waitForSelector('[data-testid=key-env-used]');
    expect(await page.textContent('[data-testid=key-env-used]')).toContain('MY_SERVER_API_KEY');
    await page.locator('[data-testid=key-env-used]').scrollIntoViewIfNeeded();
    await saveShot(page, 'composer-guards', { docs: false });
    // Session-only: it is not saved with the form.
    expect(await page.evaluate(() => localStorage.getItem('parallax.prefs.v1') ?? '')).not.toContain(
      'MY_SERVER_API_KEY',
    );
    expect(driven.errors).toEqual([]);
  });
});
