/**
 * The self-contained HTML report: one file, inline CSS and SVG, no script, no external request (a strict
 * Content-Security-Policy makes the browser refuse any, as a second line of defence behind escaping).
 */
import { concurrencyNote } from '../../../shared/concurrency.js';
import { formatMetric, metricNote, toolsRun } from '../../../shared/run-metrics.js';
import { compositionLegend, compositionSvg } from './html-composition.js';
import { percentDiff, formatPercent, NO_DIFF_NOTE } from '../../../shared/summary.js';
import { findTask } from '../../../shared/tasks.js';
import { cumulativeSeries, firstRequestRows, RUN_METRICS, startSpreadMs } from './report-figures.js';
import { displayUrl, formatInt, formatMs, formatUtc, settingsRows } from './report-text.js';
import { cumulativeSvg, hbarsSvg, stepBarsSvg } from './html-charts.js';
import { CHART_TABLE_CSS, compositionTableHtml, cumulativeTableHtml, stepBarsTable } from './html-chart-table.js';
import { html, raw, type SafeHtml } from './html-escape.js';
import { APPROVAL_CSS, MANY_MODES_CSS, REPORT_CSS } from './html-styles.js';
import { modeSwatch, reportPaletteCss } from './report-palette.js';
import { timelineSection } from './html-timeline.js';
import { ANSWER_CSS, answersDiffSection, foldedAnswer } from './html-answers.js';
import { averageSection, noteSpan, runsTable, TRIALS_CSS, averageResultHtml } from './html-trials.js';
import {
  COST_CSS,
  estMark,
  legendHtml,
  priceFactsHtml,
  runEstimated,
  stepCostCell,
  summaryCostRows,
  verdictsHtml,
} from './html-cost.js';
import { columnModelsNote, statusLabel, type ReportData, type ReportRun } from './report-data.js';
import { byTrial, columnLabel, trialStartSpreadMs } from './trial-figures.js';
import { MATRIX_CSS, matrixHtml, variantsHtml } from './matrix-report.js';
import { resultHtml } from './result-report.js';
import { waterfallSection, WATERFALL_CSS } from './html-waterfall.js';
import { historyNotes } from '../../../shared/history-summary-words.js';

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; form-action 'none'; base-uri 'none'";

const METRICS = RUN_METRICS;
/** Token figures get "≈" when estimated; steps, time and tool calls are counted by Parallax either way. */
const TOKEN_KEYS: ReadonlySet<string> = new Set(['prompt', 'completion', 'cached', 'reasoning', 'total']);

/** The difference against the first mode; none when either run did not answer (not like for like). */
function diffCell(value: number, base: number, isBase: boolean, comparable: boolean, neutral = false): SafeHtml | null {
  if (isBase) return html`<span class="diff">baseline</span>`;
  if (!comparable) return html`<span class="diff">no Δ *</span>`;
  const p = percentDiff(value, base);
  // A neutral figure (wall time, tool calls) is no win or loss: no colour of either.
  const cls = neutral || p === null || p === 0 ? '' : p < 0 ? ' less' : ' more';
  return html`<span class="diff${cls}">${formatPercent(p)} vs first</span>`;
}

function simCaption(d: ReportData): SafeHtml | null {
  return d.simulated
    ? html`<caption>Simulated: token figures were counted by the simulated model from the real requests, not billed by a provider.</caption>`
    : null;
}

