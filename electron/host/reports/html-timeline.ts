/**
 * One run's timeline in the HTML report: each step with its tokens, the model's text, every tool call with
 * its arguments and result, the code written and what it printed, errors with their line, search hits,
 * retries and warnings, then the final answer. Long texts fold into <details> (readable without script).
 */
import type {
  ApprovalRequestedEvent,
  ApprovalResolvedEvent,
  CodeRunEvent,
  ModelResponseEvent,
  ParsedReply,
  RunTotals,
  StepEvent,
  ToolFinishedEvent,
  ToolSearchEvent,
  ToolStartedEvent,
} from '../../../shared/step-event.js';
import { computeTotals, type StepSummary } from '../../../shared/summary.js';
import { approvalOutcome, formatArgs, formatInt, formatMs, formatUtc } from './report-text.js';
import { html, type SafeHtml } from './html-escape.js';
import { statusLabel, statusNote, type ReportRun } from './report-data.js';
import { modeSwatch } from './report-palette.js';
import { costText, isEstimated, stepCostText } from '../../../shared/cost.js';
import type { PriceKind } from '../../../shared/pricing.js';
import { estMark } from './html-cost.js';
import { foldedAnswer } from './html-answers.js';
import { indexMcp, mcpNotes, samplingTableNote, type McpIndex } from './html-mcp.js';
import { historySummaryText, summaryTotals, summaryTotalsText } from '../../../shared/history-summary-words.js';
import { stepTitle } from '../../../shared/step-phase.js';

const FOLD_CHARS = 1200;
const FOLD_LINES = 20;

/** Text in a <pre>, folded behind a summary line when it is long. */
export function foldText(label: string, text: string, open = false): SafeHtml {
  const lines = text.split('\n').length;
  if (text.length <= FOLD_CHARS && lines <= FOLD_LINES) {
    return html`<div class="label muted">${label}</div><pre>${text === '' ? '(empty)' : text}</pre>`;
  }
  return html`<details${open ? html` open` : null}><summary>${label} — ${formatInt(text.length)} chars, ${formatInt(lines)} lines</summary><pre>${text}</pre></details>`;
}

function codeListing(code: string, errorLine: number | null): SafeHtml {
  const lines = code.split('\n');
  return html`<ol class="code mono">${lines.map((l, i) => html`<li${i + 1 === errorLine ? html` class="error-line"` : null}>${l === '' ? ' ' : l}</li>`)}</ol>`;
}

function codeRun(e: CodeRunEvent): SafeHtml {
  const err = e.error
    ? html`<p class="err"><span class="label">Error${e.error.line !== null ? ` at line ${e.error.line}${e.error.column !== null ? `, column ${e.error.column}` : ''}` : ''}:</span> ${e.error.message}</p>`
    : null;
  const inner = e.toolCalls.length
    ? html`<table><caption>Tool calls made by the program (${e.toolCalls.length})</caption><thead><tr><th>tool</th><th>arguments</th><th class="num">duration</th><th class="num">result bytes</th><th>error</th></tr></thead><tbody>${e.toolCalls.map(
        (c) =>
          html`<tr><td class="mono">${c.name}</td><td class="mono">${JSON.stringify(c.args) ?? ''}</td><td class="num">${formatMs(c.durationMs)}</td><td class="num">${formatInt(c.resultBytes)}</td><td class="err">${c.error ?? ''}</td></tr>`,
      )}</tbody></table>`
    : html`<p class="muted">The program called no tool.</p>`;
  const limit = e.limitHit ? html`<p class="err"><span class="label">Limit hit:</span> ${e.limitHit}</p>` : null;
  return html`<div class="event code"><div class="label">Code written (run ${formatMs(e.durationMs)})</div>${codeListing(e.code, e.error?.line ?? null)}${err}${limit}${inner}<p class="muted">Tools returned ${formatInt(e.toolBytes)} bytes inside the program; ${formatInt(e.printedBytes)} bytes were printed back to the model.</p>${foldText('Printed output', e.output)}</div>`;
}

