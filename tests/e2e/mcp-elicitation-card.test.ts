/**
 * An MCP server's form answered in the app's card, in Debian Chromium against a real `parallax serve
 * --allow-mcp-command <node>`: a scripted model on loopback calls the SDK test server's `ask` tool, whose
 * result is what the server received. The card is built from the server's schema, checks what is typed, is
 * answered from the keyboard, passes the axe audit; a cancel of the run closes it and the record keeps both
 * the request and its ending.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, startServe, type Driven, type Served } from './harness.js';
import { composeMcpRun, waitForStatus } from './page-helpers.js';
import { saveShot } from './screenshots.js';
import { auditBothThemes, describeFindings } from './a11y-audit.js';
import { serverScript, tsx } from '../helpers/mcp-test-server.js';
import { mcpScriptedModel, type ScriptedModel } from '../helpers/mcp-scripted-model.js';
import type { StepEvent } from '../../shared/step-event.js';

const CONFIG = JSON.stringify({
  mcpServers: { t: { command: process.execPath, args: ['--import', tsx, serverScript] } },
});
const FORM = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Your name', description: 'As the report should show it.', minLength: 2 },
    age: { type: 'integer', title: 'Age', minimum: 0, maximum: 150 },
    colour: {
      type: 'string',
      title: 'Colour',
      oneOf: [
        { const: 'r', title: 'Red' },
        { const: 'g', title: 'Green' },
      ],
    },
    copy: { type: 'boolean', title: 'Send me a copy' },
    tags: {
      type: 'array',
      title: 'Tags',
      items: {
        anyOf: [
          { const: 'a', title: 'Alpha' },
          { const: 'b', title: 'Bravo' },
          { const: 'c', title: 'Charlie' },
        ],
      },
    },
  },
  required: ['name', 'colour'],
};
const TERMINAL = ['answered', 'error', 'crashed', 'max-steps', 'failed-validation', 'cancelled'];

/** Every event of the web host's stored runs (the record on disk). */
function stored(dataDir: string): StepEvent[] {
  const out: StepEvent[] = [];
  const walk = (dir: string): void => {
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      if (d.isDirectory()) walk(join(dir, d.name));
      else if (d.name.endsWith('.jsonl'))
        out.push(
          ...readFileSync(join(dir, d.name), 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as StepEvent),
        );
    }
  };
  walk(dataDir);
  return out;
}

