/**
 * "Where the time went" in the HTML report: each run of a trial on one shared time axis (shared/waterfall.ts,
 * the spans the app's Waterfall tab draws). Each span is a table row, so its times are text; the bar beside
 * it is decoration (aria-hidden). Pure CSS, no script, within the report's CSP.
 */
import {
  BREAK_SHARE,
  runWaterfall,
  tickAnchor,
  waterfallAxis,
  type WaterfallAxis,
  type WaterfallSpan,
} from '../../../shared/waterfall.js';
import { formatDuration } from '../../../shared/number-format.js';
import { html, type SafeHtml } from './html-escape.js';
import type { ReportData, ReportRun } from './report-data.js';

const pct = (f: number) => (f * 100).toFixed(2);
const at = (v: number) => (v === 0 ? '0' : `${v < 0 ? '−' : ''}${formatDuration(Math.abs(v))}`);

function bar(s: WaterfallSpan, axis: WaterfallAxis): SafeHtml {
  const left = axis.position(s.start);
  const width = pct(Math.max(0, axis.position(s.end) - left));
  const wait =
    s.firstToken !== null && s.end > s.start ? (((s.firstToken - s.start) / (s.end - s.start)) * 100).toFixed(2) : null;
  const squeezed = s.kind === 'startup' && axis.broken ? ' is-squeezed' : '';
  return html`<div class="wf-track" aria-hidden="true"><div class="wf-bar wf-${s.kind}${s.failed ? ' is-failed' : ''}${squeezed}" style="left:${pct(left)}%;width:${width}%" title="${s.text}">${wait !== null ? html`<span class="wf-wait" style="width:${wait}%"></span>` : ''}</div></div>`;
}

function runRows(r: ReportRun, axis: WaterfallAxis): SafeHtml {
  const wf = runWaterfall(r.events);
  if (wf.spans.length === 0)
    return html`<tr><th scope="rowgroup" colspan="4">${r.label}</th></tr><tr><td colspan="4" class="muted">Nothing recorded.</td></tr>`;
  return html`<tr class="wf-run"><th scope="rowgroup" colspan="4">${r.label}</th></tr>${wf.spans.map((s) => html`<tr class="wf-row depth-${s.depth}"><th scope="row" title="${s.text}">${s.label}${s.failed ? html` <span class="wf-failed">failed</span>` : ''}</th><td class="num">${at(s.start)}${s.firstToken !== null ? html`<br><span class="muted">first token ${at(s.firstToken)}</span>` : ''}</td><td class="num">${formatDuration(Math.max(0, s.end - s.start))}</td><td class="wf-cell">${bar(s, axis)}</td></tr>`)}`;
}

export function waterfallSection(d: ReportData): SafeHtml | null {
  const trials = [...new Set(d.runs.map((r) => r.trial))].sort((a, b) => a - b);
  const byTrial = trials.map((t) => d.runs.filter((r) => r.trial === t));
  if (!d.runs.some((r) => r.events.length > 0)) return null;
  const one = (runs: readonly ReportRun[]): SafeHtml => {
    // Start-up that would crush the runs' spans drawn to scale is squeezed behind a break at 0 (its length is in "Takes").
    const axis = waterfallAxis(runs.map((r) => runWaterfall(r.events)));
    const brk = axis.broken ? html`<span class="wf-break" style="width:${pct(BREAK_SHARE)}%">start-up</span>` : '';
    return html`<table class="waterfall" data-axis="${axis.broken ? 'broken' : 'to-scale'}"><thead><tr><th scope="col">Span</th><th scope="col">Starts</th><th scope="col">Takes</th><th scope="col" class="wf-cell"><span class="visually-hidden">Bar on the shared time axis</span><div class="wf-track wf-axis" aria-hidden="true">${brk}${axis.ticks.map((t) => html`<span class="wf-tick at-${tickAnchor(axis.position(t))}" style="left:${pct(axis.position(t))}%">${at(t)}</span>`)}</div></th></tr></thead><tbody>${runs.map((r) => runRows(r, axis))}</tbody></table>`;
  };
  const intro = html`<p class="muted">Where each run's time went, from the recorded events, on one time axis from each run's start (a worker's start-up comes before 0; when it would take most of the width it is drawn short, behind a dashed break, and its length is in "Takes"). A model request's bar is lighter while it waits for the first token; calls inside a program sit under their run_code. Times are in ms since the run started${d.simulated ? '; the model is simulated, the times are real' : ''}.</p>`;
  if (byTrial.length === 1) return html`<h2 id="waterfall">Where the time went</h2>${intro}${one(byTrial[0]!)}`;
  return html`<h2 id="waterfall">Where the time went</h2>${intro}${byTrial.map((runs, i) => html`<details${i === 0 ? html` open` : ''}><summary>Trial ${trials[i]!}</summary>${one(runs)}</details>`)}`;
}

export const WATERFALL_CSS = `
table.waterfall { width: 100%; }
table.waterfall td.num { text-align: right; white-space: nowrap; }
table.waterfall .wf-cell { width: 55%; min-width: 240px; }
table.waterfall tr.wf-run th { background: var(--soft); }
table.waterfall tr.depth-1 th { padding-left: 22px; font-weight: normal; color: var(--muted); }
.wf-track { position: relative; height: 12px; }
.wf-axis { height: 16px; }
.wf-tick { position: absolute; transform: translateX(-50%); font-size: 11px; font-weight: normal; color: var(--muted); white-space: nowrap; }
.wf-tick.at-start { transform: none; } .wf-tick.at-end { transform: translateX(-100%); }
.wf-bar { position: absolute; top: 1px; height: 10px; min-width: 2px; border-radius: 2px; overflow: hidden; }
.wf-wait { position: absolute; left: 0; top: 0; bottom: 0; background: rgba(255, 255, 255, 0.55); }
.wf-startup { background: #6b7280; } .wf-model { background: #0969da; } .wf-attempt { background: var(--bad); }
.wf-tool { background: #1a7f37; } .wf-inner { background: #3f9c63; } .wf-sampling { background: #8250df; } .wf-summary { background: #9a6700; }
.wf-approval, .wf-retry-wait { background: repeating-linear-gradient(45deg, #9a6700 0 3px, transparent 3px 6px); border: 1px solid #9a6700; }
.wf-bar.is-failed { background: var(--bad); }
.wf-bar.is-squeezed { background: repeating-linear-gradient(90deg, #6b7280 0 6px, transparent 6px 8px); border: 1px solid #6b7280; }
.wf-break { position: absolute; left: 0; top: 0; font-size: 11px; font-weight: normal; color: var(--muted); border-right: 2px dashed var(--line); overflow: hidden; white-space: nowrap; }
.wf-failed { color: var(--bad); font-weight: 600; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;