function toolSearch(e: ToolSearchEvent): SafeHtml {
  return html`<div class="event search"><div><span class="label">Tool search:</span> <code>${e.query}</code> — ${e.hits.length} hit${e.hits.length === 1 ? '' : 's'}</div>${
    e.hits.length
      ? html`<table><thead><tr><th>tool</th><th class="num">score</th><th>signature</th></tr></thead><tbody>${e.hits.map(
          (h) =>
            html`<tr><td class="mono">${h.name}</td><td class="num">${h.score.toFixed(2)}</td><td class="mono">${h.signature}</td></tr>`,
        )}</tbody></table>`
      : null
  }</div>`;
}

function toolResult(f: ToolFinishedEvent | undefined, printed: string | null): SafeHtml {
  if (!f) return html`<p class="err">No result was stored for this call (the run stopped while it was running).</p>`;
  if (f.cancelled)
    return html`<p class="muted">${formatMs(f.durationMs)} · aborted by cancel: nothing went back to the model</p>`;
  const facts = html`<p class="muted">${formatMs(f.durationMs)} · ${formatInt(f.output.length)} chars returned to the model${f.truncated ? ` (truncated from ${formatInt(f.rawSize)})` : ''}</p>`;
  const err = f.error ? html`<p class="err"><span class="label">Tool error:</span> ${f.error}</p>` : null;
  // A program's result is its printed output, shown above; repeat it only if the model got something else.
  const same = printed !== null && printed.trimEnd() === f.output.trimEnd();
  const out = same ? null : foldText('Returned to the model', f.output);
  return html`${err}${facts}${out}`;
}

interface CallIndex {
  readonly finished: Map<string, ToolFinishedEvent>;
  readonly code: Map<string, CodeRunEvent[]>;
  readonly search: Map<string, ToolSearchEvent[]>;
  readonly started: Set<string>;
  readonly approvals: Map<string, ApprovalRequestedEvent[]>;
  readonly answers: Map<string, ApprovalResolvedEvent>;
  readonly mcp: McpIndex;
}

/** One approval of a call: what was asked, what the user answered, how long the run waited. */
function approval(e: ApprovalRequestedEvent, idx: CallIndex): SafeHtml {
  const r = idx.answers.get(e.approvalId);
  const ok = r?.decision === 'allow' || r?.decision === 'allow-comparison';
  return html`<div class="event approval ${ok ? 'ok' : 'bad'}"><span class="label">Approval:</span> <code>${e.tool}</code>${approvalOutcome(e.inProgram, r?.decision ?? null, r?.waitedMs ?? null)}${
    e.inProgram ? html` <code class="args">${JSON.stringify(e.args) ?? ''}</code>` : null
  }</div>`;
}

function indexCalls(events: readonly StepEvent[]): CallIndex {
  const idx: CallIndex = {
    finished: new Map(),
    code: new Map(),
    search: new Map(),
    started: new Set(),
    approvals: new Map(),
    answers: new Map(),
    mcp: indexMcp(events),
  };
  for (const e of events) {
    if (e.type === 'approval-requested') idx.approvals.set(e.callId, [...(idx.approvals.get(e.callId) ?? []), e]);
    if (e.type === 'approval-resolved') idx.answers.set(e.approvalId, e);
    if (e.type === 'tool-started') idx.started.add(e.callId);
    if (e.type === 'tool-finished') idx.finished.set(e.callId, e);
    if (e.type === 'code-run') idx.code.set(e.callId, [...(idx.code.get(e.callId) ?? []), e]);
    if (e.type === 'tool-search') idx.search.set(e.callId, [...(idx.search.get(e.callId) ?? []), e]);
  }
  return idx;
}

