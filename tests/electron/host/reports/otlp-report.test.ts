/**
 * The OTLP/JSON report (`parallax report <id> --format otlp`) of real stored comparisons: four modes, two trials,
 * a fault, a step limit, an interrupted run (tests/fixtures/reports/stored), and a live comparison whose runs end
 * in error. Every figure is checked against the stored events (otlp-checks.ts).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StoredComparison } from '../../../../shared/ipc-contract.js';
import { reportFormatNamed, reportFormatOfFile } from '../../../../shared/report-formats.js';
import { groupByRun, summarizeRun } from '../../../../shared/summary.js';
import { buildReport } from '../../../../electron/host/reports/index.js';
import { readSpans, type FlatSpan } from '../../../helpers/otlp-receiver.js';
import { liveComparison } from './live-comparison.js';
import { checkTrace } from './otlp-checks.js';

const DIR = fileURLToPath(new URL('../../../fixtures/reports/stored/', import.meta.url));
const load = (name: string): StoredComparison =>
  JSON.parse(readFileSync(`${DIR}${name}.stored.json`, 'utf8')) as StoredComparison;
const spansOf = async (stored: StoredComparison): Promise<FlatSpan[]> =>
  readSpans(JSON.parse((await buildReport(stored, 'otlp')).content)).spans;
const op = (s: FlatSpan): unknown => s.attrs['gen_ai.operation.name'];

describe('the OTLP report of stored comparisons', () => {
  for (const name of ['four-modes', 'two-trials', 'malformed-args', 'step-limit', 'interrupted']) {
    it(`${name}: spans, parentage, timing and token sums match the stored events`, async () => {
      const stored = load(name);
      const figures = checkTrace(stored, await spansOf(stored));
      expect(figures.input).toBeGreaterThan(0);
    });
  }

  it('names its file .otlp.json and is found by that extension and by its names', async () => {
    const built = await buildReport(load('four-modes'), 'otlp');
    expect(built.fileName).toMatch(/\.otlp\.json$/);
    expect(built.mimeType).toBe('application/json');
    expect(reportFormatOfFile(built.fileName)).toBe('otlp');
    expect(reportFormatOfFile('trace.json')).toBe('json');
    expect(reportFormatNamed('OTel')).toBe('otlp');
  });

  it('follows the GenAI conventions: span names, kinds, operation names, provider and tool attributes', async () => {
    const stored = load('four-modes');
    const { resource, spans } = readSpans(JSON.parse((await buildReport(stored, 'otlp')).content));
    expect(resource['service.name']).toBe('parallax');
    const chat = spans.find((s) => op(s) === 'chat')!;
    expect(chat.name).toBe(`chat ${stored.meta.provider.model}`);
    expect(chat.kind).toBe(3); // CLIENT
    expect(chat.attrs['gen_ai.request.model']).toBe(stored.meta.provider.model);
    expect(chat.attrs['gen_ai.provider.name']).toBe('parallax.simulated');
    expect(chat.attrs['parallax.usage.source']).toBe('reported');
    expect(Array.isArray(chat.attrs['gen_ai.response.finish_reasons'])).toBe(true);
    const tool = spans.find((s) => op(s) === 'execute_tool' && s.attrs['gen_ai.tool.call.id'])!;
    expect(tool.name).toBe(`execute_tool ${tool.attrs['gen_ai.tool.name']}`);
    expect(tool.attrs['gen_ai.tool.type']).toBe('function');
    expect(typeof tool.attrs['parallax.tool.duration_ms']).toBe('number');
    const runs = spans.filter((s) => op(s) === 'invoke_agent');
    expect(runs.map((s) => s.attrs['parallax.mode'])).toEqual(stored.meta.runs.map((r) => r.mode));
    expect(runs.every((s) => s.name === `invoke_agent ${s.attrs['gen_ai.agent.name']}`)).toBe(true);
    const root = spans.find((s) => s.parentSpanId === null)!;
    expect(root.attrs['parallax.simulated']).toBe(true);
    expect(root.attrs['parallax.task.id']).toBe(stored.meta.task.id);
    // Calls inside Code Mode programs are children of the run_code span.
    const inner = spans.filter(
      (s) => spans.find((p) => p.spanId === s.parentSpanId)?.attrs['gen_ai.tool.name'] === 'run_code',
    );
    expect(inner.length).toBeGreaterThan(0);
  });

  it('gives each trial its own run span', async () => {
    const stored = load('two-trials');
    const runs = (await spansOf(stored)).filter((s) => op(s) === 'invoke_agent');
    expect(runs).toHaveLength(stored.meta.runs.length);
    expect(runs.map((s) => s.attrs['parallax.trial'])).toEqual(stored.meta.runs.map((r) => r.trial));
    expect(new Set(runs.map((s) => s.name)).size).toBe(runs.length);
  });

  it('marks the interrupted run and its unfinished work as errors', async () => {
    const stored = load('interrupted');
    const spans = await spansOf(stored);
    const [runId] = stored.interruptedRunIds;
    const run = spans.find((s) => s.attrs['parallax.run.id'] === runId)!;
    expect(run.status.code).toBe(2);
    expect(run.attrs['parallax.status']).toBe('interrupted');
  });

  it('comes out byte for byte the same on every export, and another comparison gets another trace id', async () => {
    const stored = load('four-modes');
    const a = (await buildReport(stored, 'otlp')).content;
    expect((await buildReport(stored, 'otlp')).content).toBe(a);
    const other = readSpans(
      JSON.parse(
        (await buildReport({ ...stored, meta: { ...stored.meta, id: `${stored.meta.id}-x` } }, 'otlp')).content,
      ),
    ).spans;
    expect(other[0].traceId).not.toBe((await spansOf(stored))[0].traceId);
  });
});

describe('the OTLP report of a comparison whose runs failed (live, fault 500)', () => {
  let stored: StoredComparison;
  beforeAll(async () => {
    stored = (await liveComparison(['--task', 'calc', '--fault', '500'])).stored;
  });

  it('records every failed attempt as an errored chat span and each run as errored, with sums of zero', async () => {
    const spans = await spansOf(stored);
    checkTrace(stored, spans);
    const byRun = groupByRun(stored.events);
    for (const r of stored.meta.runs) {
      const summary = summarizeRun(byRun.get(r.runId) ?? []);
      expect(summary.status).toBe('error');
      const run = spans.find((s) => s.attrs['parallax.run.id'] === r.runId)!;
      expect(run.status.message).toBe(summary.error);
      const chats = spans.filter((s) => s.parentSpanId === run.spanId && op(s) === 'chat');
      expect(chats.length).toBeGreaterThan(1);
      expect(chats.every((s) => s.status.code === 2)).toBe(true);
      expect(chats.slice(0, -1).every((s) => s.attrs['error.type'] === '500')).toBe(true);
    }
  });
});
