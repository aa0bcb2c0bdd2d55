import { describe, expect, it } from 'vitest';
import type { StepEvent, StepEventInput } from '../../shared/step-event.js';
import { DEFAULT_SETTINGS } from '../../shared/run-spec.js';
import {
  aggregateByColumn,
  computePerStep,
  computeTotals,
  formatPercent,
  groupByRun,
  percentDiff,
  stat,
  summarizeComparison,
  summarizeRun,
} from '../../shared/summary.js';

/** A small run built event by event, the way the engine stamps them. */
function stamp(runId: string, inputs: { e: StepEventInput; t: number }[]): StepEvent[] {
  return inputs.map(({ e, t }, seq) => ({ ...e, runId, seq, t }) as StepEvent);
}

const provider = { name: 'simulated', baseUrl: 'http://127.0.0.1:1/v1', model: 'sim', simulated: true };
const started = (mode: 'react' | 'code'): StepEventInput => ({
  type: 'run-started',
  mode,
  task: { id: 'calc', text: 'q' },
  provider,
  settings: DEFAULT_SETTINGS,
  systemPrompt: 's',
  tools: [],
  startedAt: 1_000_000,
});

function run(
  runId: string,
  mode: 'react' | 'code',
  usages: ({ prompt: number; completion: number; cached?: number } | null)[],
): StepEvent[] {
  const inputs: { e: StepEventInput; t: number }[] = [{ e: started(mode), t: 0 }];
  let t = 5;
  usages.forEach((u, i) => {
    const step = i + 1;
    inputs.push({ e: { type: 'model-request', step, attempt: 1, messageCount: 2 + i, toolNames: [] }, t: (t += 1) });
    const last = i === usages.length - 1;
    inputs.push({
      e: {
        type: 'model-response',
        step,
        usage: u,
        latencyMs: 10,
        finishReason: last ? 'stop' : 'tool_calls',
        text: last ? 'done' : '',
        toolCalls: last ? [] : [{ id: `c${step}`, name: 'read_file', arguments: '{}' }],
      },
      t: (t += 10),
    });
  });
  const events = stamp(runId, inputs);
  const totals = computeTotals(events);
  return [
    ...events,
    {
      type: 'run-finished',
      status: 'answered',
      answer: 'done',
      validation: { ok: true, detail: 'ok' },
      totals,
      runId,
      seq: events.length,
      t: t + 500,
    },
  ];
}

describe('report math', () => {
  it('sums per-step usage into totals, counting a step without usage as zero and flagging it', () => {
    const events = run('r1', 'react', [
      { prompt: 100, completion: 10, cached: 40 },
      null,
      { prompt: 300, completion: 30 },
    ]);
    const per = computePerStep(events);
    expect(per.map((p) => [p.step, p.prompt, p.completion, p.usageMissing])).toEqual([
      [1, 100, 10, false],
      [2, 0, 0, true],
      [3, 300, 30, false],
    ]);
    const totals = computeTotals(events);
    expect(totals).toMatchObject({
      steps: 3,
      requests: 3,
      prompt: 400,
      completion: 40,
      cached: 40,
      total: 440,
      toolCalls: 2,
    });
    // Wall time ends at the last working event, not at the finish (which follows validation).
    expect(totals.wallMs).toBe(events[events.length - 2].t);
  });

  it("totals use the provider's own total_tokens when sent (xAI counts reasoning outside completion)", () => {
    const events = run('x', 'react', [
      { prompt: 432, completion: 68, total: 636 } as never,
      { prompt: 654, completion: 25 },
    ]);
    expect(computeTotals(events)).toMatchObject({ prompt: 1086, completion: 93, total: 636 + 679 });
  });

  it('counts retries as requests and attempts of their step', () => {
    const events = stamp('r', [
      { e: started('react'), t: 0 },
      { e: { type: 'model-request', step: 1, attempt: 1, messageCount: 2, toolNames: [] }, t: 1 },
      { e: { type: 'model-retry', step: 1, attempt: 1, status: 429, message: 'slow down', delayMs: 500 }, t: 2 },
      { e: { type: 'model-request', step: 1, attempt: 2, messageCount: 2, toolNames: [] }, t: 503 },
      {
        e: {
          type: 'model-response',
          step: 1,
          usage: { prompt: 7, completion: 3 },
          latencyMs: 4,
          finishReason: 'stop',
          text: 'x',
          toolCalls: [],
        },
        t: 507,
      },
    ]);
    expect(computeTotals(events)).toMatchObject({ steps: 1, requests: 2, total: 10 });
    expect(computePerStep(events)[0].attempts).toBe(2);
  });

  it('summarises a run and a comparison: first request time and size, cheapest run, percent differences', () => {
    const react = run('a', 'react', [
      { prompt: 500, completion: 20 },
      { prompt: 900, completion: 30 },
      { prompt: 1300, completion: 50 },
    ]);
    const code = run('b', 'code', [
      { prompt: 400, completion: 120 },
      { prompt: 600, completion: 40 },
    ]);
    const sa = summarizeRun(react);
    const sb = summarizeRun(code);
    expect(sa.firstRequestAt).toBe(1_000_000 + react[1].t);
    expect(sa.firstRequestPrompt).toBe(500);
    expect(sb.status).toBe('answered');
    const cmp = summarizeComparison([sa, sb]);
    expect(cmp.baselineRunId).toBe('a');
    expect(cmp.cheapestRunId).toBe('b');
    expect(cmp.totalDiffPercent.b).toBeCloseTo(((1160 - 2800) / 2800) * 100, 6);
    expect(formatPercent(cmp.totalDiffPercent.b)).toBe('-58.6%');
  });

  it('treats a run still in progress as running and groups mixed events by run in seq order', () => {
    const a = run('a', 'react', [{ prompt: 1, completion: 1 }]);
    const b = run('b', 'code', [{ prompt: 2, completion: 2 }]);
    const mixed = [b[2], a[1], b[0], a[0], b[1], a[2]];
    const grouped = groupByRun(mixed);
    expect(grouped.get('a')!.map((e) => e.seq)).toEqual([0, 1, 2]);
    expect(summarizeRun(grouped.get('b')!).status).toBe('running');
  });

  it('has no percentage against a zero baseline unless both are zero', () => {
    expect(percentDiff(5, 0)).toBeNull();
    expect(percentDiff(0, 0)).toBe(0);
    expect(formatPercent(null)).toBe('n/a');
    expect(formatPercent(12.34)).toBe('+12.3%');
  });
});