function toolCall(e: ToolStartedEvent, idx: CallIndex): SafeHtml {
  const codes = idx.code.get(e.callId) ?? [];
  const searches = idx.search.get(e.callId) ?? [];
  const printed = codes.length ? codes[codes.length - 1].output : null;
  // In the order they happened: a program's searches run before its code-run record closes.
  const inner = [...codes, ...searches]
    .sort((a, b) => a.seq - b.seq)
    .map((x) => (x.type === 'code-run' ? codeRun(x) : toolSearch(x)));
  // The code of run_code is shown as a numbered listing, so its arguments are not repeated as JSON.
  // Short arguments sit on the call's line; long ones get a block of their own.
  const compact = typeof e.args === 'string' ? e.args : (JSON.stringify(e.args) ?? '');
  const inline = !codes.length && compact.length <= 120 && !compact.includes('\n');
  const args = codes.length || inline ? null : foldText('Arguments', formatArgs(e.args));
  const approvals = (idx.approvals.get(e.callId) ?? []).map((a) => approval(a, idx));
  const finished = idx.finished.get(e.callId);
  const mcp = mcpNotes(e.callId, e.name, finished, idx.mcp, foldText);
  return html`<div class="event tool"><div><span class="label">Tool call</span> <code>${e.name}</code>${inline ? html` <code class="args">${compact}</code>` : null} <span class="muted mono">${e.callId}</span></div>${args}${approvals}${inner}${mcp}${toolResult(finished, printed)}</div>`;
}

function modelResponse(e: ModelResponseEvent): SafeHtml {
  const reasoning = e.reasoningText ? foldText('Reasoning text', e.reasoningText) : null;
  const text = e.text ? foldText(e.toolCalls.length ? 'Model text' : 'Model reply', e.text) : null;
  const asked = e.toolCalls.length
    ? html`<p class="muted">Asked for ${e.toolCalls.length} tool call${e.toolCalls.length === 1 ? '' : 's'}: ${e.toolCalls.map((c) => c.name).join(', ')}${e.finishReason ? ` · finish reason ${e.finishReason}` : ''}</p>`
    : html`<p class="muted">No tool call${e.finishReason ? ` · finish reason ${e.finishReason}` : ''}</p>`;
  const usage =
    e.usage === null
      ? html`<p class="notice">The provider sent no token usage for this step; it counts as 0.</p>`
      : null;
  return html`<div class="event response">${usage}${reasoning}${text}${asked}${e.parsed ? parsedReply(e.parsed, e.text.length) : null}</div>`;
}

/** A text ReAct reply as the engine read it: its Thought, what could not be read, what was dropped. */
function parsedReply(p: ParsedReply, length: number): SafeHtml {
  const dropped = length - p.kept;
  return html`${p.thought !== null ? html`<p><span class="label">Thought</span> ${p.thought}</p>` : null}${p.parseError !== null ? html`<p class="err">Not read, sent back as the observation: ${p.parseError}</p>` : null}${dropped > 0 ? html`<p class="muted">The last ${formatInt(dropped)} characters, from the model's own "Observation:" line on, were dropped: never read as a tool result, not sent back.</p>` : null}`;
}

function stepHeader(
  step: number,
  phase: string | undefined,
  s: StepSummary | undefined,
  requestNote: string,
  simulated: boolean,
  cost: { kind: PriceKind } | null,
): SafeHtml {
  const est = s?.usageSource === 'estimated' ? estMark(true) : null;
  const tokens = s
    ? html`<span class="mono">${est}prompt ${formatInt(s.prompt)}</span><span class="mono">${est}completion ${formatInt(s.completion)}</span>${cost ? html`<span class="mono" data-metric="cost">cost ${stepCostText(s.cost, cost.kind, s.usageMissing)}</span>` : null}${s.cached ? html`<span class="mono">cached ${formatInt(s.cached)}</span>` : null}${s.cacheWrite ? html`<span class="mono">cache write ${formatInt(s.cacheWrite)}</span>` : null}${s.reasoning ? html`<span class="mono">reasoning ${formatInt(s.reasoning)}</span>` : null}${simulated ? html`<span class="sim-tag">simulated</span>` : null}<span class="mono">${formatMs(s.latencyMs)}</span>${s.attempts > 1 ? html`<span class="err">${s.attempts} attempts</span>` : null}`
    : html`<span class="err">no model response stored</span>`;
  return html`<header><h4>${stepTitle(step, phase)}</h4>${tokens}<span class="muted">${requestNote}</span></header>`;
}

