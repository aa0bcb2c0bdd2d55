/**
 * Why one column used fewer tokens than another, in sentences taken from what its requests carried (the prompt
 * composition of every step) and from its steps: the tool definitions sent with each request, the tool results
 * sent back, the steps taken and the calls made inside programs, and the completion tokens written. A column's
 * figures are means over the runs given (one run: that run's own figures).
 */
import { formatMean } from './number-format.js';
import { describeMode } from './modes.js';
import type { PromptPart } from './prompt-composition.js';
import type { RunSummary } from './summary.js';

export interface ColumnProfile {
  readonly key: string;
  readonly label: string;
  readonly mode: string;
  /** Runs the means cover. */
  readonly n: number;
  readonly prompt: number;
  readonly completion: number;
  readonly total: number;
  readonly steps: number;
  readonly requests: number;
  /** Tool calls the model named (a program is one). */
  readonly toolCalls: number;
  /** Tool calls made inside run_code programs. */
  readonly programToolCalls: number;
  /** Tools offered on the first request; null when not recorded. */
  readonly toolsOffered: number | null;
  /** Prompt tokens by part over the run's steps; null when some step recorded no composition. */
  readonly parts: Readonly<Record<PromptPart, number>> | null;
  /** Prompt tokens the history knob kept out, summed over the requests (each request's cleared results against sending them whole). */
  readonly cleared: number;
  /** summarize:K: prompt tokens the summaries kept out net of the summary messages, summed over the requests, and the summary requests' own tokens. */
  readonly summarized: { readonly saved: number; readonly cost: number } | null;
  /** Prompt tokens of the first and the last request. */
  readonly firstPrompt: number | null;
  readonly lastPrompt: number | null;
}

const avg = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

export function columnProfile(runs: readonly RunSummary[]): ColumnProfile {
  const first = runs[0]!;
  const of = (f: (r: RunSummary) => number) => avg(runs.map(f));
  const withParts = runs.every((r) => r.perStep.length > 0 && r.perStep.every((s) => s.promptComposition));
  const part = (p: PromptPart) => of((r) => r.perStep.reduce((n, s) => n + s.promptComposition![p], 0));
  const offered = runs.map((r) => r.toolsOffered).filter((x): x is number => typeof x === 'number');
  return {
    key: first.column.key,
    label: first.column.label,
    mode: first.mode,
    n: runs.length,
    prompt: of((r) => r.totals.prompt),
    completion: of((r) => r.totals.completion),
    total: of((r) => r.totals.total),
    steps: of((r) => r.totals.steps),
    requests: of((r) => r.totals.requests),
    toolCalls: of((r) => r.totals.toolCalls),
    programToolCalls: of((r) => r.programToolCalls),
    toolsOffered: offered.length === runs.length ? Math.round(avg(offered)) : null,
    parts: withParts
      ? {
          system: part('system'),
          tools: part('tools'),
          task: part('task'),
          assistant: part('assistant'),
          toolResults: part('toolResults'),
          other: part('other'),
        }
      : null,
    cleared: of((r) => r.perStep.reduce((n, s) => n + (s.promptComposition?.cleared?.tokens ?? 0), 0)),
    summarized: runs.some((r) => r.historySummaries?.length)
      ? {
          saved: of((r) =>
            r.perStep.reduce(
              (n, s) =>
                n +
                (s.promptComposition?.summarized
                  ? s.promptComposition.summarized.replacedTokens - s.promptComposition.summarized.tokens
                  : 0),
              0,
            ),
          ),
          cost: of((r) => (r.historySummaries ?? []).reduce((n, s) => n + s.prompt + s.completion, 0)),
        }
      : null,
    firstPrompt: runs.length === 1 ? (first.perStep[0]?.prompt ?? null) : null,
    lastPrompt: runs.length === 1 ? (first.perStep[first.perStep.length - 1]?.prompt ?? null) : null,
  };
}

const n = (x: number) => formatMean(Math.round(x));
const plural = (x: number, one: string, many = `${one}s`) => `${n(x)} ${Math.round(x) === 1 ? one : many}`;

/** "its 8 tool definitions", "its one tool (run_code with its catalog)". */
function toolsPhrase(c: ColumnProfile): string {
  if (c.toolsOffered === null) return 'its tool definitions';
  // A mode that runs programs and offers one tool offers run_code alone (Code Mode, in either language).
  if (describeMode(c.mode)?.program && c.toolsOffered === 1)
    return 'its one tool definition (run_code with its catalog)';
  return `its ${plural(c.toolsOffered, 'tool definition')}`;
}

