/**
 * Where a run's time went, as spans on its own time axis (ms since the run started, the `t` of its events):
 * its worker's start-up (before 0), each model request (sent → first token → last token), a failed attempt and
 * the wait before its retry, each tool call, each call inside a program nested under its run_code, and each wait
 * for the user's approval. Built from the recorded events only, so the app and the HTML report draw the same
 * spans, and each span carries its times in words for readers that cannot see the bars.
 *
 * Sources: model-request `t` (sent) and model-response `latencyMs` / `firstTokenMs` (from the request), tool-started
 * and tool-finished `t`, code-run `toolCalls[].startMs` (from its run_code call's start), approval-requested and
 * approval-resolved `t`, model-retry `t` and `delayMs`, run-started `workerStart.ms`, history-summary `t` and `latencyMs`. Records made before a field
 * existed draw what they have: a response without firstTokenMs has no first-token mark.
 */
import { formatDuration } from './number-format.js';
import type { CodeRunEvent, StepEvent } from './step-event.js';
import { stepTitle } from './step-phase.js';

export type SpanKind =
  | 'startup'
  | 'model'
  | 'attempt'
  | 'retry-wait'
  | 'tool'
  | 'inner'
  | 'approval'
  | 'sampling'
  | 'summary';

export interface WaterfallSpan {
  /** Unique within the run. */
  readonly id: string;
  readonly kind: SpanKind;
  /** "Step 2 · model", "read_file", "run_code › list_dir", "Approval: run_shell". */
  readonly label: string;
  readonly step: number | null;
  /** ms since the run started (start-up is negative: it comes before). */
  readonly start: number;
  readonly end: number;
  /** A model request's first token, ms since the run started; null when not recorded or not a request. */
  readonly firstToken: number | null;
  /** 0 for a top-level span, 1 for a call inside a program. */
  readonly depth: 0 | 1;
  /** The span it is nested under (an inner call's run_code). */
  readonly parent: string | null;
  /** It failed: a tool error, a failed attempt, a denied approval. */
  readonly failed: boolean;
  /** The span in words, with every time it shows. */
  readonly text: string;
}

export interface RunWaterfall {
  readonly spans: readonly WaterfallSpan[];
  /** The axis this run needs: from its start-up (≤ 0) to its last event. */
  readonly from: number;
  readonly to: number;
}

const ms = (v: number) => formatDuration(Math.max(0, v));
const at = (v: number) => `${v < 0 ? '−' : ''}${formatDuration(Math.abs(v))}`;

