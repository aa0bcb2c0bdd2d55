/** Live lines for the terminal: one per step as its model response arrives, labelled simulated when it is. */
import { mcpElicitationText } from '../../shared/mcp-call-words.js';
import { historySummaryText } from '../../shared/history-summary-words.js';
import type { StepEvent } from '../../shared/step-event.js';
import type { RunSummary } from '../../shared/summary.js';
import { costText, priceSummary, USAGE_SOURCE_TEXT } from '../../shared/cost.js';
import { replyEnding, type ReplyEnding } from '../../shared/reply-ending.js';
import { stepTitle } from '../../shared/step-phase.js';

/** A reply that is no answer, in the step line's words (a filtered reply's calls were not run either). */
const NO_CALLS: Record<ReplyEnding, string> = {
  filtered: '(refused or filtered by the provider: not an answer)',
  'cut-short': '(cut short at the token limit: not an answer)',
  empty: '(empty reply: not an answer)',
  reply: '',
};

const pad = (v: string | number, n: number) => String(v).padStart(n);

export function stepHeader(prefix = ''): string {
  return `${prefix}${'step'.padStart(4)} ${pad('prompt', 8)} ${pad('completion', 10)} ${pad('latency', 8)}  tool calls`;
}

/** ' · run_shell sandboxed (bubblewrap)' or ' · run_shell NOT sandboxed: why', for a run-started line. */
export function shellNote(e: StepEvent): string {
  if (e.type !== 'run-started' || !e.shellSandbox) return '';
  return e.shellSandbox.kind === 'none'
    ? ` · run_shell NOT sandboxed: ${e.shellSandbox.reason}`
    : ` · run_shell sandboxed (${e.shellSandbox.kind})`;
}

/** A line for the events that deserve one (model responses, retries, the finish), else null. */
export function stepLine(e: StepEvent, prefix = ''): string | null {
  switch (e.type) {
    case 'run-started':
      return e.shellSandbox?.kind === 'none' ? `${prefix}     note:${shellNote(e).slice(2)}` : null;
    case 'model-response': {
      // A text ReAct reply that could not be read is no answer: its parse error went back as the observation.
      const ending = replyEnding(e);
      const named = e.toolCalls.map((c) => c.name).join(', ');
      const calls =
        (ending === 'filtered' ? `${named ? `${named} not run ` : ''}${NO_CALLS.filtered}` : named) ||
        NO_CALLS[ending] ||
        (e.parsed?.parseError ? '(reply not read: parse error sent back)' : '(answer)');
      // "≈" marks usage Parallax estimated because the provider sent none.
      const est = e.usage && e.usageSource === 'estimated' ? '≈' : '';
      const p = e.usage ? `${est}${e.usage.prompt}` : '—';
      const c = e.usage ? `${est}${e.usage.completion}` : '—';
      return `${prefix}${pad(e.step, 4)} ${pad(p, 8)} ${pad(c, 10)} ${pad(`${e.latencyMs}ms`, 8)}  ${calls}`;
    }
    case 'model-request':
      // A step of a kind the mode declared (a planning step…) is named before its line; an ordinary step is not.
      return e.phase && e.attempt === 1 ? `${prefix}     ${stepTitle(e.step, e.phase)}` : null;
    case 'model-retry':
      return `${prefix}     retry after ${e.delayMs} ms: ${e.message}`;
    case 'run-warning':
      return `${prefix}     warning: ${e.message}`;
    case 'approval-requested':
      return `${prefix}     waiting for approval: ${e.tool}${e.inProgram ? ' (inside the program)' : ''}`;
    case 'approval-resolved': {
      const what = {
        allow: 'allowed',
        deny: 'denied',
        'allow-comparison': 'allowed for this comparison',
        cancelled: 'cancelled',
      }[e.decision];
      return `${prefix}     ${e.tool} ${what} after ${(e.waitedMs / 1000).toFixed(1)} s (not counted as the run's time)`;
    }
    case 'tool-progress': {
      // The engine thins a server's reports (a few a second) and cleans its message to one line.
      const of = e.total !== undefined ? ` of ${e.total}` : '';
      return `${prefix}     ${e.name} progress ${e.progress}${of}${e.message ? `: ${e.message}` : ''}`;
    }
    case 'sampling': {
      if (e.error !== null) return `${prefix}     sampling for ${e.server} refused: ${e.error}`;
      const est = e.usage && e.usageSource === 'estimated' ? '≈' : '';
      const tokens = e.usage
        ? `prompt ${est}${e.usage.prompt}, completion ${est}${e.usage.completion}`
        : 'no usage reported';
      return `${prefix}     sampling for ${e.server} answered by the run's model (${tokens}; counted in the run's tokens)`;
    }
    case 'elicitation':
      return `${prefix}     ${mcpElicitationText(e)}`;
    case 'history-summary':
      return `${prefix}     ${historySummaryText(e)}`;
    case 'code-run':
    case 'elicitation-requested':
    case 'run-finished':
    case 'tool-finished':
    case 'tool-search':
    case 'tool-started':
    default:
      return null;
  }
}

export function summaryLines(s: RunSummary, simulated: boolean, events: readonly StepEvent[] = []): string[] {
  const label = simulated ? ' (simulated)' : '';
  const responses = events.filter((e) => e.type === 'model-response');
  const estimated = responses.filter(
    (e) => e.type === 'model-response' && e.usage && e.usageSource === 'estimated',
  ).length;
  const source = estimated
    ? ` (≈ estimated with the tokenizer for ${estimated} of ${responses.length} steps: the provider reported no usage)`
    : '';
  const lines = [
    `status: ${s.status}${s.error ? ` — ${s.error}` : ''}`,
    `tokens${label}${source}: prompt ${s.totals.prompt}, completion ${s.totals.completion}, cached ${s.totals.cached}, reasoning ${s.totals.reasoning}, total ${s.totals.total} over ${s.totals.steps} steps (${s.totals.requests} requests)${s.usageSource === 'missing' ? ` — usage ${USAGE_SOURCE_TEXT.missing} for some steps` : ''}`,
  ];
  if (!simulated)
    lines.push(
      `cost: ${costText(s.cost)}${s.cost.price ? ` at the ${priceSummary(s.cost.price)} (${s.cost.price.model})` : ''}`,
    );
  if (s.totals.approvalWaitMs > 0)
    lines.push(
      `waited for approval: ${(s.totals.approvalWaitMs / 1000).toFixed(1)} s (kept out of the run's ${(s.totals.wallMs / 1000).toFixed(1)} s)`,
    );
  if (s.validation) lines.push(`validation: ${s.validation.ok ? 'PASS' : 'FAIL'} — ${s.validation.detail}`);
  if (s.answer) lines.push('answer:', ...s.answer.split('\n').map((l) => `  ${l}`));
  return lines;
}
