/**
 * The HTML report's parts for a comparison with several trials per mode: the per-run table grouped by trial
 * and the "Average over N trials" section. With one trial none of this is used, so those reports keep
 * their exact bytes (the extra CSS below is added only when it is needed, for the same reason).
 */
import {
  FIGURES_NOTE,
  formatPercent,
  ONE_TRIAL_NOTE,
  percentDiff,
  ranOfAggregate,
  type RunSummary,
  type Stat,
} from '../../../shared/summary.js';
import { meanBarsSvg } from './html-charts.js';
import { html, type SafeHtml } from './html-escape.js';
import { foldText } from './html-timeline.js';
import { modeSwatch } from './report-palette.js';
import { statusLabel, statusNote, type ReportData, type ReportRun } from './report-data.js';
import {
  AVERAGE_METRICS,
  averageVerdict,
  byTrial,
  columnLabel,
  formatMean,
  formatRange,
  meanDiff,
  trialCheapest,
} from './trial-figures.js';
import { RUN_METRICS as ALL_RUN_METRICS } from './report-figures.js';
import { formatMetric, metricNote } from '../../../shared/run-metrics.js';
import { averageCostRow, averageCostVerdictHtml, estMark, legendHtml, runEstimated } from './html-cost.js';
import { costHint, costText, isEstimated } from '../../../shared/cost.js';

/** A figure's note (metricNote) on its own wrapping line under the figure, or nothing. */
export function noteSpan(note: string): SafeHtml | null {
  return note ? html`<span class="where">${note.trim()}</span>` : null;
}

const TOKEN_KEYS: ReadonlySet<string> = new Set(['prompt', 'completion', 'cached', 'reasoning', 'total']);

export const TRIALS_CSS = `
.range, .ci { display: block; font-size: 11.5px; color: var(--muted); }
ul.differences { padding-left: 18px; }
ul.differences li { margin: 3px 0; }
table.average { min-width: 60%; }
table.average th:first-child { width: 170px; }
table.runs { width: 100%; }
table.runs tbody tr.trial-head th { background: var(--soft); font-weight: 600; }
table.runs tr.run > * { border-bottom: 0; }
table.runs tr.run th[scope=row] { white-space: normal; min-width: 10.5em; }
table.runs tr.run td[data-metric=status] { white-space: nowrap; }
table.runs tr.answer-row td { border-top: 0; padding-top: 0; font-size: 12.5px; }
table.runs .answer { white-space: pre-wrap; overflow-wrap: anywhere;
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 12px; }
.tag { display: inline-block; margin-left: 6px; padding: 0 6px; border-radius: 8px; font-size: 11px; font-weight: 600;
  color: var(--ok); border: 1px solid currentColor; }
.charts-trial > summary, section.mode.folded > details > summary { padding: 4px 0; }
section.mode.folded { margin-top: 10px; }
section.mode.folded > details > summary h2 { display: inline; border: 0; margin: 0; padding: 0; font-size: 17px; }
section.mode.folded > details[open] > summary { border-bottom: 1px solid var(--line); margin-bottom: 8px; }
/* A narrow window or an A4 page: the twelve columns of the runs table tighten and their heads wrap. */
@media (max-width: 900px) {
  table.runs { font-size: 11.5px; }
  table.runs th, table.runs td { padding: 3px 4px; }
  table.runs thead th, table.runs .diff { white-space: normal; }
  table.runs thead th { font-size: 10.5px; }
  table.runs tr.run th[scope=row] { min-width: 7em; }
  table.runs .tag { margin-left: 0; }
}
/* Print has no clicks: folded timelines and trial charts print open where the browser can style the
   fold (::details-content), flowing on rather than each starting a page. */
@media print { section.mode.folded { break-before: auto; } }
@media print { section.mode.folded > details::details-content, details.charts-trial::details-content { content-visibility: visible; } }
`;

// Narrow columns: the short labels.
const RUN_METRICS = ALL_RUN_METRICS.map((m) => ({ ...m, label: m.short }));

const answered = (s: RunSummary | undefined) => s?.status === 'answered';

function pctSpan(p: number | null, suffix: string, comparable = true): SafeHtml {
  const cls = !comparable || p === null || p === 0 ? '' : p < 0 ? ' less' : ' more';
  return html`<span class="diff${cls}">${formatPercent(p)} ${suffix}${comparable ? '' : ' *'}</span>`;
}

