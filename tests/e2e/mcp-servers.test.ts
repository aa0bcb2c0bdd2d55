/**
 * MCP servers in the composer, in Debian Chromium against a real `parallax serve --allow-mcp-command <node>`:
 * a pasted config is checked as typed (the error names the server and the field), summarized in one line,
 * saved with the composer's settings, and a comparison against a loopback scripted model calls our own MCP
 * server's tool (tests/helpers/mcp-test-server.ts, written with the SDK): the call shows in the timeline, and
 * with "MCP tools: Ask me" the approval card names the tool and its server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, startServe, type Driven, type Served } from './harness.js';
import { waitForStatus } from './page-helpers.js';
import { saveShot } from './screenshots.js';
import { serverScript, tsx } from '../helpers/mcp-test-server.js';

const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

/** An OpenAI-style model that calls calc_add(2, 40) once, then answers with the tool's result. */
async function scriptedModel(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.method === 'GET')
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"object":"list","data":[{"id":"m"}]}');
    const body: Buffer[] = [];
    req.on('data', (c: Buffer) => body.push(c));
    req.on('end', () => {
      const request = JSON.parse(Buffer.concat(body).toString('utf8')) as {
        messages: { role: string; content: unknown }[];
      };
      const result = request.messages.find((m) => m.role === 'tool');
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (!result) {
        res.write(
          chunk({
            role: 'assistant',
            content: null,
            tool_calls: [
              { index: 0, id: 'c1', type: 'function', function: { name: 'calc_add', arguments: '{"a":2,"b":40}' } },
            ],
          }),
        );
        res.write(chunk({}, 'tool_calls'));
      } else {
        res.write(chunk({ role: 'assistant', content: `The sum is ${String(result.content)}.` }, 'stop'));
      }
      res.write(
        `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [], usage: { prompt_tokens: 50, completion_tokens: 5, total_tokens: 55 } })}\n\n`,
      );
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server };
}

const CONFIG = JSON.stringify(
  {
    mcpServers: {
      calc: { command: process.execPath, args: ['--import', tsx, serverScript], env: { CALC_TOKEN: 'tok-e2e-secret' } },
    },
  },
  null,
  2,
);

describe('MCP servers in the composer', () => {
  let served: Served;
  let driven: Driven;
  let model: Awaited<ReturnType<typeof scriptedModel>>;

  beforeAll(async () => {
    model = await scriptedModel();
    served = await startServe({}, ['--allow-mcp-command', process.execPath]);
    driven = await openPage(served.url);
    await driven.page.waitForSelector('[data-testid=connection-status]:has-text("Web host")');
  });
  afterAll(async () => {
    await driven?.close();
    await served?.stop();
    model?.server.closeAllConnections();
    await new Promise((ok) => model?.server.close(ok));
  });

  it('checks the pasted config as typed and summarizes its servers', async () => {
    const { page } = driven;
    await page.click('[data-testid=advanced-toggle]');
    await page.fill('[data-testid=mcp-config]', '{"mcpServers": {"calc": {"command": "node", "args": "server.js"}}}');
    expect(await page.textContent('[data-testid=mcp-config-error]')).toBe(
      'MCP server "calc": field "args": must be a list of strings, e.g. ["-y", "some-server"].',
    );
    expect(await page.locator('[data-testid=approval-mcp]').count()).toBe(0);
    await page.fill('[data-testid=mcp-config]', CONFIG);
    expect(await page.locator('[data-testid=mcp-config-error]').count()).toBe(0);
    expect(await page.textContent('[data-testid=mcp-summary]')).toMatch(/^1 server: calc \(stdio: .+…\)\.\s*$/);
    await page.locator('[data-testid=mcp-config]').scrollIntoViewIfNeeded();
    await saveShot(page, 'mcp-servers-field', { docs: false });
    // Saved with the other settings: a reload brings it back, without the env value (it may be a token).
    await page.waitForTimeout(400);
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain('tok-e2e-secret');
    await page.reload();
    await page.waitForSelector('[data-testid=composer]');
    if ((await page.locator('[data-testid=mcp-config]').count()) === 0)
      await page.click('[data-testid=advanced-toggle]');
    expect(await page.inputValue('[data-testid=mcp-config]')).toBe(CONFIG.replace('tok-e2e-secret', ''));
    await page.fill('[data-testid=mcp-config]', CONFIG); // the user enters the token again
    expect(driven.errors).toEqual([]);
  });

  it('runs a comparison whose model calls the MCP tool, asking first, naming the tool and its server', async () => {
    const { page } = driven;
    await page.selectOption('[data-testid=approval-mcp]', 'ask');
    await page.locator('[data-testid=approval-mcp]').scrollIntoViewIfNeeded();
    await saveShot(page, 'mcp-approval-setting', { docs: false });
    await page.selectOption('[data-testid=provider-select]', 'custom');
    await page.fill('[data-testid=base-url]', model.url);
    await page.fill('[data-testid=model-input]', 'm');
    await page.check('[data-testid=task-calc] input');
    await page.uncheck('[data-testid=mode-code] input');
    await page.click('[data-testid=run]');
    const card = page.locator('[data-testid=approval-card]');
    await card.waitFor();
    expect(await card.getAttribute('data-tool')).toBe('calc_add');
    expect(await card.locator('[data-testid=approval-server]').textContent()).toBe('calc');
    await saveShot(page, 'mcp-approval', { docs: false });
    await card.locator('[data-testid=approval-allow]').click();
    expect(await waitForStatus(page, 'react', ['answered', 'error', 'crashed', 'max-steps'], 60_000)).toBe('answered');
    const call = page.locator('[data-testid=tool-call][data-tool=calc_add]');
    await call.waitFor();
    expect(await call.textContent()).toContain('42');
    await call.scrollIntoViewIfNeeded();
    await saveShot(page, 'mcp-tool-call', { docs: false });
    expect(served.output()).not.toContain('tok-e2e-secret');
    expect(driven.errors).toEqual([]);
  });
});
