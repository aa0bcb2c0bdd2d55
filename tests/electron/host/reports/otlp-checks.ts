/**
 * Test helper: what any OTLP trace of a stored comparison must hold, checked against the stored events with the
 * report math (shared/summary.ts): one trace with the derived id; every child inside its parent in time; one
 * invoke_agent span per run; per run, the chat spans' gen_ai.usage sums equal to the run's totals; one chat span
 * per model request and per history summary request, one execute_tool span per tool call, calls made inside
 * programs under their run_code span, and an MCP server's sampling requests as chat spans under the call that asked.
 */
import { expect } from 'vitest';
import type { StoredComparison } from '../../../../shared/ipc-contract.js';
import { groupByRun, summarizeRun } from '../../../../shared/summary.js';
import { traceIdOf } from '../../../../electron/host/reports/otlp-spans.js';
import type { FlatSpan } from '../../../helpers/otlp-receiver.js';

const op = (s: FlatSpan): unknown => s.attrs['gen_ai.operation.name'];
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

export interface TraceFigures {
  readonly input: number;
  readonly output: number;
}

export function checkTrace(stored: StoredComparison, spans: readonly FlatSpan[]): TraceFigures {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  expect(byId.size, 'span ids are unique').toBe(spans.length);
  expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([traceIdOf(stored.meta.id)]));
  const roots = spans.filter((s) => s.parentSpanId === null);
  expect(roots).toHaveLength(1);
  const root = roots[0];
  expect(root.attrs['parallax.comparison.id']).toBe(stored.meta.id);
  expect(root.attrs['parallax.simulated']).toBe(stored.meta.provider.simulated);
  for (const s of spans) {
    expect(s.end >= s.start, `${s.name} ends after it starts`).toBe(true);
    // Only model requests are generations (where Langfuse counts usage and cost).
    expect(s.attrs['langfuse.observation.type'] === 'generation', s.name).toBe(op(s) === 'chat');
    if (s === root) continue;
    const parent = byId.get(s.parentSpanId!);
    expect(parent, `${s.name}'s parent is in the trace`).toBeDefined();
    expect(s.start >= parent!.start && s.end <= parent!.end, `${s.name} lies inside ${parent!.name}`).toBe(true);
    if (op(s) !== 'chat')
      expect(
        Object.keys(s.attrs).filter((k) => k.startsWith('gen_ai.usage.')),
        s.name,
      ).toEqual([]);
  }
  const runSpans = spans.filter((s) => op(s) === 'invoke_agent');
  expect(runSpans.map((s) => s.parentSpanId)).toEqual(runSpans.map(() => root.spanId));
  expect(runSpans.map((s) => s.attrs['parallax.run.id']).sort()).toEqual(stored.meta.runs.map((r) => r.runId).sort());
  const byRun = groupByRun(stored.events);
  let input = 0,
    output = 0;
  for (const run of runSpans) {
    const runId = run.attrs['parallax.run.id'] as string;
    const events = byRun.get(runId) ?? [];
    const summary = summarizeRun(events);
    const children = spans.filter((s) => s.parentSpanId === run.spanId);
    const chats = children.filter((s) => op(s) === 'chat');
    const tools = children.filter((s) => op(s) === 'execute_tool');
    expect(children.length, `${runId}: only chat and tool spans under a run`).toBe(chats.length + tools.length);
    const inTools = spans.filter((s) => op(s) === 'chat' && tools.some((t) => t.spanId === s.parentSpanId));
    const allChats = [...chats, ...inTools];
    const sum = (key: string): number => allChats.reduce((n, s) => n + num(s.attrs[key]), 0);
    expect(sum('gen_ai.usage.input_tokens'), `${runId} input tokens`).toBe(summary.totals.prompt);
    expect(sum('gen_ai.usage.output_tokens'), `${runId} output tokens`).toBe(summary.totals.completion);
    expect(sum('gen_ai.usage.cache_read.input_tokens'), `${runId} cached tokens`).toBe(summary.totals.cached);
    expect(run.attrs['parallax.totals.input_tokens']).toBe(summary.totals.prompt);
    expect(run.attrs['parallax.totals.output_tokens']).toBe(summary.totals.completion);
    const kind = (k: string) => allChats.filter((s) => s.attrs['parallax.request.kind'] === k);
    expect(kind('step')).toHaveLength(events.filter((e) => e.type === 'model-request').length);
    expect(kind('history-summary')).toHaveLength(events.filter((e) => e.type === 'history-summary').length);
    expect(kind('mcp-sampling')).toHaveLength(events.filter((e) => e.type === 'sampling').length);
    expect(inTools.every((s) => s.attrs['parallax.request.kind'] === 'mcp-sampling')).toBe(true);
    expect(allChats).toHaveLength(kind('step').length + kind('history-summary').length + kind('mcp-sampling').length);
    const started = events.filter((e) => e.type === 'tool-started');
    expect(tools.map((s) => s.attrs['gen_ai.tool.call.id']).sort()).toEqual(started.map((e) => e.callId).sort());
    for (const e of events) {
      if (e.type !== 'code-run') continue;
      const call = tools.find((s) => s.attrs['gen_ai.tool.call.id'] === e.callId)!;
      const inner = spans.filter((s) => s.parentSpanId === call.spanId && op(s) === 'execute_tool');
      expect(inner.map((s) => s.attrs['gen_ai.tool.name'])).toEqual(e.toolCalls.map((c) => c.name));
      expect(inner.map((s) => s.attrs['parallax.tool.result_bytes'])).toEqual(e.toolCalls.map((c) => c.resultBytes));
    }
    const answered = summary.status === 'answered';
    expect(run.status.code, `${runId} (${summary.status}) status`).toBe(answered ? 0 : 2);
    input += summary.totals.prompt;
    output += summary.totals.completion;
  }
  const all = (key: string): number => spans.reduce((n, s) => n + num(s.attrs[key]), 0);
  expect(all('gen_ai.usage.input_tokens')).toBe(input);
  expect(all('gen_ai.usage.output_tokens')).toBe(output);
  return { input, output };
}