function runRow(r: ReportRun, first: ReportRun, cheapest: ReportRun | null, costInfo: boolean): SafeHtml {
  const comparable = answered(r.summary) && answered(first.summary);
  const l = statusLabel(r);
  const v = r.summary.validation;
  const cells = RUN_METRICS.map((m) => {
    const value = r.summary.totals[m.key];
    const diff =
      m.key !== 'total'
        ? null
        : r === first
          ? html`<span class="diff">baseline</span>`
          : pctSpan(percentDiff(value, first.summary.totals.total), 'vs first', comparable);
    return html`<td class="num" data-run="${r.runId}" data-metric="${m.key}" data-value="${value}">${estMark(TOKEN_KEYS.has(m.key) && runEstimated(r.summary))}${formatMetric(m, value)}${noteSpan(metricNote(m.key, r.summary))}${diff}</td>`;
  });
  if (costInfo)
    cells.push(
      html`<td class="num" data-run="${r.runId}" data-metric="cost" data-value="${r.summary.cost.usd ?? ''}" title="${costHint(r.summary.cost)}">${costText(r.summary.cost)}</td>`,
    );
  const note = r.summary.answer ? null : statusNote(r);
  const answer =
    r.summary.answer.length > 600
      ? html`<div class="answer" data-run="${r.runId}" data-metric="answer">${foldText('Answer', r.summary.answer)}</div>`
      : html`<span class="muted">Answer:</span> <span class="answer" data-run="${r.runId}" data-metric="answer">${r.summary.answer || html`<span class="muted">none</span>`}</span>${note ? html` <span class="muted">— ${note}</span>` : null}`;
  // The answer and the validation detail get a full-width row under the figures, so twelve columns still fit.
  return html`<tr class="run" data-run="${r.runId}" data-trial="${r.trial}"><th scope="row">${modeSwatch(r.slot)}${r.label}${r === cheapest ? html` <span class="tag">cheapest</span>` : null}</th><td class="status-${l.replace(/ /g, '-')}" data-run="${r.runId}" data-metric="status">${l}</td>${cells}<td data-run="${r.runId}" data-metric="validation">${
    v
      ? html`<span class="badge ${v.ok ? 'ok' : 'bad'}">${v.ok ? 'passed' : 'failed'}</span>`
      : html`<span class="muted">not checked</span>`
  }</td></tr><tr class="answer-row"><td colspan="${RUN_METRICS.length + 3 + (costInfo ? 1 : 0)}">${answer}${
    v ? html`<br><span class="muted">Validation:</span> ${v.detail}` : null
  }</td></tr>`;
}

/** Every run, one row each, grouped by trial; a total's difference is against the first mode of its own trial. */
export function runsTable(d: ReportData): SafeHtml {
  const sim = d.simulated
    ? ' Simulated: token figures were counted by the simulated model from the real requests, not billed by a provider.'
    : '';
  const cols = RUN_METRICS.length + 3 + (d.costShown ? 1 : 0);
  const groups = byTrial(d.runs);
  const body = groups.map((g) => {
    const cheapest = trialCheapest(g.runs);
    return html`<tbody><tr class="trial-head"><th colspan="${cols}" scope="rowgroup">Trial ${g.trial}</th></tr>${g.runs.map((r) => runRow(r, g.runs[0], cheapest, d.costShown))}</tbody>`;
  });
  const starred = groups.some((g) =>
    g.runs.slice(1).some((r) => !(answered(r.summary) && answered(g.runs[0].summary))),
  );
  const note = starred
    ? html`<p class="muted">* Compared with a run that did not answer: its figures cover only the steps it made.</p>`
    : null;
  return html`<table class="runs"><caption>One row per run, grouped by trial; "cheapest" marks the answered run with the fewest total tokens in its trial.${sim}</caption><thead><tr><th>Run</th><th>Status</th>${RUN_METRICS.map((m) => html`<th class="num">${m.label}</th>`)}${d.costShown ? html`<th class="num">Cost (USD)</th>` : null}<th>Validation</th></tr></thead>${body}</table>${d.costShown ? legendHtml(d.runs.map((r) => r.summary)) : null}${note}`;
}

const pct = (v: number) => `${Math.round(v * 100)} %`;

/** "± 180 · sd 145" under a mean, or "1 trial: no interval". */
function spreadHtml(s: Stat, f: (v: number) => string): SafeHtml {
  if (!s.ci95 || s.sd === null) return html`<span class="ci">${ONE_TRIAL_NOTE}</span>`;
  return html`<span class="ci" data-ci-low="${s.ci95[0]}" data-ci-high="${s.ci95[1]}" data-sd="${s.sd}" title="95 % interval of the mean (t): ${f(s.ci95[0])} to ${f(s.ci95[1])}">± ${f((s.ci95[1] - s.ci95[0]) / 2)} · sd ${f(s.sd)}</span>`;
}

