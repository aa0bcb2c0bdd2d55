/**
 * The words every surface uses for a `summarize:K` run's summary requests (shared/history-setting.ts): one line
 * per request (what it summarised, what it replaced, the tokens it cost) and one sentence under a run's step
 * table, so the step rows plus that sentence add up to the run's totals (computeTotals counts the requests,
 * never as steps). Figures of the simulated model say so.
 */
import { formatInt } from './number-format.js';
import type { HistorySummaryEvent } from './step-event.js';
import type { PromptComposition } from './prompt-composition.js';

const int = formatInt;
const steps = (e: { fromStep: number; toStep: number }) =>
  e.fromStep === e.toStep ? `step ${e.fromStep}` : `steps ${e.fromStep}–${e.toStep}`;

/** One summary request, e.g. "History summary before step 5: steps 1–3 (9 messages, 1,234 tokens) replaced by a summary the run's model wrote; the request cost 1,300 prompt + 150 completion tokens (in the run's totals)". */
export function historySummaryText(e: HistorySummaryEvent, simulated = false): string {
  const sim = simulated ? ', simulated' : '';
  const est = e.usage && e.usageSource === 'estimated' ? '≈' : '';
  const cost = e.usage
    ? `${est}${int(e.usage.prompt)} prompt + ${est}${int(e.usage.completion)} completion tokens (in the run's totals${sim})`
    : 'no usage reported';
  if (e.error !== null)
    return `History summary before step ${e.step} failed: ${e.error}${e.usage ? ` The request cost ${cost}.` : ''}`;
  return `History summary before step ${e.step}: ${steps(e)} (${e.replacedMessages} message${e.replacedMessages === 1 ? '' : 's'}, ${int(e.replacedTokens)} tokens) replaced by a summary the run's model wrote; the request cost ${cost}.`;
}

export interface SummaryTotals {
  readonly requests: number;
  readonly failed: number;
  readonly prompt: number;
  readonly completion: number;
  readonly estimated: boolean;
}

/** What a run's summary requests spent; null when it made none. */
export function summaryTotals(events: readonly { readonly type: string }[]): SummaryTotals | null {
  const all = events.filter((e): e is HistorySummaryEvent => e.type === 'history-summary');
  if (all.length === 0) return null;
  const used = all.filter((s) => s.usage);
  return {
    requests: all.length,
    failed: all.filter((s) => s.error !== null).length,
    prompt: used.reduce((n, s) => n + s.usage!.prompt, 0),
    completion: used.reduce((n, s) => n + s.usage!.completion, 0),
    estimated: used.some((s) => s.usageSource === 'estimated'),
  };
}

/** The sentence under a run's step table, so its rows plus this add up to the run's totals. */
export function summaryTotalsText(t: SummaryTotals, simulated = false): string {
  const est = t.estimated ? '≈' : '';
  return `History summaries: ${t.requests} request${t.requests === 1 ? '' : 's'} to the run's model${t.failed ? ` (${t.failed} failed)` : ''}: ${
    est
  }${int(t.prompt)} prompt + ${est}${int(t.completion)} completion tokens${simulated ? ' (simulated)' : ''}. They are in the run's totals and not in the steps above.`;
}

/**
 * What the history knob kept out of a run's prompts, summed over its requests, under its composition chart:
 * cleared tool results (clear-results / window) and what summaries replaced (summarize), net of the summary
 * messages sent instead. Empty when the knob removed nothing.
 */
export function historyNotes(
  perStep: readonly { readonly promptComposition?: PromptComposition }[],
  simulated: boolean,
): string[] {
  const sim = simulated ? ' (simulated)' : '';
  const notes: string[] = [];
  const cleared = perStep.reduce((n, s) => n + (s.promptComposition?.cleared?.tokens ?? 0), 0);
  if (cleared > 0) notes.push(`cleared tool results: ${int(cleared)} tokens not re-sent${sim}, over its requests`);
  const summarized = perStep.flatMap((s) => (s.promptComposition?.summarized ? [s.promptComposition.summarized] : []));
  const last = summarized.at(-1);
  if (last) {
    const net = summarized.reduce((n, s) => n + s.replacedTokens - s.tokens, 0);
    notes.push(
      `history summary: ${steps(last)} sent as a ${int(last.tokens)}-token summary instead of ${int(last.replacedTokens)} tokens; ${
        net >= 0 ? `${int(net)} tokens not re-sent` : `${int(-net)} tokens more sent`
      }${sim} over ${summarized.length} request${summarized.length === 1 ? '' : 's'} (in Earlier replies)`,
    );
  }
  return notes;
}
