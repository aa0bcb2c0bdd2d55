/**
 * A summarize:1 comparison in the reports, from a real `parallax compare` (simulated model, real workers): the
 * HTML, Markdown, JSON and CSV reports show each summary request with its tokens and what it replaced, and the
 * step rows plus the summaries add up to the run's totals, as MCP sampling does.
 */
import Papa from 'papaparse';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StoredComparison } from '../../../../shared/ipc-contract.js';
import type { HistorySummaryEvent, ModelResponseEvent } from '../../../../shared/step-event.js';
import { computeTotals } from '../../../../shared/summary.js';
import { buildReport } from '../../../../electron/host/reports/index.js';
import { stepLine } from '../../../../electron/cli/step-printer.js';
import { readSpans } from '../../../helpers/otlp-receiver.js';
import { liveComparison } from './live-comparison.js';
import { checkTrace } from './otlp-checks.js';

let stored: StoredComparison;
let summaries: HistorySummaryEvent[];
let steps: ModelResponseEvent[];
const esc = (s: string) => s.replace(/'/g, '&#39;');
const fmt = (n: number) => n.toLocaleString('en-US');

beforeAll(async () => {
  stored = (
    await liveComparison(['--task', 'log-stats', '--modes', 'react', '--settings', '{"toolHistory":"summarize:1"}'])
  ).stored;
  summaries = stored.events.filter((e): e is HistorySummaryEvent => e.type === 'history-summary');
  steps = stored.events.filter((e): e is ModelResponseEvent => e.type === 'model-response');
});

describe('history summaries in the reports', () => {
  it('the run summarised, and its totals are its steps plus its summaries', () => {
    expect(summaries.length).toBeGreaterThan(0);
    expect(summaries.every((s) => s.error === null && s.usage)).toBe(true);
    const t = computeTotals(stored.events);
    const sum = (xs: readonly { usage: { prompt: number; completion: number } | null }[], k: 'prompt' | 'completion') =>
      xs.reduce((n, e) => n + (e.usage?.[k] ?? 0), 0);
    expect(t.prompt).toBe(sum(steps, 'prompt') + sum(summaries, 'prompt'));
    expect(t.completion).toBe(sum(steps, 'completion') + sum(summaries, 'completion'));
    expect(t.requests).toBe(steps.length + summaries.length);
  });

  it('HTML: a card per summary in its step, with what it replaced and its tokens, and the totals sentence', async () => {
    const { content } = await buildReport(stored, 'html');
    const s = summaries[0]!;
    expect(content).toContain(esc(`History summary before step ${s.step}: step 1 (`));
    expect(content).toContain(
      esc(
        `${fmt(s.replacedTokens)} tokens) replaced by a summary the run's model wrote; the request cost ${fmt(s.usage!.prompt)} prompt + ${fmt(s.usage!.completion)} completion tokens (in the run's totals, simulated).`,
      ),
    );
    expect(content.match(/data-history="summary"/g)).toHaveLength(summaries.length);
    const p = summaries.reduce((n, x) => n + x.usage!.prompt, 0);
    const c = summaries.reduce((n, x) => n + x.usage!.completion, 0);
    // Under the composition chart: what the summaries replaced, from each step's composition.
    expect(content).toMatch(
      /<p class="muted" data-history="composition-note">history summary: steps 1–\d+ sent as a [\d,]+-token summary instead of [\d,]+ tokens; [\d,]+ tokens (not re-sent|more sent) \(simulated\) over \d+ requests \(in Earlier replies\)<\/p>/,
    );
    expect(content).toContain(
      esc(
        `History summaries: ${summaries.length} requests to the run's model: ${fmt(p)} prompt + ${fmt(c)} completion tokens (simulated). They are in the run's totals and not in the steps above.`,
      ),
    );
  });

  it('Markdown: a list under the steps, and the step rows plus the summaries make the summary table total', async () => {
    const { content } = await buildReport(stored, 'md');
    const list = content.slice(content.indexOf('**History summaries**'));
    expect(list.match(/^- History summary before step \d+:/gm)).toHaveLength(summaries.length);
    const rows = [...content.matchAll(/^\| (\d+) \| ([\d,]+) \| ([\d,]+) \|/gm)].map(
      (m) => [Number(m[2]!.replace(/,/g, '')), Number(m[3]!.replace(/,/g, ''))] as const,
    );
    expect(rows).toHaveLength(steps.length);
    const p = summaries.reduce((n, x) => n + x.usage!.prompt, 0);
    const c = summaries.reduce((n, x) => n + x.usage!.completion, 0);
    const total = (k: 0 | 1) => rows.reduce((n, r) => n + r[k], 0);
    expect(content).toMatch(new RegExp(`\\| Prompt tokens \\| ${fmt(total(0) + p)} \\|`));
    expect(content).toMatch(new RegExp(`\\| Completion tokens \\| ${fmt(total(1) + c)} \\|`));
  });

  it('JSON: the summary events come back whole, and the run totals count them', async () => {
    const { content } = await buildReport(stored, 'json');
    const doc = JSON.parse(content) as {
      events: { type: string }[];
      summary: { runs: { totals: { prompt: number } }[] };
    };
    expect(doc.events.filter((e) => e.type === 'history-summary')).toEqual(summaries);
    expect(doc.summary.runs[0]!.totals.prompt).toBe(computeTotals(stored.events).prompt);
  });

  it('CSV: one history-summary row per request; step rows plus those make the run total', async () => {
    const { content } = await buildReport(stored, 'csv');
    const rows = Papa.parse<Record<string, string>>(content.trim(), { header: true }).data;
    const kinds = (k: string) => rows.filter((r) => r.row === k);
    expect(kinds('step')).toHaveLength(steps.length);
    const extra = kinds('history-summary');
    expect(extra).toHaveLength(summaries.length);
    expect(extra[0]!.sentence).toContain(`History summary before step ${summaries[0]!.step}`);
    expect(extra.every((r) => r.simulated === 'true')).toBe(true);
    const prompt = [...kinds('step'), ...extra].reduce((n, r) => n + Number(r.prompt), 0);
    expect(prompt).toBe(computeTotals(stored.events).prompt);
  });

  it('CLI: the step printer prints a line per summary', () => {
    const s = summaries[0]!;
    expect(stepLine(s)).toBe(
      `     History summary before step ${s.step}: step 1 (${s.replacedMessages} messages, ${fmt(s.replacedTokens)} tokens) replaced by a summary the run's model wrote; the request cost ${fmt(s.usage!.prompt)} prompt + ${fmt(s.usage!.completion)} completion tokens (in the run's totals).`,
    );
  });

  it('OTLP: each summary request is a chat span of the run, so the spans sum to the run totals', async () => {
    const { spans } = readSpans(JSON.parse((await buildReport(stored, 'otlp')).content));
    checkTrace(stored, spans);
    const got = spans.filter((s) => s.attrs['parallax.request.kind'] === 'history-summary');
    expect(
      got.map((s) => [
        s.attrs['parallax.summary.from_step'],
        s.attrs['parallax.summary.to_step'],
        s.attrs['parallax.summary.replaced_tokens'],
        s.attrs['gen_ai.usage.input_tokens'],
      ]),
    ).toEqual(summaries.map((x) => [x.fromStep, x.toStep, x.replacedTokens, x.usage!.prompt]));
  });
});