/** Mean ± half its 95 % interval, sd and lowest–highest run of each figure per mode, the differences in words, and a chart. */
/** The result over trials, for the top of the report: the verdict, the cost verdict and the differences in words. */
export function averageResultHtml(d: ReportData): SafeHtml {
  const v = averageVerdict(d.byMode, d.runs, d.trials, d.simulated, d.costInfo);
  const verdict = html`<p class="verdict">${v.cheaper ? html`<span class="cheapest">${v.cheaper}</span>` : null}${v.text}</p>${d.costShown ? averageCostVerdictHtml(d.byMode) : null}`;
  const diffs = d.differences.length
    ? html`<h3>Against ${columnLabel(d.byMode[0])}</h3><p class="muted">Each difference with its 95 % interval and the two-sided p of an exact permutation test (${d.differences[0].paired ? "paired by round: the sign of each round's difference flipped in every pattern" : 'every split of the runs into two groups'}).</p><ul class="differences">${d.differences.map((x) => html`<li data-mode="${x.column.key}" data-figure="${x.figure}" data-p="${x.p ?? ''}">${x.sentence}.</li>`)}</ul>`
    : null;
  return html`${verdict}${diffs}`;
}

export function averageSection(d: ReportData): SafeHtml {
  const sim = d.simulated ? ' (simulated)' : '';
  const base = d.byMode[0];
  const head = html`<thead><tr><th></th>${d.byMode.map((a) => html`<th class="num" scope="col">${modeSwatch(d.slotOf(a.column.key))}${columnLabel(a)}</th>`)}</tr></thead>`;
  const counts = (['answered', 'passed'] as const).map(
    (key) =>
      html`<tr><th scope="row">${key === 'answered' ? 'Answered' : 'Passed validation'}</th>${d.byMode.map(
        (a) =>
          html`<td class="num" data-mode="${a.column.key}" data-metric="${key}" data-value="${a[key]}" data-of="${ranOfAggregate(a)}">${a[key]}/${ranOfAggregate(a)}${
            key === 'answered' && a.neverStarted ? html`<span class="ci">${a.neverStarted} never started</span>` : null
          }${
            key === 'passed' && a.passRate
              ? html`<span class="ci" data-ci-low="${a.passRate.ci95[0]}" data-ci-high="${a.passRate.ci95[1]}">95 % CI ${pct(a.passRate.ci95[0])}–${pct(a.passRate.ci95[1])}</span>`
              : null
          }</td>`,
      )}</tr>`,
  );
  const rows = AVERAGE_METRICS.map(
    (m) =>
      html`<tr><th scope="row">${m.label}</th>${d.byMode.map((a, i) => {
        const s = a[m.key];
        if (!s)
          return html`<td class="num muted" data-mode="${a.column.key}" data-metric="${m.key}">no finished run</td>`;
        const diff = i === 0 ? html`<span class="diff">baseline</span>` : pctSpan(meanDiff(a, base, m.key), 'vs first');
        return html`<td class="num" data-mode="${a.column.key}" data-metric="${m.key}" data-mean="${s.mean}" data-min="${s.min}" data-max="${s.max}">${estMark(TOKEN_KEYS.has(m.key) && isEstimated(a.usageSource))}${formatMean(s.mean, m.unit === 'ms')}${spreadHtml(s, (v) => formatMean(v, m.unit === 'ms'))}<span class="range">${formatRange(s, m.unit === 'ms')}</span>${diff}</td>`;
      })}</tr>`,
  );
  const caption = html`<caption>Mean over each mode's finished runs; under it ± half its 95 % interval (Student's t) and the standard deviation, the lowest–highest run, and the mean's difference against the first mode.${
    d.simulated
      ? ' Simulated: token figures were counted by the simulated model from the real requests, not billed by a provider.'
      : ''
  }</caption>`;
  const chart = meanBarsSvg(
    d.byMode.map((a) => ({ label: columnLabel(a), mode: d.slotOf(a.column.key), stat: a.total })),
    {
      id: 'chart-average-total',
      title: `Mean total tokens per mode over ${d.trials} trials${sim}`,
      unit: 'tokens',
    },
  );
  return html`<section class="average" id="average"><h2>Average over ${d.trials} trials</h2><p>A model decides differently from run to run, so one run is noise: each mode ran ${d.trials} times. ${FIGURES_NOTE}</p><table class="average">${caption}${head}<tbody>${counts}${rows}${d.costShown ? averageCostRow(d.byMode) : null}</tbody></table><figure>${chart}<figcaption>Mean total tokens (prompt + completion) per mode; the error bar is the 95 % interval of the mean, the dots the lowest and highest run${sim}.</figcaption></figure></section>`;
}
