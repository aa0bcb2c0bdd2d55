/**
 * The check every round-three replay ends with (host + worker, `parallax run` and the before/after report alike):
 * the stored events and the requests the replay server saw, against a shape's expectation
 * (tests/helpers/wire-shapes-3.ts). A run that did not answer has no answer, and only an answered run has one.
 * No vitest in here: the report runs it under plain tsx.
 */
import type { ModelResponseEvent, ModelRetryEvent, RunFinishedEvent, StepEvent } from '../../shared/step-event.js';
import type { RecordedRequest } from './replay-server.js';
import type { Expect3 } from './wire-shapes-3.js';

const show = (v: unknown) => JSON.stringify(v)?.slice(0, 160);
/** The same object whatever its key order. */
const canon = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b)))
      : x,
  );

/** What differs from the expectation, one line each; empty when the run was recorded right. */
export function problems3(events: readonly StepEvent[], requests: readonly RecordedRequest[], want: Expect3): string[] {
  const out: string[] = [];
  const fin = events.find((e): e is RunFinishedEvent => e.type === 'run-finished');
  if (!fin) return ['no run-finished event'];
  if (fin.status !== want.status)
    out.push(`status ${fin.status} (${show(fin.error ?? fin.answer)}), expected ${want.status}`);
  if (requests.length !== want.requests) out.push(`${requests.length} requests, expected ${want.requests}`);
  if (want.status !== 'answered' && fin.answer !== '')
    out.push(`answer ${show(fin.answer)} on a run that did not answer`);
  if (want.answer !== undefined && fin.answer !== want.answer)
    out.push(`answer ${show(fin.answer)}, expected ${show(want.answer)}`);
  if (want.error && !want.error.test(fin.error ?? ''))
    out.push(`error ${show(fin.error)} does not match ${want.error}`);
  const steps = events.filter((e): e is ModelResponseEvent => e.type === 'model-response');
  const step = (n: number) => steps.find((s) => s.step === n);
  for (const [n, usage] of Object.entries(want.usage ?? {})) {
    const s = step(Number(n));
    if (s?.usageSource !== 'reported' || canon(s.usage) !== canon(usage))
      out.push(`step ${n}'s usage ${show(s?.usage)} (${s?.usageSource}), expected ${show(usage)}`);
  }
  for (const [n, text] of Object.entries(want.reasoning ?? {}))
    if ((step(Number(n))?.reasoningText ?? '') !== text)
      out.push(`step ${n}'s reasoning ${show(step(Number(n))?.reasoningText ?? '')}, expected ${show(text)}`);
  for (const [n, text] of Object.entries(want.text ?? {}))
    if (step(Number(n))?.text !== text)
      out.push(`step ${n}'s text ${show(step(Number(n))?.text)}, expected ${show(text)}`);
  if (want.retries) {
    const retries = events.filter((e): e is ModelRetryEvent => e.type === 'model-retry').map((r) => r.message);
    if (retries.length !== want.retries.length || want.retries.some((re, i) => !re.test(retries[i]!)))
      out.push(`retries ${show(retries)}, expected ${want.retries.map(String).join(', ') || 'none'}`);
  }
  if (want.roundTrip && requests.length > 1) out.push(...want.roundTrip(requests));
  return out;
}