/** What `c` did in steps: "took 5 steps with 4 tool calls", "took 3 steps; its 2 programs made 8 tool calls inside". */
function stepsPhrase(c: ColumnProfile): string {
  const steps = `took ${plural(c.steps, 'step')}`;
  if (c.programToolCalls > 0)
    return `${steps}, its ${plural(c.toolCalls, 'program')} making ${plural(c.programToolCalls, 'tool call')} inside`;
  return `${steps} with ${plural(c.toolCalls, 'tool call')}`;
}

/**
 * Up to five sentences on why `win` used fewer tokens than `other`: the two largest prompt parts that differ, what the history knob kept out,
 * the steps behind them, the completion side. Figures over trials are said to be averages.
 */
export function reasons(win: ColumnProfile, other: ColumnProfile): string[] {
  const on = win.n > 1 || other.n > 1 ? ' on average' : '';
  const out: { size: number; text: string }[] = [];
  const dPrompt = other.prompt - win.prompt;
  const dCompletion = other.completion - win.completion;
  if (win.parts && other.parts) {
    const dTools = other.parts.tools - win.parts.tools;
    if (dTools > 0 && other.parts.tools > 0) {
      out.push({
        size: dTools,
        text: `${other.label} sent ${toolsPhrase(other)} with each of its ${plural(other.requests, 'request')}${on}: ${n(other.parts.tools)} of its ${n(other.prompt)} prompt tokens; ${win.label}'s tool definitions took ${n(win.parts.tools)} of ${n(win.prompt)}.`,
      });
    }
    const dResults = other.parts.toolResults - win.parts.toolResults;
    if (dResults > 0) {
      const how = win.programToolCalls > 0 ? `, as a program returns only what it prints` : '';
      out.push({
        size: dResults,
        text: `${other.label} sent its tool results back with every later request: ${n(other.parts.toolResults)} prompt tokens of results${on}, against ${n(win.parts.toolResults)} for ${win.label}${how}.`,
      });
    }
    const dAssistant = other.parts.assistant - win.parts.assistant;
    if (dAssistant > 0 && dAssistant > dPrompt * 0.2) {
      out.push({
        size: dAssistant,
        text: `${other.label}'s own earlier replies, resent with each request, came to ${n(other.parts.assistant)} prompt tokens${on}, against ${n(win.parts.assistant)} for ${win.label}.`,
      });
    }
  } else if (
    dPrompt > 0 &&
    win.firstPrompt !== null &&
    other.firstPrompt !== null &&
    other.lastPrompt !== null &&
    win.lastPrompt !== null
  ) {
    out.push({
      size: dPrompt,
      text: `Each request resends the conversation: ${other.label}'s prompt grew from ${n(other.firstPrompt)} to ${n(other.lastPrompt)} tokens over ${plural(other.requests, 'request')}, ${win.label}'s from ${n(win.firstPrompt)} to ${n(win.lastPrompt)} over ${n(win.requests)}.`,
    });
  }
  // The prompt parts by size, then what the history knob kept out, the steps that explain them, the completion side.
  const lines = out
    .sort((a, b) => b.size - a.size)
    .slice(0, 2)
    .map((x) => x.text);
  if (win.cleared > 0)
    lines.push(`${win.label} cleared older tool results from its history: ${n(win.cleared)} tokens not re-sent${on}.`);
  else if (other.cleared > 0)
    lines.push(
      `${other.label} cleared older tool results from its history (${n(other.cleared)} tokens not re-sent${on}) and still sent more.`,
    );
  const summaryLine = (c: ColumnProfile, tail: string) => {
    const s = c.summarized!;
    const kept =
      s.saved >= 0 ? `${n(s.saved)} tokens not re-sent` : `${n(-s.saved)} tokens more sent than the steps it replaced`;
    return `${c.label} summarised older steps of its history: ${kept}${on}, for ${n(s.cost)} tokens of summary requests (in its totals)${tail}.`;
  };
  if (win.summarized) lines.push(summaryLine(win, ''));
  else if (other.summarized) lines.push(summaryLine(other, ' and still sent more'));
  if (dCompletion > dPrompt) {
    lines.unshift(
      `Most of the difference is completion tokens: ${other.label} wrote ${n(other.completion)}${on}, ${win.label} ${n(win.completion)}.`,
    );
  }
  if (
    other.steps !== win.steps ||
    other.toolCalls !== win.toolCalls ||
    win.programToolCalls !== other.programToolCalls
  ) {
    lines.push(`${other.label} ${stepsPhrase(other)}${on}; ${win.label} ${stepsPhrase(win)}.`);
  }
  if (dCompletion < 0) {
    const why = win.programToolCalls > 0 ? ' (a program is longer than a tool call)' : '';
    lines.push(
      `${win.label} wrote more completion tokens${why}, ${n(win.completion)} against ${n(other.completion)}${on}, outweighed by what it saved in prompt tokens.`,
    );
  }
  return lines;
}
