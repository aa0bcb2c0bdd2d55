/**
 * The `history` knob in the loop (shared/history-setting.ts): before each request, tool results the setting no
 * longer keeps are replaced in the history by a short placeholder naming the call, and stay replaced (what is
 * cleared is never sent again, so the history only shrinks, as Anthropic's context editing does). A step's
 * results are rebuilt through the mode's own turn (Turn.results), so a native run's tool messages and a text
 * run's observation are cleared alike; each newly cleared result goes into the request's record
 * (model-request `clearedResults`), so the request can be reconstructed and its composition counted.
 */
import { parseHistory, type HistoryPolicy } from '../../shared/history-setting.js';
import type { ClearedResult, ToolCallRequest } from '../../shared/step-event.js';
import type { ChatMessage } from './provider/chat-client.js';
import type { CallOutput, Turn } from './modes/turns.js';

/** The words a placeholder starts with (the simulated model reads them as a real model would). */
export const CLEARED_LEAD = '[cleared to save context:';

interface StepResults {
  readonly step: number;
  readonly turn: Turn;
  readonly calls: readonly ToolCallRequest[];
  readonly outputs: CallOutput[];
  readonly cleared: boolean[];
  /** Where the step's result messages start in the history, and how many there are. */
  readonly start: number;
  readonly count: number;
}

/** The placeholder that replaces a cleared result: the call it answered, its step and size, and what to do. */
export function placeholderFor(call: ToolCallRequest, step: number, size: number): string {
  const args = call.arguments.length > 120 ? `${call.arguments.slice(0, 119)}…` : call.arguments;
  return `${CLEARED_LEAD} the result of ${call.name} ${args || '{}'} (step ${step}, ${size.toLocaleString('en-US')} characters); call it again if you need it]`;
}

export class HistoryEditor {
  private readonly steps: StepResults[] = [];

  constructor(private readonly policy: HistoryPolicy) {}

  /** The editor for a run's setting, or null for 'full' (nothing is ever cleared). */
  static of(setting: string | undefined): HistoryEditor | null {
    const policy = parseHistory(setting);
    return policy && (policy.kind === 'window' || policy.kind === 'clear-results') ? new HistoryEditor(policy) : null;
  }

  /** A step's results as they were appended to the history at `start`. */
  add(step: number, turn: Turn, outputs: readonly CallOutput[], start: number, count: number): void {
    if (turn.calls.length === 0) return;
    this.steps.push({
      step,
      turn,
      calls: turn.calls,
      outputs: [...outputs],
      cleared: outputs.map(() => false),
      start,
      count,
    });
  }

  /** Clear, in `messages`, what the setting no longer keeps before the request of `step`; returns what it newly cleared. */
  beforeRequest(messages: ChatMessage[], step: number): ClearedResult[] {
    const p = this.policy;
    if (p.kind === 'full') return [];
    const all = this.steps.flatMap((s) => s.calls.map((_, i) => ({ s, i })));
    const drop =
      p.kind === 'window'
        ? all.filter(({ s }) => s.step < step - p.keep)
        : all.slice(0, Math.max(0, all.length - p.keep));
    const out: ClearedResult[] = [];
    const touched = new Set<StepResults>();
    for (const { s, i } of drop) {
      if (s.cleared[i]) continue;
      const text = placeholderFor(s.calls[i]!, s.step, s.outputs[i]!.text.length);
      // A result no longer than its placeholder stays: clearing it would send more, not less.
      if (s.outputs[i]!.text.length <= text.length) continue;
      s.cleared[i] = true;
      s.outputs[i] = { text, failed: s.outputs[i]!.failed };
      touched.add(s);
      out.push({ callId: s.calls[i]!.id, step: s.step, text });
    }
    for (const s of touched) {
      const rebuilt = s.turn.results(s.outputs);
      // A mode's results keep their count (one per call, or one observation), so later indices stay true.
      if (rebuilt.length === s.count) messages.splice(s.start, s.count, ...rebuilt);
    }
    return out;
  }
}