function summaryTable(d: ReportData): SafeHtml {
  const base = d.runs[0]?.summary;
  const answered = (r: ReportRun) => r.summary.status === 'answered';
  const comparable = (r: ReportRun) => answered(r) && d.runs[0] !== undefined && answered(d.runs[0]);
  const head = html`<thead><tr><th></th>${d.runs.map((r) => html`<th class="num" scope="col">${modeSwatch(r.slot)}${r.label}</th>`)}</tr></thead>`;
  const status = html`<tr><th scope="row">Status</th>${d.runs.map((r) => {
    const l = statusLabel(r);
    return html`<td class="num status-${l.replace(/ /g, '-')}" data-run="${r.runId}" data-metric="status">${l}</td>`;
  })}</tr>`;
  const rows = METRICS.map(
    (m) =>
      html`<tr><th scope="row">${m.label}</th>${d.runs.map((r, i) => {
        const v = r.summary.totals[m.key];
        return html`<td class="num" data-run="${r.runId}" data-metric="${m.key}" data-value="${v}">${estMark(TOKEN_KEYS.has(m.key) && runEstimated(r.summary))}${formatMetric(m, v)}${noteSpan(metricNote(m.key, r.summary))}${base && !m.notCompared ? diffCell(m.key === 'toolCalls' ? toolsRun(r.summary) : v, m.key === 'toolCalls' ? toolsRun(base) : base.totals[m.key], i === 0, comparable(r), m.neutral) : null}</td>`;
      })}</tr>`,
  );
  const costRows = d.costShown ? summaryCostRows(d, diffCell, comparable) : null;
  const answer = html`<tr><th scope="row">Answer</th>${d.runs.map(
    (r) =>
      html`<td class="answer" data-run="${r.runId}" data-metric="answer">${
        r.summary.answer
          ? foldedAnswer(r.summary.answer, `${r.runId}-summary`, { foldChars: 600 })
          : html`<span class="muted">none</span>`
      }</td>`,
  )}</tr>`;
  const validation = html`<tr><th scope="row">Validation</th>${d.runs.map((r) => {
    const v = r.summary.validation;
    return html`<td data-run="${r.runId}" data-metric="validation">${v ? html`<span class="badge ${v.ok ? 'ok' : 'bad'}">${v.ok ? 'passed' : 'failed'}</span> ${v.detail}` : html`<span class="muted">not checked</span>`}</td>`;
  })}</tr>`;
  const note = d.runs.slice(1).some((r) => !comparable(r)) ? html`<p class="muted">* ${NO_DIFF_NOTE}</p>` : null;
  const legend = d.costShown ? legendHtml(d.runs.map((r) => r.summary)) : null;
  return html`<table class="summary">${simCaption(d)}${head}<tbody>${status}${rows}${costRows}${answer}${validation}</tbody></table>${legend}${note}`;
}

/** One sentence naming the cheaper mode, or why none is named. */
function verdict(d: ReportData): SafeHtml {
  if (d.costInfo) return verdictsHtml(d);
  const c = d.comparison;
  const cheapest = d.runs.find((r) => r.runId === c.cheapestRunId);
  const notAnswered = d.runs.filter((r) => r.summary.status !== 'answered');
  const unranked = notAnswered.length
    ? html` Not ranked (did not answer): ${notAnswered.map((r) => `${r.label} (${statusLabel(r)})`).join(', ')}.`
    : null;
  if (!cheapest && c.fewestTokens.withheld) return html`<p class="verdict">${c.fewestTokens.withheld}${unranked}</p>`;
  if (!cheapest) return html`<p class="verdict">No run answered, so no mode is called cheaper.${unranked}</p>`;
  if (d.runs.length < 2) return html`<p class="verdict">Only one mode ran.</p>`;
  const base = d.runs[0];
  const vs =
    cheapest === base
      ? html`the first mode (baseline)`
      : html`${formatPercent(c.totalDiffPercent[cheapest.runId])} total tokens vs ${base.label}`;
  const invalid =
    cheapest.summary.validation && !cheapest.summary.validation.ok ? html` Its answer failed validation.` : null;
  return html`<p class="verdict"><span class="cheapest">Cheaper: ${cheapest.label}</span> — ${formatInt(cheapest.summary.totals.total)} total tokens${d.simulated ? ' (simulated)' : ''}, ${vs}.${invalid}${unranked}</p>`;
}