/** The spans of one run's events, in start order (nested calls right after their run_code). */
export function runWaterfall(events: readonly StepEvent[]): RunWaterfall {
  const spans: WaterfallSpan[] = [];
  const started = events.find((e) => e.type === 'run-started');
  if (started?.type === 'run-started' && started.workerStart) {
    const w = started.workerStart;
    spans.push({
      id: 'startup',
      kind: 'startup',
      label: 'Worker start-up',
      step: null,
      start: -w.ms,
      end: 0,
      firstToken: null,
      depth: 0,
      parent: null,
      failed: false,
      text: `Worker start-up: ${ms(w.ms)} before the run began${w.pooled ? ' (a warm worker)' : ''}; not part of the run's time.`,
    });
  }
  const requests = new Map<string, Extract<StepEvent, { type: 'model-request' }>>();
  const toolStarts = new Map<string, Extract<StepEvent, { type: 'tool-started' }>>();
  const approvals = new Map<string, Extract<StepEvent, { type: 'approval-requested' }>>();
  let lastRequest: Extract<StepEvent, { type: 'model-request' }> | null = null;
  for (const e of events) {
    switch (e.type) {
      case 'model-request':
        lastRequest = e;
        requests.set(`${e.step}`, e);
        break;
      case 'model-retry': {
        const req = lastRequest && lastRequest.step === e.step ? lastRequest : null;
        if (req) {
          spans.push({
            id: `attempt-${e.step}-${e.attempt}`,
            kind: 'attempt',
            label: `Step ${e.step} · attempt ${e.attempt}`,
            step: e.step,
            start: req.t,
            end: e.t,
            firstToken: null,
            depth: 0,
            parent: null,
            failed: true,
            text: `Step ${e.step}, attempt ${e.attempt}: sent at ${at(req.t)}, failed at ${at(e.t)} (${ms(e.t - req.t)}): ${e.message}`,
          });
        }
        if (e.delayMs > 0) {
          spans.push({
            id: `retry-wait-${e.step}-${e.attempt}`,
            kind: 'retry-wait',
            label: `Step ${e.step} · wait to retry`,
            step: e.step,
            start: e.t,
            end: e.t + e.delayMs,
            firstToken: null,
            depth: 0,
            parent: null,
            failed: false,
            text: `Step ${e.step}: waited ${ms(e.delayMs)} from ${at(e.t)} before trying again.`,
          });
        }
        break;
      }
      case 'model-response': {
        const req = requests.get(`${e.step}`);
        const sent = req ? req.t : Math.max(0, e.t - e.latencyMs);
        const end = sent + e.latencyMs;
        const first = e.firstTokenMs !== undefined ? sent + e.firstTokenMs : null;
        const firstWords =
          e.firstTokenMs !== undefined
            ? `first token after ${ms(e.firstTokenMs)} (at ${at(first!)}), then ${ms(e.latencyMs - e.firstTokenMs)} generating`
            : 'first token not recorded';
        spans.push({
          id: `model-${e.step}`,
          kind: 'model',
          label: `${stepTitle(e.step, req?.phase)} · model`,
          step: e.step,
          start: sent,
          end,
          firstToken: first,
          depth: 0,
          parent: null,
          failed: false,
          text: `${stepTitle(e.step, req?.phase)} model request: sent at ${at(sent)}, ${firstWords}, last token at ${at(end)} (${ms(e.latencyMs)} in all).`,
        });
        break;
      }
      case 'tool-started':
        toolStarts.set(e.callId, e);
        break;
      case 'tool-finished': {
        const s = toolStarts.get(e.callId);
        const start = s ? s.t : Math.max(0, e.t - e.durationMs);
        spans.push({
          id: `tool-${e.callId}`,
          kind: 'tool',
          label: e.name,
          step: e.step,
          start,
          end: e.t,
          firstToken: null,
          depth: 0,
          parent: null,
          failed: e.error !== null,
          text: `Step ${e.step} tool ${e.name}: from ${at(start)} to ${at(e.t)} (${ms(e.t - start)})${e.error !== null ? `, failed: ${e.error}` : ''}${e.cancelled ? ', cancelled' : ''}.`,
        });
        break;
      }
      case 'code-run':
        spans.push(...innerSpans(e, toolStarts.get(e.callId)?.t ?? Math.max(0, e.t - e.durationMs)));
        break;
      case 'approval-requested':
        approvals.set(e.approvalId, e);
        break;
      case 'approval-resolved': {
        const r = approvals.get(e.approvalId);
        const start = r ? r.t : Math.max(0, e.t - e.waitedMs);
        const denied = e.decision === 'deny' || e.decision === 'cancelled';
        spans.push({
          id: `approval-${e.approvalId}`,
          kind: 'approval',
          label: `Approval: ${e.tool}`,
          step: e.step,
          start,
          end: e.t,
          firstToken: null,
          depth: r?.inProgram ? 1 : 0,
          parent: r?.inProgram ? `tool-${e.callId}` : null,
          failed: denied,
          text: `Step ${e.step} waited ${ms(e.waitedMs)} for approval of ${e.tool}, from ${at(start)} to ${at(e.t)}: ${e.decision === 'allow-comparison' ? 'allowed for the comparison' : e.decision === 'allow' ? 'allowed' : e.decision === 'deny' ? 'denied' : 'cancelled'}.`,
        });
        break;
      }
      case 'sampling': {
        const start = Math.max(0, e.t - e.latencyMs);
        spans.push({
          id: `sampling-${e.seq}`,
          kind: 'sampling',
          label: `Sampling for ${e.server}`,
          step: e.step,
          start,
          end: e.t,
          firstToken: null,
          depth: 1,
          parent: `tool-${e.callId}`,
          failed: e.error !== null,
          text: `Step ${e.step}: ${e.server} asked the model to sample, from ${at(start)} to ${at(e.t)} (${ms(e.latencyMs)})${e.error ? `, failed: ${e.error}` : ''}.`,
        });
        break;
      }
      case 'history-summary': {
        // summarize:K: a request of its own to the run's model before the step's request.
        const start = Math.max(0, e.t - e.latencyMs);
        spans.push({
          id: `summary-${e.seq}`,
          kind: 'summary',
          label: `Step ${e.step} · history summary`,
          step: e.step,
          start,
          end: e.t,
          firstToken: null,
          depth: 0,
          parent: null,
          failed: e.error !== null,
          text: `Before step ${e.step}, the model summarised ${e.fromStep === e.toStep ? `step ${e.fromStep}` : `steps ${e.fromStep}–${e.toStep}`}, from ${at(start)} to ${at(e.t)} (${ms(e.latencyMs)})${e.error ? `, failed: ${e.error}` : ''}.`,
        });
        break;
      }
      case 'elicitation-requested':
      case 'elicitation':
      case 'run-finished':
      case 'run-started':
      case 'run-warning':
      case 'tool-progress':
      case 'tool-search':
      default:
        break;
    }
  }
  const ordered = nest(spans);
  const last = events.length ? events[events.length - 1]!.t : 0;
  return {
    spans: ordered,
    from: Math.min(0, ...ordered.map((s) => s.start)),
    to: Math.max(last, ...ordered.map((s) => s.end)),
  };
}