/** Event groups in seq order: a step's events together; run-level events (warnings) where they happened. */
function renderSteps(run: ReportRun, idx: CallIndex, simulated: boolean, costInfo: boolean): SafeHtml[] {
  const perStep = new Map(run.summary.perStep.map((s) => [s.step, s]));
  const blocks: { step: number | null; note: string; phase?: string; items: SafeHtml[] }[] = [];
  for (const e of run.events) {
    if (!('step' in e)) {
      if (e.type === 'run-warning') {
        if (!blocks.length) blocks.push({ step: null, note: '', items: [] });
        blocks[blocks.length - 1].items.push(
          html`<div class="event warning"><span class="label">Warning:</span> ${e.message}</div>`,
        );
      }
      continue;
    }
    let block = blocks[blocks.length - 1];
    if (!block || block.step !== e.step) blocks.push((block = { step: e.step, note: '', items: [] }));
    switch (e.type) {
      case 'model-request':
        if (e.phase) block.phase = e.phase;
        if (e.attempt === 1)
          block.note = `${e.messageCount} messages, ${e.toolNames.length} tool${e.toolNames.length === 1 ? '' : 's'} offered`;
        break;
      case 'model-retry':
        block.items.push(
          html`<div class="event retry"><span class="label">Attempt ${e.attempt} failed</span>${e.status !== null ? ` (HTTP ${e.status})` : ''}: ${e.message} — retried after ${formatMs(e.delayMs)}</div>`,
        );
        break;
      case 'model-response':
        block.items.push(modelResponse(e));
        break;
      case 'history-summary':
        // A request of its own before this step's: its tokens are in the run's totals, not in the step's row.
        block.items.push(
          html`<div class="event summary${e.error !== null ? ' error' : ''}" data-history="summary"><p${e.error !== null ? html` class="err"` : null}>${historySummaryText(e, simulated)}</p>${e.error === null ? foldText('Sent instead of those steps', e.text) : null}</div>`,
        );
        break;
      case 'tool-started':
        block.items.push(toolCall(e, idx));
        break;
      case 'tool-finished':
        if (!idx.started.has(e.callId))
          block.items.push(
            html`<div class="event tool"><span class="label">Tool result</span> <code>${e.name}</code>${mcpNotes(e.callId, e.name, e, idx.mcp, foldText)}${toolResult(e, null)}</div>`,
          );
        break;
      case 'code-run':
        if (!idx.started.has(e.callId)) block.items.push(codeRun(e));
        break;
      case 'tool-search':
        if (!idx.started.has(e.callId)) block.items.push(toolSearch(e));
        break;
      case 'approval-requested':
        if (!idx.started.has(e.callId)) block.items.push(approval(e, idx));
        break;
      // Shown inside the call they belong to (toolCall, mcpNotes), not as items of their own.
      case 'approval-resolved':
      case 'elicitation-requested':
      case 'elicitation':
      case 'sampling':
      case 'tool-progress':
        break;
    }
  }
  return blocks.map((b) =>
    b.step === null
      ? html`<div class="step">${b.items}</div>`
      : html`<div class="step" id="${run.runId}-step-${b.step}">${stepHeader(b.step, b.phase, perStep.get(b.step), b.note, simulated, costInfo ? { kind: run.summary.cost.kind } : null)}${b.items}</div>`,
  );
}

/** The sentence under the step table; null when the run made no summary request. */
function summaryTableNote(events: readonly StepEvent[], simulated: boolean): SafeHtml | null {
  const t = summaryTotals(events);
  return t ? html`<p class="muted" data-history="summary-totals">${summaryTotalsText(t, simulated)}</p>` : null;
}