function firstRequestSection(d: ReportData): SafeHtml {
  const rows = firstRequestRows(d.runs);
  const base = rows[0]?.prompt ?? null;
  const table = html`<table class="first-request">${simCaption(d)}<thead><tr><th>Mode</th><th class="num">first-request prompt tokens</th><th class="num">vs first</th><th class="num">tools sent</th><th class="num">tool definitions (chars)</th></tr></thead><tbody>${rows.map(
    (r, i) =>
      html`<tr><th scope="row">${modeSwatch(r.mode)}${r.label}</th><td class="num" data-run="${r.runId}" data-metric="first-request" data-value="${r.prompt ?? ''}">${r.prompt === null ? 'none' : formatInt(r.prompt)}</td><td class="num">${i === 0 ? 'baseline' : r.prompt === null || base === null ? 'n/a' : formatPercent(percentDiff(r.prompt, base))}</td><td class="num">${r.tools}</td><td class="num">${formatInt(r.toolChars)}</td></tr>`,
  )}</tbody></table>`;
  const chart = hbarsSvg(
    rows.map((r) => ({ label: r.label, value: r.prompt, mode: r.mode })),
    {
      id: 'chart-first-request',
      title: `Prompt tokens of the first request, per mode${d.simulated ? ' (simulated)' : ''}`,
      unit: 'tokens',
    },
  );
  return html`<h2>First request</h2><p>Before any tool result exists, the first request holds only the system prompt, the task and the tool definitions: its size is each mode's fixed cost, paid again on every request.</p>${table}<figure>${chart}</figure>`;
}

/** What each request carried, by part; only runs of the shown trial (trial 1 with several). */
function compositionSection(d: ReportData): SafeHtml | null {
  const runs = d.trials > 1 ? (byTrial(d.runs)[0]?.runs ?? []) : d.runs;
  if (!runs.some((r) => r.summary.perStep.some((s) => s.promptComposition))) return null;
  const sim = d.simulated ? ' (simulated)' : '';
  const yMax = Math.max(0, ...runs.flatMap((r) => r.summary.perStep.map((s) => s.prompt)));
  const slots = Math.max(1, ...runs.map((r) => r.summary.perStep.length));
  const charts = runs.map(
    (r, i) =>
      html`<figure>${compositionSvg(r.summary.perStep, { id: `chart-composition-${i}`, title: `${r.label}: what each prompt carried${sim}`, label: r.label, mode: r.slot, yMax, slots })}<figcaption>${r.label}: prompt tokens per step by part${sim}.</figcaption>${historyNotes(r.summary.perStep, d.simulated).map((t) => html`<p class="muted" data-history="composition-note">${t}</p>`)}${compositionTableHtml(r.summary.perStep, `${r.label}: prompt tokens per step by part${sim}`)}</figure>`,
  );
  return html`<h3>What each prompt carried${d.trials > 1 ? ' (trial 1)' : ''}</h3><p class="muted">Each request's prompt tokens split by part, counted with the tokenizer on the request as sent and fitted to the reported figure; Other is what no part explains (the provider's template).</p>${compositionLegend()}<div class="charts">${charts}</div>`;
}