describe('the MCP form card', () => {
  let served: Served;
  let driven: Driven;
  let model: ScriptedModel;

  beforeAll(async () => {
    model = await mcpScriptedModel([
      { name: 't_ask', args: { message: 'Who are you?', schema: FORM } },
      { name: 't_ask', args: { message: 'And once more?', schema: FORM } },
    ]);
    served = await startServe({}, ['--allow-mcp-command', process.execPath]);
    driven = await openPage(served.url);
    await driven.page.waitForSelector('[data-testid=connection-status]:has-text("Web host")');
    const { page } = driven;
    await composeMcpRun(page, CONFIG, model.url);
  });
  afterAll(async () => {
    await driven?.close();
    await served?.stop();
    await model?.close();
  });

  it('builds the form from the schema, checks it, sends the answer from the keyboard; the server gets it and the record shows it', async () => {
    const { page } = driven;
    await page.click('[data-testid=run]');
    await page.click('[data-testid=tab-timeline]');
    const card = page.locator('[data-testid=elicitation-card]');
    await card.waitFor({ timeout: 120_000 });
    expect(await card.getAttribute('role')).toBe('dialog');
    expect(await card.getAttribute('aria-label')).toBe('MCP server t asks you');
    expect(await card.locator('[data-testid=elicitation-message]').textContent()).toBe('Who are you?');
    await page.locator('[data-testid=needs-answer]').waitFor();
    // One labelled control per field, of the field's kind.
    expect(await card.getByLabel('Your name').getAttribute('type')).toBe('text');
    expect(await card.getByLabel('Age').getAttribute('type')).toBe('number');
    expect(await card.getByLabel('Colour').evaluate((el) => el.tagName)).toBe('SELECT');
    expect(await card.getByLabel('Send me a copy').getAttribute('type')).toBe('checkbox');
    expect(await card.locator('fieldset legend').textContent()).toMatch(/^Tags/);

    const found = await auditBothThemes(page, 'MCP form card');
    expect(found, describeFindings(found)).toEqual([]);

    // A value that does not fit: nothing is sent, the field says why and has the focus.
    await card.getByLabel('Your name').fill('A');
    await card.getByLabel('Age').fill('200');
    await card.getByLabel('Your name').press('Enter');
    expect(await card.locator('[data-testid=elicit-error-name]').textContent()).toBe(
      'Your name: at least 2 characters',
    );
    expect(await card.locator('[data-testid=elicit-error-age]').textContent()).toBe('Age: at most 150');
    expect(await card.locator('[data-testid=elicit-error-colour]').textContent()).toBe('Colour is required');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('elicit-field-name');
    expect(await card.getByLabel('Your name').getAttribute('aria-invalid')).toBe('true');
    expect(model.requests.length).toBe(1);

    // Filled in from the keyboard only.
    await card.getByLabel('Your name').fill('Ada');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab'); // past the description, to Age
    await card.getByLabel('Age').fill('36');
    await card.getByLabel('Colour').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await card.getByLabel('Colour').inputValue()).toBe('g');
    await card.getByLabel('Send me a copy').focus();
    await page.keyboard.press('Space');
    await card.getByLabel('Alpha', { exact: true }).focus();
    await page.keyboard.press('Space');
    await card.getByLabel('Charlie', { exact: true }).focus();
    await page.keyboard.press('Space');
    await page.setViewportSize({ width: 1280, height: 900 });
    await card.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await saveShot(page, 'mcp-elicitation-card');
    await page.locator('[data-testid=elicitation-accept]').focus();
    await page.keyboard.press('Enter');

    // The second form, declined with the keyboard.
    await page
      .locator('[data-testid=elicitation-card] [data-testid=elicitation-message]:has-text("And once more?")')
      .waitFor();
    await page.locator('[data-testid=elicitation-decline]').focus();
    await page.keyboard.press('Space');
    expect(await waitForStatus(page, 'react', TERMINAL, 90_000)).toBe('answered');
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await page.locator('[data-testid=elicitation-card]').count()).toBe(0);
    expect(await page.locator('[data-testid=needs-answer]').count()).toBe(0);

    // What the server received, as its tool returned it to the model.
    const replies = (model.requests.at(-1)!.messages as { role: string; content: string }[])
      .filter((m) => m.role === 'tool')
      .map((m) => JSON.parse(m.content) as unknown);
    expect(replies).toEqual([
      [{ action: 'accept', content: { name: 'Ada', age: 36, colour: 'g', copy: true, tags: ['a', 'c'] } }],
      [{ action: 'decline' }],
    ]);
    // The timeline's record of each, and the stored one.
    const notes = page.locator('[data-testid=mcp-elicitation]');
    expect(await notes.evaluateAll((els) => els.map((e) => e.getAttribute('data-action')))).toEqual([
      'accept',
      'decline',
    ]);
    expect(await notes.first().textContent()).toMatch(/Ada/);
    const events = stored(served.dataDir);
    expect(
      events
        .filter((e) => e.type === 'elicitation-requested')
        .map((e) => e.type === 'elicitation-requested' && e.elicitationId),
    ).toEqual(['e1', 'e2']);
    expect(events.filter((e) => e.type === 'elicitation')).toEqual([
      expect.objectContaining({
        elicitationId: 'e1',
        action: 'accept',
        content: { name: 'Ada', age: 36, colour: 'g', copy: true, tags: ['a', 'c'] },
      }),
      expect.objectContaining({ elicitationId: 'e2', action: 'decline' }),
    ]);
    expect(driven.errors).toEqual([]);
  });

  it('closes the card when the run is cancelled while it waits; the record keeps the request and its ending', async () => {
    const { page } = driven;
    await page.click('[data-testid=run]');
    await page.click('[data-testid=tab-timeline]');
    const card = page.locator('[data-testid=elicitation-card]');
    await card.waitFor({ timeout: 120_000 });
    await card.getByLabel('Your name').fill('Typed, not sent');
    const runId = await card.evaluate((el) => el.closest('[data-run-id]')?.getAttribute('data-run-id') ?? null);
    await page.click('[data-testid=cancel-run-react]');
    expect(await waitForStatus(page, 'react', TERMINAL, 60_000)).toBe('cancelled');
    await card.waitFor({ state: 'detached' });
    const note = page.locator('[data-testid=mcp-elicitation]');
    expect(await note.getAttribute('data-action')).toBe('cancel');
    const events = stored(served.dataDir).filter((e) => runId === null || e.runId === runId);
    const last = events.filter((e) => e.type === 'elicitation').at(-1);
    expect(last).toMatchObject({ action: 'cancel', reason: 'the run or the call ended first' });
    expect(driven.errors).toEqual([]);
  });
});
