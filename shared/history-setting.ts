/**
 * The `history` knob's values (shared/run-knobs.ts): how much of a run's earlier tool results each request
 * re-sends. `full` re-sends everything (every run before the knob); `window:K` keeps the tool results of the
 * last K steps and replaces older ones with a short placeholder naming the call; `clear-results:K` keeps the
 * newest K tool results and clears the rest the same way (Anthropic's context editing, clear_tool_uses);
 * `summarize:K` keeps the last K steps whole and replaces older ones with a summary written by the run's own
 * model (a request of its own, recorded as a history-summary event and counted in the run's totals).
 */
export type HistorySetting = 'full' | `window:${number}` | `clear-results:${number}` | `summarize:${number}`;

export type HistoryPolicy =
  | { readonly kind: 'full' }
  | { readonly kind: 'window' | 'clear-results' | 'summarize'; readonly keep: number };

export const HISTORY_MAX_K = 100;
const FORM = /^(window|clear-results|summarize):(\d+)$/;

/** The policy a value names, or null when it names none (see historyError for why). */
export function parseHistory(value: string | undefined): HistoryPolicy | null {
  if (value === undefined || value === 'full') return { kind: 'full' };
  const m = FORM.exec(value);
  if (!m) return null;
  const keep = Number(m[2]);
  return keep >= 1 && keep <= HISTORY_MAX_K ? { kind: m[1] as 'window' | 'clear-results' | 'summarize', keep } : null;
}

/** Why a value is not a history setting, saying what to write instead; null when it is one. */
export function historyError(value: string): string | null {
  if (parseHistory(value)) return null;
  const m = /^(window|clear-results|summarize):(.*)$/.exec(value);
  const what = m
    ? `K in "${value}" must be a whole number from 1 to ${HISTORY_MAX_K}`
    : `"${value}" is not a history setting`;
  return `${what}: write full, window:K (keep the tool results of the last K steps) clear-results:K (keep the newest K tool results) or summarize:K (keep the last K steps, summarise older ones), e.g. clear-results:2.`;
}

/** What a value does, in the words of the composer, the CLI help and the reports. */
export function historyMeaning(value: string): string {
  const p = parseHistory(value);
  if (!p) return 'not a history setting';
  if (p.kind === 'full') return 'every earlier tool result is sent again with each request';
  const k = p.keep === 1 ? 'the last step' : `the last ${p.keep} steps`;
  const n = p.keep === 1 ? 'the newest tool result' : `the newest ${p.keep} tool results`;
  if (p.kind === 'summarize')
    return `${k} are sent whole; older ones are replaced by a summary the run's model writes (its requests are counted in the totals)`;
  return p.kind === 'window'
    ? `the tool results of ${k} are sent whole; older ones are replaced by a short placeholder naming the call`
    : `${n} are sent whole; older ones are cleared to a short placeholder naming the call`;
}