/** A program's calls, from its run_code call's start; calls recorded before startMs existed are laid end to end. */
function innerSpans(e: CodeRunEvent, programStart: number): WaterfallSpan[] {
  let cursor = programStart;
  return e.toolCalls.map((c, i) => {
    const start = c.startMs !== undefined ? programStart + c.startMs : cursor;
    const end = start + c.durationMs;
    cursor = end;
    const known = c.startMs !== undefined ? '' : ' (its start was not recorded: placed after the call before it)';
    return {
      id: `inner-${e.callId}-${i}`,
      kind: 'inner' as const,
      label: `run_code › ${c.name}`,
      step: e.step,
      start,
      end,
      firstToken: null,
      depth: 1 as const,
      parent: `tool-${e.callId}`,
      failed: c.error !== null,
      text: `Step ${e.step} inside run_code, ${c.name}: from ${at(start)} to ${at(end)} (${ms(c.durationMs)})${c.error !== null ? `, failed: ${c.error}` : ''}${known}.`,
    };
  });
}

/** Top-level spans by start; each nested span right after its parent, by start. */
function nest(spans: readonly WaterfallSpan[]): WaterfallSpan[] {
  const byStart = (a: WaterfallSpan, b: WaterfallSpan) => a.start - b.start || a.end - b.end;
  const top = spans.filter((s) => s.parent === null || !spans.some((p) => p.id === s.parent)).sort(byStart);
  const out: WaterfallSpan[] = [];
  for (const s of top) {
    out.push(s);
    out.push(...spans.filter((c) => c.parent === s.id).sort(byStart));
  }
  return out;
}

/** One axis for several runs side by side: from the earliest start-up to the latest end. */
export function sharedAxis(runs: readonly RunWaterfall[]): { from: number; to: number } {
  return { from: Math.min(0, ...runs.map((r) => r.from)), to: Math.max(1, ...runs.map((r) => r.to)) };
}

/** Share of the track the start-up takes when the axis is broken (waterfallAxis). */
export const BREAK_SHARE = 0.1;
/** Beyond this share of the axis, drawn to scale, start-up would leave the run's own spans too little of the width. */
const CRUSHING = 0.25;

export interface WaterfallAxis {
  readonly from: number;
  readonly to: number;
  /**
   * Start-up is drawn not to scale: the time before 0 squeezed into the first BREAK_SHARE of the track, behind a
   * break, so a 6.6 s start-up beside an 823 ms run leaves the run's steps the rest of the width.
   */
  readonly broken: boolean;
  /** Where a time sits along the track, from 0 (the axis's start) to 1. */
  position(v: number): number;
  /** The ticks to label: round steps over the part drawn to scale. */
  readonly ticks: readonly number[];
}

/**
 * The axis several runs share: to scale when their start-ups are a small part of it (or `toScale` is asked for),
 * else broken at 0 with the start-ups squeezed before the break, their lengths in words beside them.
 */
export function waterfallAxis(runs: readonly RunWaterfall[], options: { toScale?: boolean } = {}): WaterfallAxis {
  const { from, to } = sharedAxis(runs);
  const broken = !options.toScale && from < 0 && -from > CRUSHING * (to - from);
  if (!broken) return { from, to, broken, position: (v) => (v - from) / (to - from), ticks: axisTicks(from, to) };
  const position = (v: number) => (v < 0 ? BREAK_SHARE * (1 - v / from) : BREAK_SHARE + (1 - BREAK_SHARE) * (v / to));
  return { from, to, broken, position, ticks: axisTicks(0, to, 5) };
}

/** Beyond this share from either end a tick's label, centred on its tick, would reach past the track. */
const EDGE = 0.1;

/**
 * How a tick's label sits on its tick: centred, or held inside the track at either end, so the label of a tick at
 * the axis's very end (a run of exactly 1.5 s) never reaches past the page the report prints on.
 */
export function tickAnchor(position: number): 'start' | 'middle' | 'end' {
  if (position < EDGE) return 'start';
  return position > 1 - EDGE ? 'end' : 'middle';
}

/** Ticks at a round step (1, 2 or 5 × 10ⁿ ms), about `count` of them, covering the axis. */
export function axisTicks(from: number, to: number, count = 6): number[] {
  const span = Math.max(1, to - from);
  const raw = span / count;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= raw) ?? pow * 10;
  const ticks: number[] = [];
  for (let v = Math.ceil(from / step) * step; v <= to + 1e-9; v += step) ticks.push(Math.round(v) + 0); // + 0: no −0 tick
  return ticks;
}

const LEGEND: readonly SpanKind[] = ['startup', 'model', 'tool', 'inner', 'approval', 'retry-wait'];
/** Kinds only some comparisons have: a legend names them when a run drew one. */
const OCCASIONAL: readonly SpanKind[] = ['sampling', 'summary'];

/** The kinds a legend names for these runs' waterfalls ('attempt' is shown by the legend's "failed" key). */
export function legendKinds(wfs: readonly RunWaterfall[]): SpanKind[] {
  const drawn = new Set(wfs.flatMap((w) => w.spans.map((s) => s.kind)));
  return [...LEGEND, ...OCCASIONAL.filter((k) => drawn.has(k))];
}

export const SPAN_KIND_WORDS: Readonly<Record<SpanKind, string>> = {
  startup: 'worker start-up',
  model: 'model request',
  attempt: 'failed attempt',
  'retry-wait': 'wait before a retry',
  tool: 'tool call',
  inner: 'call inside a program',
  approval: 'approval wait',
  sampling: 'MCP sampling',
  summary: 'history summary',
};