function chartsSection(d: ReportData): SafeHtml {
  const sim = d.simulated ? ' (simulated)' : '';
  const yMax = Math.max(0, ...d.runs.flatMap((r) => r.summary.perStep.map((s) => Math.max(s.prompt, s.completion))));
  const slots = Math.max(1, ...d.runs.map((r) => r.summary.perStep.length));
  const bar = (r: ReportRun) => {
    const i = d.runs.indexOf(r);
    return html`<figure>${stepBarsSvg(r.summary.perStep, { id: `chart-steps-${i}`, title: `${r.label}: prompt and completion tokens per step${sim}`, yMax, slots, mode: r.slot, label: r.label })}<figcaption>${r.label}: prompt and completion tokens per step${sim}.</figcaption>${stepBarsTable(r.summary.perStep, `${r.label}: prompt and completion tokens per step${sim}`)}</figure>`;
  };
  // With several trials the per-step charts fold by trial; the cumulative chart colours runs by mode.
  const bars =
    d.trials > 1
      ? byTrial(d.runs).map(
          (g) =>
            html`<details class="charts-trial" open><summary>Trial ${g.trial}: tokens per step</summary><div class="charts">${g.runs.map(bar)}</div></details>`,
        )
      : html`<div class="charts">${d.runs.map(bar)}</div>`;
  // With several trials every run is a line in its mode's colour, and the legend names the modes once.
  const legend =
    d.trials > 1 ? d.byMode.map((a) => ({ mode: d.slotOf(a.column.key), label: columnLabel(a) })) : undefined;
  const series = cumulativeSeries(d.runs);
  const cumulative = cumulativeSvg(series, {
    id: 'chart-cumulative',
    title: `Cumulative total tokens over steps${sim}`,
    legend,
  });
  return html`<h2>Tokens per step</h2><p class="muted">All modes are drawn to the same scale. Hover a bar for its value; "Show as table" under a chart lists every figure it draws.</p>${bars}${compositionSection(d)}<h3>Cumulative tokens</h3><figure>${cumulative}<figcaption>Running total of prompt + completion tokens after each step, per mode${sim}.</figcaption>${cumulativeTableHtml(series, `Cumulative total tokens after each step${sim}`)}</figure>`;
}

function stepTable(run: ReportRun, simulated: boolean, costInfo: boolean): SafeHtml {
  const sim = simulated ? ' (simulated)' : '';
  if (!run.summary.perStep.length) return html`<p class="muted">No model response was stored for this run.</p>`;
  const kind = run.summary.cost.kind;
  return html`<table class="steps"><caption>${run.label}: per-step figures${sim}</caption><thead><tr><th class="num">step</th><th class="num">prompt</th><th class="num">completion</th><th class="num">cached</th><th class="num">reasoning</th>${costInfo ? html`<th class="num">cost (USD)</th>` : null}<th class="num">latency</th><th class="num">attempts</th><th class="num">tool calls</th></tr></thead><tbody>${run.summary.perStep.map(
    (s) => {
      const est = estMark(s.usageSource === 'estimated');
      return html`<tr data-run="${run.runId}" data-step="${s.step}"${s.usageSource === 'estimated' ? html` data-usage="estimated"` : null}><td class="num">${s.step}</td><td class="num">${s.usageMissing ? 'not sent' : html`${est}${formatInt(s.prompt)}`}</td><td class="num">${s.usageMissing ? 'not sent' : html`${est}${formatInt(s.completion)}`}</td><td class="num">${formatInt(s.cached)}</td><td class="num">${formatInt(s.reasoning)}</td>${costInfo ? stepCostCell(s, kind) : null}<td class="num">${formatMs(s.latencyMs)}</td><td class="num">${s.attempts}</td><td class="num">${s.toolCalls}</td></tr>`;
    },
  )}</tbody></table>`;
}

