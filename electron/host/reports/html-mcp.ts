/**
 * An MCP call's notes in the HTML report, as the app's timeline shows them (shared/mcp-call-words.ts): the
 * server's hints, the last progress, each sampling request and each question it asked the user (elicitation) (with what the server sent and the model replied,
 * folded) and the annotated parts of the result. Plus the sentence under a run's step table that says what
 * its sampling spent, so the steps plus that add up to the run's totals. Nothing when a run used no MCP.
 */
import {
  mcpContentText,
  mcpElicitationText,
  mcpHintsText,
  mcpProgressText,
  mcpSamplingText,
  samplingTotals,
  samplingTotalsText,
} from '../../../shared/mcp-call-words.js';
import type { McpToolRecord } from '../../../shared/mcp-tools.js';
import type {
  ElicitationEvent,
  SamplingEvent,
  StepEvent,
  ToolFinishedEvent,
  ToolProgressEvent,
} from '../../../shared/step-event.js';
import { html, type SafeHtml } from './html-escape.js';

export interface McpIndex {
  readonly tools: Map<string, McpToolRecord>;
  readonly progress: Map<string, ToolProgressEvent>;
  readonly sampling: Map<string, SamplingEvent[]>;
  readonly elicitation: Map<string, ElicitationEvent[]>;
}

export function indexMcp(events: readonly StepEvent[]): McpIndex {
  const idx: McpIndex = { tools: new Map(), progress: new Map(), sampling: new Map(), elicitation: new Map() };
  for (const e of events) {
    if (e.type === 'run-started') for (const t of e.mcpTools ?? []) idx.tools.set(t.name, t);
    if (e.type === 'tool-progress') idx.progress.set(e.callId, e);
    if (e.type === 'sampling') idx.sampling.set(e.callId, [...(idx.sampling.get(e.callId) ?? []), e]);
    if (e.type === 'elicitation') idx.elicitation.set(e.callId, [...(idx.elicitation.get(e.callId) ?? []), e]);
  }
  return idx;
}

function samplingNote(s: SamplingEvent, fold: (label: string, text: string) => SafeHtml): SafeHtml {
  const sent = [s.systemPrompt ? `[system] ${s.systemPrompt}` : null, ...s.messages.map((m) => `[${m.role}] ${m.text}`)]
    .filter((x) => x !== null)
    .join('\n');
  return html`<div class="event mcp${s.error !== null ? ' error' : ''}" data-mcp="sampling"><p${s.error !== null ? html` class="err"` : null}>${mcpSamplingText(s)}</p>${fold('Sent by the server', sent)}${s.error === null ? fold('Replied by the model', s.text) : null}</div>`;
}

/** The notes of one call: nothing for a call that is not an MCP tool's and had no MCP events. */
export function mcpNotes(
  callId: string,
  name: string,
  finished: ToolFinishedEvent | undefined,
  idx: McpIndex,
  fold: (label: string, text: string) => SafeHtml,
): SafeHtml | null {
  const mcp = idx.tools.get(name);
  const progress = idx.progress.get(callId);
  const samplings = idx.sampling.get(callId) ?? [];
  const asked = idx.elicitation.get(callId) ?? [];
  const content = mcpContentText(finished?.mcpContent);
  if (!mcp && !progress && samplings.length === 0 && asked.length === 0 && content === null) return null;
  return html`${mcp ? html`<p class="muted" data-mcp="hints">${mcpHintsText(mcp)}</p>` : null}${
    progress ? html`<p data-mcp="progress">${mcpProgressText(progress, finished !== undefined)}</p>` : null
  }${samplings.map((s) =>
    samplingNote(s, fold),
  )}${asked.map((e) => html`<p data-mcp="elicitation" data-action="${e.action}"${e.action !== 'accept' ? html` class="muted"` : null}>${mcpElicitationText(e)}</p>`)}${content !== null ? html`<p class="muted" data-mcp="content">${content}</p>` : null}`;
}

/** The sentence under the step table; null when the run's servers asked for no sampling. */
export function samplingTableNote(events: readonly StepEvent[]): SafeHtml | null {
  const t = samplingTotals(events);
  return t ? html`<p class="muted" data-mcp="sampling-totals">${samplingTotalsText(t)}</p>` : null;
}
