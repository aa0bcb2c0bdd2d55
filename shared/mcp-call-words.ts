/**
 * The words for what an MCP call carries beyond its result, one sentence per note: the server's hints for the
 * tool, the last progress it reported, each sampling request its server made (answered by the run's own model,
 * whose tokens count in the run's totals) and the audience and priority of each part of the result. The app's
 * timeline and the HTML and Markdown reports say the same, so a report reads like the run did.
 */
import { formatDuration, formatInt } from './number-format.js';
import { annotationWords, type McpToolRecord } from './mcp-tools.js';
import type { ElicitationEvent, McpContentRecord, SamplingEvent, ToolProgressEvent } from './step-event.js';

const int = formatInt;

export function mcpHintsText(mcp: McpToolRecord): string {
  const words = annotationWords(mcp.annotations);
  return `MCP tool “${mcp.tool}” of ${mcp.server}${mcp.title ? ` · ${mcp.title}` : ''}${
    words.length ? ` · the server says: ${words.join(', ')}` : ' · no hints from the server (treated as destructive)'
  }`;
}

/** `done`: the call has finished, so this was its last report. */
export function mcpProgressText(p: ToolProgressEvent, done: boolean): string {
  return `${done ? 'Last progress' : 'Progress'}${p.inProgram ? ` of ${p.name}` : ''}: ${int(p.progress)}${
    p.total !== undefined ? ` of ${int(p.total)}` : ''
  }${p.message ? ` — ${p.message}` : ''}`;
}

/** A sampling request's tokens as a sentence; `≈` when they were estimated. */
export function mcpSamplingText(s: SamplingEvent): string {
  if (s.error !== null) return `Sampling asked by ${s.server} was refused: ${s.error}`;
  const est = s.usageSource === 'estimated' ? '≈' : '';
  return `Sampling asked by ${s.server}, answered by the run's model: ${
    s.usage
      ? `${est}${int(s.usage.prompt)} prompt + ${est}${int(s.usage.completion)} completion tokens (in the run's totals)`
      : 'no usage reported'
  }`;
}

const ACTION_WORDS = { accept: 'answered', decline: 'declined', cancel: 'cancelled' } as const;

/** An elicitation: what the server asked, and what went back (values as given, for the person reading). */
export function mcpElicitationText(e: ElicitationEvent): string {
  const by = e.reason ? `by Parallax: ${e.reason}` : `by the user after ${formatDuration(e.waitedMs)}`;
  const values = e.content
    ? `: ${Object.entries(e.content)
        .map(([k, v]) => `${k} = ${Array.isArray(v) ? v.join(', ') : String(v)}`)
        .join('; ')}`
    : '';
  return `${e.server} asked the user “${e.message}” (${e.fields.length} field${e.fields.length === 1 ? '' : 's'}): ${ACTION_WORDS[e.action]} ${by}${values}`;
}

/** The parts of a result the server annotated; null when it annotated none. */
export function mcpContentText(blocks: readonly McpContentRecord[] | undefined): string | null {
  const noted = (blocks ?? []).filter((b) => b.audience || b.priority !== undefined);
  if (noted.length === 0) return null;
  return `Result parts: ${noted
    .map(
      (b) =>
        `${b.type}${b.audience ? ` for ${b.audience.join(' and ')}` : ''}${
          b.priority !== undefined ? ` (priority ${b.priority})` : ''
        }`,
    )
    .join('; ')}`;
}

export interface SamplingTotals {
  readonly requests: number;
  readonly answered: number;
  readonly prompt: number;
  readonly completion: number;
  readonly estimated: boolean;
}

/** What a run's sampling requests spent: counted in its totals (computeTotals), never in a step's row. */
export function samplingTotals(events: readonly { readonly type: string }[]): SamplingTotals | null {
  const all = events.filter((e): e is SamplingEvent => e.type === 'sampling');
  if (all.length === 0) return null;
  const used = all.filter((s) => s.usage);
  return {
    requests: all.length,
    answered: all.filter((s) => s.error === null).length,
    prompt: used.reduce((n, s) => n + s.usage!.prompt, 0),
    completion: used.reduce((n, s) => n + s.usage!.completion, 0),
    estimated: used.some((s) => s.usageSource === 'estimated'),
  };
}

/** One sentence under a run's step table, so its rows plus this add up to the run's totals. */
export function samplingTotalsText(t: SamplingTotals): string {
  const est = t.estimated ? '≈' : '';
  const refused = t.requests - t.answered;
  return `MCP sampling: ${t.requests} request${t.requests === 1 ? '' : 's'} from servers${refused ? ` (${refused} refused)` : ''}, answered by the run's model: ${
    est
  }${int(t.prompt)} prompt + ${est}${int(t.completion)} completion tokens. They are in the run's totals and not in the steps above.`;
}
