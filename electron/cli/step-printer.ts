/** Live lines for the terminal: one per step as its model response arrives, labelled simulated when it is. */
import type { StepEvent } from '../../shared/step-event.js';
import type { RunSummary } from '../../shared/summary.js';

const pad = (v: string | number, n: number) => String(v).padStart(n);

export function stepHeader(prefix = ''): string {
  return `${prefix}${'step'.padStart(4)} ${pad('prompt', 8)} ${pad('completion', 10)} ${pad('latency', 8)}  tool calls`;
}

/** ' · run_shell sandboxed (bubblewrap)' or ' · run_shell NOT sandboxed: why', for a run-started line. */
export function shellNote(e: StepEvent): string {
  if (e.type !== 'run-started' || !e.shellSandbox) return '';
  return e.shellSandbox.kind === 'none' ? ` · run_shell NOT sandboxed: ${e.shellSandbox.reason}` : ` · run_shell sandboxed (${e.shellSandbox.kind})`;
}

/** A line for the events that deserve one (model responses, retries, the finish), else null. */
export function stepLine(e: StepEvent, prefix = ''): string | null {
  switch (e.type) {
    case 'run-started':
      return e.shellSandbox?.kind === 'none' ? `${prefix}     note:${shellNote(e).slice(2)}` : null;
    case 'model-response': {
      const calls = e.toolCalls.map((c) => c.name).join(', ') || '(answer)';
      const p = e.usage ? e.usage.prompt : '—';
      const c = e.usage ? e.usage.completion : '—';
      return `${prefix}${pad(e.step, 4)} ${pad(p, 8)} ${pad(c, 10)} ${pad(`${e.latencyMs}ms`, 8)}  ${calls}`;
    }
    case 'model-retry':
      return `${prefix}     retry after ${e.delayMs} ms: ${e.message}`;
    case 'run-warning':
      return `${prefix}     warning: ${e.message}`;
    default:
      return null;
  }
}

export function summaryLines(s: RunSummary, simulated: boolean): string[] {
  const label = simulated ? ' (simulated)' : '';
  const lines = [
    `status: ${s.status}${s.error ? ` — ${s.error}` : ''}`,
    `tokens${label}: prompt ${s.totals.prompt}, completion ${s.totals.completion}, cached ${s.totals.cached}, total ${s.totals.total} over ${s.totals.steps} steps (${s.totals.requests} requests)`,
  ];
  if (s.validation) lines.push(`validation: ${s.validation.ok ? 'PASS' : 'FAIL'} — ${s.validation.detail}`);
  if (s.answer) lines.push('answer:', ...s.answer.split('\n').map((l) => `  ${l}`));
  return lines;
}