function header(d: ReportData, generatedAt: Date | undefined): SafeHtml {
  const m = d.meta;
  const title = (m.task.id && findTask(m.task.id)?.title) || 'Custom task';
  const spread = startSpreadMs(d.runs.map((r) => r.summary));
  const facts: [string, SafeHtml | string][] = [
    ['Comparison', html`<span class="mono">${m.id}</span>`],
    ['Created', formatUtc(m.createdAt)],
    ['Provider', html`${m.provider.name}${d.simulated ? html` <span class="badge sim">simulated</span>` : null}`],
    ['Model', html`<span class="mono">${m.provider.model}</span>${columnModelsNote(d)}`],
    ['Base URL', html`<span class="mono">${displayUrl(m.provider.baseUrl)}</span>`],
    ['Workspace', m.workspaceSource],
    [
      d.variants ? 'Columns' : 'Modes',
      d.trials > 1
        ? d.byMode.map((a) => `${columnLabel(a)} (${a.trials} trial${a.trials === 1 ? '' : 's'})`).join(', ')
        : d.runs.map((r) => r.label).join(', '),
    ],
  ];
  // Trials run in rounds, so only the modes of one trial start together.
  const trialSpread = d.trials > 1 ? trialStartSpreadMs(d.runs) : null;
  if (trialSpread !== null)
    facts.push(['Start spread', `up to ${formatMs(trialSpread)} between the modes' first requests within a trial`]);
  else if (d.trials === 1 && spread !== null && d.runs.length > 1)
    facts.push(['Start spread', `${formatMs(spread)} between the modes' first requests`]);
  const concurrency = concurrencyNote(m.concurrency, m.throttled);
  if (concurrency) facts.push(['Concurrency', concurrency]);
  if (d.costInfo) facts.push(['Prices', priceFactsHtml(d)]);
  if (generatedAt) facts.push(['Report generated', formatUtc(generatedAt.getTime())]);
  const sim = d.simulated
    ? html`<p class="sim-note"><span class="badge sim">simulated</span> These runs used Parallax's simulated model. Its replies are scripted and its token counts are measured with a real tokenizer on the real requests — useful for comparing the modes' shapes, not a provider's bill.</p>`
    : null;
  const warnings = d.warnings.length
    ? html`<div class="notice"><p class="label">Loading notes</p>${d.warnings.map((w) => html`<p>${w}</p>`)}</div>`
    : null;
  return html`<header><h1>Parallax comparison: ${title}${d.simulated ? html` <span class="badge sim">simulated</span>` : null}</h1><blockquote class="task">${m.task.text}</blockquote><dl class="facts">${facts.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>${sim}${warnings}</header>`;
}

function settingsSection(d: ReportData): SafeHtml {
  const scope = d.variants
    ? "The comparison's; what each column sets away from them is under Columns."
    : 'The same for every mode.';
  return html`<h2>Settings</h2><p class="muted">${scope}</p><dl class="facts settings">${settingsRows(d.meta.settings).map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>`;
}

export function renderHtml(d: ReportData, generatedAt?: Date): string {
  const title = `Parallax comparison ${d.meta.id}`;
  const multi = d.trials > 1;
  const hasApprovals = d.runs.some((r) => r.events.some((e) => e.type === 'approval-requested'));
  // The result first: what a reader came for; then the averages over trials; the per-run tables, charts and timelines back them.
  const result = html`<section class="result" id="result"><h2>Result${d.simulated ? ' (simulated)' : ''}</h2>${resultHtml(d.result)}${multi ? averageResultHtml(d) : verdict(d)}</section>`;
  const modes = [...new Set(d.runs.map((r) => r.slot))];
  const summary = multi
    ? html`${averageSection(d)}${matrixHtml(d)}<h2>Each run</h2>${runsTable(d)}`
    : html`${matrixHtml(d)}<h2>Summary</h2>${summaryTable(d)}`;
  const body = html`${header(d, generatedAt)}${result}${summary}${settingsSection(d)}${variantsHtml(d)}${answersDiffSection(d)}${firstRequestSection(d)}${chartsSection(d)}${waterfallSection(d)}${multi ? html`<h2>Timelines</h2><p class="muted">One per run, folded so the page stays readable: open a run to see its steps, tool calls and answer.</p>` : null}${d.runs.map(
    (r, i) => html`${timelineSection(r, i, stepTable(r, d.simulated, d.costShown), d.simulated, multi, d.costShown)}`,
  )}<footer>Made by Parallax from the stored events of comparison <span class="mono">${d.meta.id}</span>. Totals are recomputed from the steps.</footer>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${html`${title}`.value}</title>
<style>${raw(REPORT_CSS).value}${reportPaletteCss(modes)}${modes.length > 4 ? MANY_MODES_CSS : ''}${multi ? TRIALS_CSS : ''}${d.costInfo ? COST_CSS : ''}${hasApprovals ? APPROVAL_CSS : ''}${ANSWER_CSS}${CHART_TABLE_CSS}${d.matrix ? MATRIX_CSS : ''}${WATERFALL_CSS}</style>
</head>
<body>
${body.value}
</body>
</html>
`;
}