function totalsMismatch(stored: RunTotals, recomputed: RunTotals): string | null {
  const keys = ['steps', 'requests', 'prompt', 'completion', 'cached', 'reasoning', 'toolCalls'] as const;
  const diff = keys.filter((k) => stored[k] !== recomputed[k]);
  return diff.length ? diff.map((k) => `${k}: stored ${stored[k]}, from steps ${recomputed[k]}`).join('; ') : null;
}

/** Statuses whose note is a failure's, shown in the colour of one. */
const BAD_NOTE = new Set(['error', 'crashed', 'refused', 'truncated', 'empty']);

function finalBlock(run: ReportRun): SafeHtml {
  const f = run.finished;
  const label = statusLabel(run);
  const cls = label.replace(/ /g, '-');
  const note = statusNote(run);
  const validation = run.summary.validation
    ? html`<p><span class="badge ${run.summary.validation.ok ? 'ok' : 'bad'}">${run.summary.validation.ok ? 'validated' : 'validation failed'}</span> ${run.summary.validation.detail}</p>`
    : null;
  const mismatch = f ? totalsMismatch(f.totals, computeTotals(run.events)) : null;
  return html`<div class="final ${cls}"><h4>Result: <span class="status-${cls}">${label}</span></h4>${
    note ? html`<p class="notice${BAD_NOTE.has(run.summary.status) ? ' bad' : ''}">${note}</p>` : null
  }${f && f.answer ? foldedAnswer(f.answer, `${run.runId}-final`, { open: true, label: true }) : html`<p class="muted">No answer.</p>`}${validation}${
    run.summary.totals.approvalWaitMs > 0
      ? html`<p class="muted">Waited ${formatMs(run.summary.totals.approvalWaitMs)} for the user's approval; not counted in its wall time of ${formatMs(run.summary.totals.wallMs)}.</p>`
      : null
  }${
    mismatch
      ? html`<p class="notice bad">The totals stored with the run differ from its steps (${mismatch}); this report uses the steps.</p>`
      : null
  }</div>`;
}

/**
 * The whole timeline section of one run. Folded (closed <details>, its status and total on the summary
 * line) when a comparison has several trials, so dozens of timelines do not bury the page.
 */
export function timelineSection(
  run: ReportRun,
  index: number,
  stepTable: SafeHtml,
  simulated: boolean,
  folded = false,
  costInfo = false,
): SafeHtml {
  const s = run.started;
  const intro = s
    ? html`<dl class="facts"><dt>Run</dt><dd class="mono">${run.runId}</dd><dt>Started</dt><dd>${formatUtc(s.startedAt)}</dd><dt>Tools on first request</dt><dd class="mono">${s.tools.map((t) => t.name).join(', ') || 'none'}</dd></dl>${foldText('System prompt', s.systemPrompt)}<details><summary>Tool definitions as sent (${s.tools.length})</summary><pre>${JSON.stringify(s.tools, null, 2)}</pre></details>`
    : html`<dl class="facts"><dt>Run</dt><dd class="mono">${run.runId}</dd></dl>`;
  const idx = indexCalls(run.events);
  const body = html`${intro}${stepTable}${samplingTableNote(run.events)}${summaryTableNote(run.events, simulated)}${renderSteps(run, idx, simulated, costInfo)}${finalBlock(run)}`;
  if (folded) {
    const label = statusLabel(run);
    return html`<section class="mode folded" id="mode-${index}"><details><summary><h2>${modeSwatch(run.slot)}${run.label} — timeline</h2> <span class="status-${label.replace(/ /g, '-')}">${label}</span> <span class="muted">· ${estMark(isEstimated(run.summary.usageSource))}${formatInt(run.summary.totals.total)} total tokens${simulated ? ' (simulated)' : ''}${costInfo ? ` · ${costText(run.summary.cost)}` : ''} · ${run.summary.totals.steps} step${run.summary.totals.steps === 1 ? '' : 's'}</span></summary>${body}</details></section>`;
  }
  return html`<section class="mode" id="mode-${index}"><h2>${modeSwatch(run.slot)}${run.label} — timeline</h2>${body}</section>`;
}
