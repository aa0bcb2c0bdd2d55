/**
 * MCP events in the reports, from a real comparison (a real worker, our SDK test server over stdio, a scripted
 * model on loopback): a call that reports progress, one whose server asks for sampling, one with annotated
 * result parts and tool hints, and one whose server asks the user (declined: nobody can answer there yet). The HTML and Markdown reports say what the app's timeline says, and the step
 * rows plus the sampling sentence add up to the run's totals.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredComparison } from '../../../../shared/ipc-contract.js';
import { computeTotals } from '../../../../shared/summary.js';
import { createHost } from '../../../../electron/host/host.js';
import { cliMcp } from '../../../../electron/host/mcp-access.js';
import { buildReport } from '../../../../electron/host/reports/index.js';
import { readSpans } from '../../../helpers/otlp-receiver.js';
import { stdioServer } from '../../../helpers/mcp-test-server.js';
import { checkTrace } from './otlp-checks.js';
import { mcpScriptedModel, type ScriptedModel } from '../../../helpers/mcp-scripted-model.js';

let stored: StoredComparison;
let model: ScriptedModel;
const warnings: string[] = [];

beforeAll(async () => {
  model = await mcpScriptedModel([
    { name: 't_flood', args: { count: 30, settleMs: 300 } },
    { name: 't_sample', args: { chars: 12, maxTokens: 5 } },
    { name: 't_annotated', args: {} },
    {
      name: 't_ask',
      args: { message: 'Your name?', schema: { type: 'object', properties: { name: { type: 'string' } } } },
    },
  ]);
  // Nobody can answer a form here (no page, no terminal): the engine declines it, as the report then says.
  const host = createHost({
    dataDir: await mkdtemp(join(tmpdir(), 'parallax-mcp-report-')),
    elicitation: false,
    getApiKey: async () => null,
    onWarning: (w) => warnings.push(w),
    onEvents: () => {},
    mcp: cliMcp(),
  });
  try {
    const meta = await host['comparison:start']({
      task: 'calc',
      modes: ['react'],
      provider: { name: 'custom', baseUrl: model.url, model: 'm' },
      mcpServers: [stdioServer('t')],
    });
    await host.whenDone(meta.id);
    stored = await host['history:open'](meta.id);
  } finally {
    await host.close();
  }
});
afterAll(async () => {
  await model?.close();
});

describe('MCP events in the reports', () => {
  it('the run made the three calls and one sampling request, counted in its totals', () => {
    expect(warnings).toEqual([]);
    const types = stored.events.map((e) => e.type);
    expect(types).toContain('tool-progress');
    expect(stored.events.filter((e) => e.type === 'sampling')).toHaveLength(1);
    const totals = computeTotals(stored.events);
    expect(totals).toMatchObject({ steps: 5, requests: 6, prompt: 5 * 50 + 7, completion: 5 * 5 + 3 });
  });

  it('HTML: hints, last progress, the sampling request with its tokens and texts, annotated parts, and the sampling sentence', async () => {
    const { content } = await buildReport(stored, 'html');
    expect(content).toContain('MCP tool “annotated” of t · Annotated parts · the server says: read-only, idempotent');
    expect(content).toContain('MCP tool “flood” of t · no hints from the server (treated as destructive)');
    expect(content).toMatch(/<p data-mcp="progress">Last progress: 30 of 30 — step 30/);
    expect(content).toContain(
      'Sampling asked by t, answered by the run&#39;s model: 7 prompt + 3 completion tokens (in the run&#39;s totals)',
    );
    expect(content).toContain('[user] xxxxxxxxxxxx');
    expect(content).toMatch(/Replied by the model<\/div><pre>sampled reply<\/pre>/);
    expect(content).toContain('Result parts: text for user (priority 0.9)');
    expect(content).toContain(
      'MCP sampling: 1 request from servers, answered by the run&#39;s model: 7 prompt + 3 completion tokens. They are in the run&#39;s totals and not in the steps above.',
    );
    // Nobody can answer a server's question in the app's runs yet: declined, saying so.
    expect(content).toMatch(
      /<p data-mcp="elicitation" data-action="decline" class="muted">t asked the user “Your name\?” \(1 field\): declined by Parallax: nobody can answer in this run<\/p>/,
    );
    // The hostile server's control characters never reach the page.
    expect(content).not.toContain(String.fromCharCode(27));
  });

  it('Markdown: an MCP list under the steps, and the steps plus sampling make the summary total', async () => {
    const { content } = await buildReport(stored, 'md');
    const list = content.slice(content.indexOf('**MCP**'));
    expect(list).toMatch(
      /^\*\*MCP\*\*\n\n- Step 1: `t_flood`: MCP tool “flood” of t · no hints from the server \(treated as destructive\)\. Last progress: 30 of 30 — step 30/,
    );
    expect(list).toContain(
      "- Step 2: `t_sample`: MCP tool “sample” of t · no hints from the server (treated as destructive). Sampling asked by t, answered by the run's model: 7 prompt + 3 completion tokens (in the run's totals)",
    );
    expect(list).toContain(
      '- Step 3: `t_annotated`: MCP tool “annotated” of t · Annotated parts · the server says: read-only, idempotent. Result parts: text for user (priority 0.9)',
    );
    expect(list).toContain(
      "MCP sampling: 1 request from servers, answered by the run's model: 7 prompt + 3 completion tokens.",
    );
    const rows = [...content.matchAll(/^\| (\d) \| ([\d,]+) \| ([\d,]+) \|/gm)].map((m) => [
      Number(m[2]),
      Number(m[3]),
    ]);
    expect(list).toContain(
      '- Step 4: `t_ask`: MCP tool “ask” of t · no hints from the server (treated as destructive). t asked the user “Your name?” (1 field): declined by Parallax: nobody can answer in this run',
    );
    expect(rows).toHaveLength(5);
    const stepPrompt = rows.reduce((n, r) => n + r[0], 0);
    const stepCompletion = rows.reduce((n, r) => n + r[1], 0);
    expect(content).toMatch(new RegExp(`\\| Prompt tokens \\| ${stepPrompt + 7} \\|`));
    expect(content).toMatch(new RegExp(`\\| Completion tokens \\| ${stepCompletion + 3} \\|`));
  });

  it('OTLP: the sampling request is a chat span under the call that asked, so the spans sum to the run totals', async () => {
    const { spans } = readSpans(JSON.parse((await buildReport(stored, 'otlp')).content));
    checkTrace(stored, spans);
    const sampling = spans.find((s) => s.attrs['parallax.request.kind'] === 'mcp-sampling')!;
    expect(sampling.attrs).toMatchObject({
      'gen_ai.usage.input_tokens': 7,
      'gen_ai.usage.output_tokens': 3,
      'parallax.sampling.server': 't',
      'gen_ai.request.max_tokens': 5,
    });
    expect(spans.find((s) => s.spanId === sampling.parentSpanId)!.attrs['gen_ai.tool.name']).toBe('t_sample');
  });
});
