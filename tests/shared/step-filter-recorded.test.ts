/**
 * The step filters over a recorded comparison (tests/fixtures/step-filter/faults.stored.json: log-stats in ReAct
 * and Code Mode on the simulated model, its first tool call failing — the 'unknown-tool' fault — and a 429
 * retried): each filter keeps exactly the steps the events themselves say, read here straight from the events
 * and not through stepFacts. The browser test (tests/e2e/step-filter.test.ts) checks the Timeline shows these.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { StoredComparison } from '../../shared/ipc-contract.js';
import type { StepEvent } from '../../shared/step-event.js';
import { filterSteps, NO_FILTER, rowDiffers, stepFacts, toolsUsed, type StepFilter } from '../../shared/step-filter.js';
import { groupByRun } from '../../shared/summary.js';

const stored = JSON.parse(
  readFileSync(new URL('../fixtures/step-filter/faults.stored.json', import.meta.url), 'utf8'),
) as StoredComparison;
const byRun = groupByRun(stored.events);
const runs = stored.meta.runs.map((r) => byRun.get(r.runId)!);
const columns = runs.map((ev) => stepFacts(ev));
const run = (filter: Partial<StepFilter>) => filterSteps(columns, { ...NO_FILTER, ...filter });
const matched = (filter: Partial<StepFilter>) => run(filter).matches.map((m) => [...m].sort((a, b) => a - b));

/** Per run, the steps where a predicate holds on some event of the step. */
const stepsWhere = (hit: (e: StepEvent) => boolean) =>
  runs.map((ev) =>
    [...new Set(ev.flatMap((e) => ('step' in e && typeof e.step === 'number' && hit(e) ? [e.step] : [])))].sort(
      (a, b) => a - b,
    ),
  );
const requested = (ev: readonly StepEvent[]) => [
  ...new Set(ev.flatMap((e) => (e.type === 'model-request' ? [e.step] : []))),
];
const total = runs.reduce((n, ev) => n + requested(ev).length, 0);

describe('step filters over a recorded comparison with faults', () => {
  it('errors only: the failed tool call and the retried model request, as recorded', () => {
    const want = stepsWhere(
      (e) =>
        (e.type === 'tool-finished' && e.error !== null) ||
        e.type === 'model-retry' ||
        (e.type === 'code-run' && (e.error !== null || e.toolCalls.some((t) => t.error !== null))),
    );
    expect(want.flat().length, 'the faults left errors in the record').toBeGreaterThan(0);
    expect(matched({ errorsOnly: true })).toEqual(want);
    expect([run({ errorsOnly: true }).matched, run({ errorsOnly: true }).total]).toEqual([want.flat().length, total]);
  });

  it('a tool: the steps that called it, inside programs too; the tools offered are every one called', () => {
    const called = new Set<string>();
    for (const e of stored.events) {
      if (e.type === 'tool-started') called.add(e.name);
      if (e.type === 'code-run') for (const t of e.toolCalls) called.add(t.name);
    }
    expect(toolsUsed(columns)).toEqual([...called].sort());
    const inner = stored.events.flatMap((e) => (e.type === 'code-run' ? e.toolCalls.map((t) => t.name) : []));
    expect(inner.length, 'Code Mode called tools from its program').toBeGreaterThan(0);
    const tool = inner[0]!;
    expect(matched({ tool })).toEqual(
      stepsWhere(
        (e) =>
          (e.type === 'tool-started' && e.name === tool) ||
          (e.type === 'code-run' && e.toolCalls.some((t) => t.name === tool)),
      ),
    );
  });

  it('text: a word of a tool result, in any case, in arguments, results, programs, replies and the answer', () => {
    const out = stored.events.find(
      (e) => e.type === 'tool-finished' && e.error === null && /[a-z]{5,}/i.test(e.output),
    );
    const word = /[a-z]{5,}/i.exec(out?.type === 'tool-finished' ? out.output : '')![0];
    const lc = word.toLowerCase();
    const has = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? '')).toLowerCase().includes(lc);
    const want = stepsWhere(
      (e) =>
        (e.type === 'tool-finished' && has(e.output)) ||
        (e.type === 'tool-started' && has(e.args)) ||
        (e.type === 'model-response' && (has(e.text) || e.toolCalls.some((t) => has(t.arguments)))) ||
        (e.type === 'code-run' && (has(e.code) || has(e.output) || e.toolCalls.some((t) => has(t.args)))),
    );
    // The run's answer counts on its last step.
    runs.forEach((ev, i) => {
      const fin = ev.find((e) => e.type === 'run-finished');
      if (fin?.type === 'run-finished' && has(fin.answer))
        want[i] = [...new Set([...want[i]!, Math.max(...requested(ev))])].sort((a, b) => a - b);
    });
    expect(matched({ text: word.toUpperCase() })).toEqual(want);
    const none = run({ text: 'no step says zqxjv' });
    expect([none.rows, none.matched, none.total]).toEqual([[], 0, total]);
  });

  it('only where the columns differ: the rows whose columns did not make the same calls', () => {
    const steps = [...new Set(runs.flatMap(requested))].sort((a, b) => a - b);
    const rows = run({ differOnly: true }).rows;
    expect(rows).toEqual(steps.filter((s) => rowDiffers(columns, s)));
    // ReAct calls tools one by one while Code Mode's program calls them at once: some row differs, and a row
    // only one column reached always does.
    expect(rows.length).toBeGreaterThan(0);
    for (const s of steps)
      if (columns.filter((c) => c.some((f) => f.step === s)).length === 1) expect(rows).toContain(s);
  });
});