describe('aggregateByColumn', () => {
  it('averages the finished trials of each mode, with sd and 95 % interval, and counts answers, passes and the pass rate', () => {
    const a1 = summarizeRun(
      run('a1', 'react', [
        { prompt: 100, completion: 10 },
        { prompt: 300, completion: 30 },
      ]),
    );
    const a2 = summarizeRun(run('a2', 'react', [{ prompt: 200, completion: 20 }]));
    const b1 = summarizeRun(run('b1', 'code', [{ prompt: 50, completion: 5 }]));
    const unfinished = summarizeRun(run('b2', 'code', [{ prompt: 9000, completion: 900 }]).slice(0, -1));
    const [react, code] = aggregateByColumn([a1, b1, a2, unfinished]);
    expect(react).toMatchObject({ mode: 'react', trials: 2, answered: 2, passed: 2 });
    // sd of 440 and 220 is 110·√2; t(0.975, 1) = 12.706204736174694 (scipy t.ppf), so the half-width is 12.706… × 110.
    expect(react.total).toMatchObject({ n: 2, mean: (440 + 220) / 2, min: 220, max: 440 });
    expect(react.total!.sd).toBeCloseTo(110 * Math.SQRT2, 10);
    expect(react.total!.ci95![0]).toBeCloseTo(330 - 12.706204736174694 * 110, 8);
    expect(react.total!.ci95![1]).toBeCloseTo(330 + 12.706204736174694 * 110, 8);
    expect(react.steps).toMatchObject({ mean: 1.5, min: 1, max: 2 });
    // The run that never finished counts as a trial (and against the pass rate), not in the figures.
    expect(code).toMatchObject({ mode: 'code', trials: 2, finished: 1, answered: 1, passed: 1 });
    expect(code.passRate).toMatchObject({ k: 1, n: 2, rate: 0.5 });
    expect(code.total).toEqual({ n: 1, mean: 55, sd: null, ci95: null, min: 55, max: 55 });
    expect(stat([])).toBeNull();
  });
});

describe('tools run (the tool-call Δ)', () => {
  it('counts a program by the calls made inside it, not as one more call: a stored four-mode comparison', async () => {
    const { readFileSync } = await import('node:fs');
    const { toolsRun, RUN_METRICS } = await import('../../shared/run-metrics.js');
    const stored = JSON.parse(
      readFileSync(new URL('../fixtures/reports/stored/four-modes.stored.json', import.meta.url), 'utf8'),
    ) as { events: StepEvent[]; meta: { runs: { runId: string; mode: string }[] } };
    const byRun = groupByRun(stored.events);
    const of = (mode: string) => summarizeRun(byRun.get(stored.meta.runs.find((r) => r.mode === mode)!.runId)!);
    const code = of('code');
    const react = of('react');
    const runCode = stored.events
      .filter((e) => e.runId === code.runId && e.type === 'model-response')
      .flatMap((e) => (e.type === 'model-response' ? e.toolCalls : []))
      .filter((c) => c.name === 'run_code').length;
    expect(code.programs).toBe(runCode);
    expect(code.programs).toBeGreaterThan(0);
    expect(code.programToolCalls).toBeGreaterThan(0);
    expect(toolsRun(code)).toBe(code.totals.toolCalls - runCode + code.programToolCalls);
    // A mode without programs runs exactly the calls it named.
    expect([react.programs, toolsRun(react)]).toEqual([0, react.totals.toolCalls]);
    // Neither more nor fewer calls is a win: the Δ is shown without the colours of better and worse.
    expect(RUN_METRICS.find((m) => m.key === 'toolCalls')?.neutral).toBe(true);
  });
});
