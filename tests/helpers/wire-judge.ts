/**
 * The check every round-two replay ends with (host + worker and `parallax run` alike): the stored events and
 * the requests the replay server saw, against a shape's expectation (tests/helpers/wire-shapes-2.ts).
 */
import { expect } from 'vitest';
import type { ModelResponseEvent, RunFinishedEvent, StepEvent, ToolFinishedEvent } from '../../shared/step-event.js';
import type { RecordedRequest } from './replay-server.js';
import type { Expect2 } from './wire-shapes-2.js';

export function judge(events: readonly StepEvent[], requests: readonly RecordedRequest[], want: Expect2): void {
  const fin = events.find((e): e is RunFinishedEvent => e.type === 'run-finished');
  expect(fin, 'a run-finished event').toBeDefined();
  const steps = events.filter((e): e is ModelResponseEvent => e.type === 'model-response');
  expect(fin!.status, fin!.error ?? undefined).toBe(want.status);
  expect(requests).toHaveLength(want.requests);
  if (want.status === 'refused') {
    expect(fin!.answer).toBe('');
    expect(fin!.error).toMatch(want.error!);
    // A refused reply's calls never run.
    expect(events.some((e) => e.type === 'tool-started')).toBe(false);
  }
  if (want.refusal) expect(steps[0]!.refusal).toBe(want.refusal);
  if (want.usage === 'estimated') expect(steps[0]!.usageSource).toBe('estimated');
  else if (want.usage) {
    expect(steps[0]!.usageSource).toBe('reported');
    expect(steps[0]!.usage).toEqual(want.usage);
  }
  if (want.calls)
    expect(
      steps[0]!.toolCalls.map(({ name, arguments: a, cut }) => ({ name, arguments: a, ...(cut ? { cut } : {}) })),
    ).toEqual(want.calls);
  if (want.ranOk !== undefined) {
    const finishedOk = events.filter(
      (e): e is ToolFinishedEvent => e.type === 'tool-finished' && e.step === 1 && e.error === null,
    );
    expect(finishedOk).toHaveLength(want.ranOk);
  }
  if (want.calls?.some((c) => c.cut)) {
    const f = events.find((e): e is ToolFinishedEvent => e.type === 'tool-finished' && e.step === 1);
    expect(f?.error).toMatch(/token limit \(finish reason "length"\).*not run/);
  }
  if (want.roundTrip) expect(requests[1] ? want.roundTrip(requests[1]) : ['no second request']).toEqual([]);
}
