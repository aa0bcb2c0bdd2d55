/**
 * The timeline's MCP notes, in Debian Chromium against a real `parallax serve --allow-mcp-command <node>`: a
 * scripted model on loopback calls three tools of our SDK test server (tests/helpers/mcp-test-server.ts):
 * one that reports progress, one whose server asks for sampling (answered by the run's model), and one with
 * tool hints and annotated result parts. Each call shows its notes, and the sampling tokens are in the
 * column's total.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, startServe, type Driven, type Served } from './harness.js';
import { composeMcpRun, summaryValue, waitForStatus } from './page-helpers.js';
import { saveShot } from './screenshots.js';
import { serverScript, tsx } from '../helpers/mcp-test-server.js';
import { mcpScriptedModel, type ScriptedModel } from '../helpers/mcp-scripted-model.js';

const CONFIG = JSON.stringify({
  mcpServers: { t: { command: process.execPath, args: ['--import', tsx, serverScript] } },
});

describe('MCP notes in the timeline', () => {
  let served: Served;
  let driven: Driven;
  let model: ScriptedModel;

  beforeAll(async () => {
    model = await mcpScriptedModel([
      { name: 't_flood', args: { count: 40, settleMs: 2000 } },
      { name: 't_sample', args: { chars: 12, maxTokens: 5 } },
      { name: 't_annotated', args: {} },
    ]);
    served = await startServe({}, ['--allow-mcp-command', process.execPath]);
    driven = await openPage(served.url);
    await driven.page.waitForSelector('[data-testid=connection-status]:has-text("Web host")');
  });
  afterAll(async () => {
    await driven?.close();
    await served?.stop();
    await model?.close();
  });

  it('shows progress, sampling and annotations on their calls', async () => {
    const { page } = driven;
    await composeMcpRun(page, CONFIG, model.url);
    await page.click('[data-testid=run]');
    expect(
      await waitForStatus(page, 'react', ['answered', 'error', 'crashed', 'max-steps', 'failed-validation'], 90_000),
    ).not.toMatch(/error|crashed/);

    await page.click('[data-testid=tab-timeline]');
    const flood = page.locator('[data-testid=tool-call][data-tool=t_flood]');
    await flood.waitFor();
    expect(await flood.locator('[data-testid=mcp-hints]').textContent()).toBe(
      'MCP tool “flood” of t · no hints from the server (treated as destructive)',
    );
    const progress = flood.locator('[data-testid=mcp-progress]');
    expect(await progress.getAttribute('data-progress')).toBe('40');
    expect(await progress.getAttribute('data-total')).toBe('40');
    expect(await progress.textContent()).toMatch(/^Last progress: 40 of 40 — step 40 \[2J rm -rf \/$/);
    expect(await progress.locator('progress').getAttribute('aria-label')).toBe('t_flood progress');

    const sample = page.locator('[data-testid=tool-call][data-tool=t_sample]');
    expect(await sample.locator('[data-testid=mcp-sampling]').textContent()).toBe(
      "Sampling asked by t, answered by the run's model: 7 prompt + 3 completion tokens (in the run's totals)",
    );

    const annotated = page.locator('[data-testid=tool-call][data-tool=t_annotated]');
    expect(await annotated.locator('[data-testid=mcp-hints]').textContent()).toBe(
      'MCP tool “annotated” of t · Annotated parts · the server says: read-only, idempotent',
    );
    expect(await annotated.locator('[data-testid=mcp-content]').textContent()).toBe(
      'Result parts: text for user (priority 0.9)',
    );

    // Tall enough for the three calls in one picture.
    await page.setViewportSize({ width: 1280, height: 1040 });
    await flood.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await saveShot(page, 'mcp-timeline-notes');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Four steps of 50 + 5 tokens, and the sampling request's 7 + 3, in the column's totals.
    await page.click('[data-testid=tab-charts]');
    await page.locator('[data-testid=sum-total-react]').waitFor();
    expect(await summaryValue(page, 'total', 'react')).toBe(4 * 55 + 10);
    expect(await summaryValue(page, 'requests', 'react')).toBe(5);
    expect(driven.errors).toEqual([]);
  });
});
