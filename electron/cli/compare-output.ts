/**
 * What `parallax compare` prints at the end, built from the same report data as the HTML, Markdown, CSV and
 * JSON reports (prepareReport): the runs in report order with the reports' labels and status words (a run
 * without run-finished is "interrupted" only when history knows its host died, else "unfinished"), the run
 * metrics of shared/run-metrics.ts with their labels and formatters, the same verdicts and per-mode means.
 */
import { concurrencyNote } from '../../shared/concurrency.js';
import type { StoredComparison } from '../../shared/ipc-contract.js';
import { formatDuration, formatMean } from '../../shared/number-format.js';
import { MODE_LABELS } from '../../shared/modes.js';
import { matrixTextLines } from '../host/reports/matrix-report.js';
import { formatMetric, isTokenMetric, metricNote, metricsOn, type RunMetric } from '../../shared/run-metrics.js';
import {
  cacheWriteTotal,
  FIGURES_NOTE,
  formatPercent,
  percentDiff,
  type ModeAggregate,
  type Stat,
} from '../../shared/summary.js';
import { formatWithInterval } from '../../shared/trial-differences.js';
import { resultLines } from '../../shared/result-statement.js';
import { runOutcome } from '../../shared/run-outcome.js';
import { prepareReport, statusLabel, type ReportData, type ReportRun } from '../host/reports/report-data.js';
import {
  averageCostLine,
  averageCostRow,
  averageTokensLine,
  costCell,
  costRows,
  meanTokens,
  priceNote,
  runCostFields,
  stepCostFields,
  tokens,
  verdictJson,
  verdictLines,
} from './cost-output.js';

const CLI_METRICS = metricsOn('cli');

/** "ReAct", or "ReAct #2" when the columns run more than once: the live lines' prefix (`column`: a column's label or a mode). */
export function runLabel(column: string, trial: number, trials: number): string {
  return `${(MODE_LABELS as Record<string, string>)[column] ?? column}${trials > 1 ? ` #${trial}` : ''}`;
}

/** Each run's column label, from meta.json: a variant's label, else its mode's. */
export function columnLabels(meta: StoredComparison['meta']): Map<string, string> {
  return new Map(
    meta.runs.map((r) => [
      r.runId,
      meta.variants?.find((v) => v.key === r.variant)?.label ?? MODE_LABELS[r.mode] ?? r.mode,
    ]),
  );
}

/** Why the comparison has no answer at all (every run ended otherwise), or null when some run answered. */
export function noAnswerMessage(stored: StoredComparison): string | null {
  const d = prepareReport(stored);
  if (d.runs.some((r) => r.summary.status === 'answered')) return null;
  const why = d.runs.map((r) => `${r.label}: ${statusLabel(r)}${r.summary.error ? ` — ${r.summary.error}` : ''}`);
  return `No run answered, so there is nothing to compare.\n${why.map((w) => `  ${w}`).join('\n')}`;
}

/** The `--json` result: every run with its report label and status, the per-mode means and the verdicts. */
export function jsonResult(stored: StoredComparison) {
  const d = prepareReport(stored);
  return {
    comparisonId: stored.meta.id,
    /** The result in words (shared/result-statement.ts), as every surface shows it first. */
    result: d.result,
    simulated: d.simulated,
    model: stored.meta.provider.model,
    trials: d.trials,
    runs: d.runs
      .map((r) => ({ run: r, s: r.summary }))
      .map(({ run, s }) => ({
        runId: run.runId,
        mode: run.mode,
        ...(d.variants ? { column: run.column } : {}),
        trial: run.trial,
        label: run.label,
        status: statusLabel(run),
        answer: s.answer,
        validation: s.validation,
        steps: s.totals.steps,
        usage: {
          prompt: s.totals.prompt,
          completion: s.totals.completion,
          cached: s.totals.cached,
          cacheWrite: cacheWriteTotal(s.perStep),
        },
        perStep: s.perStep.map((p) => ({
          step: p.step,
          prompt: p.prompt,
          completion: p.completion,
          cached: p.cached,
          ...(p.cacheWrite ? { cacheWrite: p.cacheWrite } : {}),
          ...stepCostFields(p),
          ...(p.promptComposition ? { promptComposition: p.promptComposition } : {}),
        })),
        firstRequestAt: s.firstRequestAt,
        ...runCostFields(s),
      })),
    /** The columns when the comparison ran variants: key, label, mode and what each set away from the comparison. */
    ...(d.variants ? { columns: d.variants } : {}),
    /** Per column (per mode without variants): each figure's n, mean, sd, ci95 (95 % t interval), min, max; passRate with Wilson's interval. */
    byMode: Object.fromEntries(d.byMode.map((a) => [a.column.key, a])),
    /** Rows × modes when the columns make one: each cell's figures over its runs (aggregateByColumn) and its run ids. */
    ...(d.matrix ? { matrix: d.matrix } : {}),
    /** Each mode against the first, figure by figure: difference, interval, exact permutation p, a sentence. */
    differences: d.differences,
    figures: FIGURES_NOTE,
    ...verdictJson(d.comparison),
  };
}

/** Rows of label + one cell per column, aligned. */
function table(headers: string[], rows: [string, string[]][]): string[] {
  const labelW = Math.max(...rows.map(([l]) => l.length));
  const colW = headers.map((h, i) => Math.max(h.length, ...rows.map(([, c]) => c[i].length)));
  const line = (label: string, values: string[]) =>
    `${label.padEnd(labelW)}  ${values.map((v, i) => v.padEnd(colW[i])).join('  ')}`.trimEnd();
  return [line('', headers), ...rows.map(([l, c]) => line(l, c))];
}

/** First request of each run after the earliest one of its round (the fairness of that round's start). */
function startGaps(runs: readonly ReportRun[]): Map<string, number | null> {
  const gaps = new Map<string, number | null>();
  for (const r of runs) {
    const firsts = runs
      .filter((o) => o.trial === r.trial && o.summary.firstRequestAt !== null)
      .map((o) => o.summary.firstRequestAt!);
    const own = r.summary.firstRequestAt;
    gaps.set(r.runId, own !== null && firsts.length ? Math.round(own - Math.min(...firsts)) : null);
  }
  return gaps;
}

const gapText = (gap: number | null | undefined) => (gap != null ? `+${formatDuration(gap)}` : '—');
const validationText = (r: ReportRun) => (r.summary.validation ? (r.summary.validation.ok ? 'PASS' : 'FAIL') : '—');
/** A metric's label, "(simulated)" after token counts of the simulated model. */
const metricLabel = (m: RunMetric, sim: string) => `${m.label}${isTokenMetric(m) ? sim : ''}`;
/** A run's figure: token counts marked "≈" when estimated, the rest by the metric's formatter. */
const metricCell = (m: RunMetric, r: ReportRun) =>
  isTokenMetric(m)
    ? tokens(r.summary.totals[m.key], r.summary)
    : `${formatMetric(m, r.summary.totals[m.key])}${metricNote(m.key, r.summary)}`;

/** The CLI's words for two timing rows whose app labels ("Worker start-up", "First request") assume the reader knows the engine. */
const STARTUP_LABEL = 'Process start (not in wall time)';
const FIRST_REQUEST_LABEL = "First request (after the first run's)";

/** A worker's start-up as a newcomer reads it: the time, and how much of it was done ahead, before the comparison began. */
function startupCell(r: ReportRun): string {
  const ms = r.summary.totals.startupMs;
  if (!ms) return '—';
  const start = r.summary.workerStart;
  if (!start?.pooled) return formatDuration(ms);
  return start.beforeRunMs > 0
    ? `${formatDuration(ms)} (${formatDuration(start.beforeRunMs)} of it done ahead)`
    : `${formatDuration(ms)} (done ahead)`;
}

/** What the two timing rows mean, under the table, in plain words. */
function timingNotes(runs: readonly ReportRun[]): string[] {
  const notes: string[] = [];
  if (runs.some((r) => r.summary.totals.startupMs)) {
    notes.push(
      `${STARTUP_LABEL}: each run works in its own process; this is the time that process took to load, before the run's clock started.`,
    );
    if (runs.some((r) => r.summary.workerStart?.pooled))
      notes.push(
        '  "done ahead": a spare process was loaded while Parallax waited, before the comparison started, so this run did not wait for it.',
      );
  }
  notes.push(
    `${FIRST_REQUEST_LABEL}: how long after the earliest run each run sent its first request to the model (+0 ms: the first to send; small gaps mean a fair start).`,
  );
  return ['', ...notes];
}

export function sideBySide(stored: StoredComparison, dataDir: string): string[] {
  const d = prepareReport(stored);
  const sim = d.simulated ? ' (simulated)' : '';
  const out = ['', ...(d.trials > 1 ? perRunRows(d, sim) : perRunColumns(d, sim))];
  if (d.trials > 1) out.push('', ...averages(d, sim));
  else {
    const verdicts = verdictLines(d.comparison, sim);
    if (verdicts.length) out.push('', ...verdicts);
  }
  const prices = priceNote(d.comparison);
  for (const r of d.runs) if (r.summary.error) out.push(`${r.label}: ${r.summary.error}`);
  if (d.matrix) out.push('', ...matrixTextLines(d.matrix, sim), '');
  // Answers once per column and text, with how many runs gave it.
  // A reply that is not a passing answer says what it is ("replied (failed validation)"), never "answered".
  const answers = new Map<string, number>();
  for (const r of d.runs.filter((x) => x.summary.answer)) {
    const a = r.summary.answer;
    const verb = runOutcome(r.summary).passed ? 'answered' : `replied (${statusLabel(r)})`;
    const key = `${r.column.label} ${verb}\u0000${a.trim()}`;
    answers.set(key, (answers.get(key) ?? 0) + 1);
  }
  // The answer whole: a table or a list cut after its first line says nothing, so a longer one goes below, indented.
  // Columns that gave the same text share one copy of it.
  const byText = new Map<string, string[]>();
  for (const [key, n] of answers) {
    const [who, text] = key.split('\u0000');
    byText.set(text, [...(byText.get(text) ?? []), `${who}${d.trials > 1 ? ` (${n} of ${d.trials})` : ''}`]);
  }
  for (const [text, whos] of byText) {
    const head =
      whos.length > 1 ? `${whos.slice(0, -1).join(', ')} and ${whos[whos.length - 1]}, the same:` : `${whos[0]}:`;
    out.push(
      ...(text.includes('\n') ? [head, ...text.split('\n').map((l) => `    ${l}`.trimEnd())] : [`${head} ${text}`]),
    );
  }
  if (d.simulated)
    out.push(
      '',
      'Token counts come from the simulated model: counted with a real tokenizer, not billed by any provider.',
    );
  else if (prices) out.push('', prices);
  const concurrency = concurrencyNote(stored.meta.concurrency, stored.meta.throttled);
  if (concurrency) out.push(concurrency);
  out.push(
    `Stored as ${stored.meta.id} in ${dataDir} (see \`parallax history\`, \`parallax report ${stored.meta.id}\`).`,
  );
  // The result last, where the eye lands when the command returns.
  out.push('', `Result${sim}:`, ...resultLines(d.result).map((l, i) => (i === 0 ? `  ${l}` : `  - ${l}`)));
  if (d.result.suggestTrials !== null && d.result.suggestTrials > d.trials)
    out.push(`  To measure it, run the same command with --trials ${d.result.suggestTrials}.`);
  return out;
}

/** One column per run: the summary of a comparison without trials. */
function perRunColumns(d: ReportData, sim: string): string[] {
  const cmp = d.comparison;
  const gaps = startGaps(d.runs);
  const rows: [string, (r: ReportRun) => string][] = [
    ['Status', statusLabel],
    ['Validation', validationText],
  ];
  for (const m of CLI_METRICS) {
    if (m.key === 'startupMs') {
      rows.push([STARTUP_LABEL, startupCell]);
      continue;
    }
    if (m.key !== 'total') {
      rows.push([metricLabel(m, sim), (r) => metricCell(m, r)]);
      continue;
    }
    rows.push([
      metricLabel(m, sim),
      (r) =>
        `${metricCell(m, r)}${r.runId === cmp.baselineRunId ? '' : ` (${diffText(cmp.totalDiffPercent[r.runId] ?? null)})`}`,
    ]);
    if (!sim) for (const [label, f] of costRows(cmp)) rows.push([label, (r) => f(r.summary)]);
  }
  rows.push(
    [FIRST_REQUEST_LABEL, (r) => gapText(gaps.get(r.runId))],
    [`Prompt per step${sim}`, (r) => r.summary.perStep.map((p) => p.prompt).join(' ') || '—'],
  );
  return [
    ...table(
      d.runs.map((r) => r.label),
      rows.map(([l, f]) => [l, d.runs.map(f)]),
    ),
    ...timingNotes(d.runs),
  ];
}

/** One row per run (several trials would make too many columns), in start order. */
function perRunRows(d: ReportData, sim: string): string[] {
  const gaps = startGaps(d.runs);
  const metrics = CLI_METRICS.filter((m) => m.key !== 'cached');
  const headers = ['Status', 'Validation'];
  for (const m of metrics)
    headers.push(m.key === 'startupMs' ? STARTUP_LABEL : m.short, ...(m.key === 'total' && !sim ? ['Cost (USD)'] : []));
  headers.push(FIRST_REQUEST_LABEL);
  return [
    `each run, in start order${sim ? ' (token counts simulated)' : ''}`,
    ...table(
      headers,
      d.runs.map((r) => {
        const cells = [statusLabel(r), validationText(r)];
        for (const m of metrics)
          cells.push(
            m.key === 'startupMs' ? startupCell(r) : metricCell(m, r),
            ...(m.key === 'total' && !sim ? [costCell(r.summary)] : []),
          );
        cells.push(gapText(gaps.get(r.runId)));
        return [r.label, cells];
      }),
    ),
    ...timingNotes(d.runs),
  ];
}

/** Each mode's mean ± half the 95 % interval and sd over its trials, then each difference in words. */
function averages(d: ReportData, sim: string): string[] {
  const { byMode, trials } = d;
  const cell = (s: Stat | null, f: (n: number) => string) =>
    s ? `${formatWithInterval(s, f)}${s.sd !== null ? `, sd ${f(s.sd)}` : ''}` : '—';
  const base = byMode[0]?.total?.mean ?? null;
  const pct = (v: number) => `${Math.round(v * 100)} %`;
  const rows: [string, (a: ModeAggregate) => string][] = [
    ['Answered', (a) => `${a.answered}/${a.trials}`],
    [
      'Passed',
      (a) =>
        a.passRate && a.trials > 1
          ? `${a.passed}/${a.trials} (95 % CI ${pct(a.passRate.ci95[0])}–${pct(a.passRate.ci95[1])})`
          : `${a.passed}/${a.trials}`,
    ],
  ];
  for (const m of CLI_METRICS.filter((x) => x.averaged && x.key !== 'cached' && x.key !== 'toolCalls')) {
    const key = m.key as 'steps' | 'prompt' | 'completion' | 'total' | 'wallMs';
    const f = m.unit === 'ms' ? formatDuration : formatMean;
    rows.push([
      metricLabel(m, sim),
      (a) => {
        const text = cell(a[key], f);
        if (!isTokenMetric(m)) return text;
        const diff =
          key !== 'total' || a === byMode[0] || !a.total || base === null
            ? ''
            : `, ${formatPercent(percentDiff(a.total.mean, base))} vs ${byMode[0].column.label}`;
        return meanTokens(text, a) + diff;
      },
    ]);
  }
  if (!sim) rows.push(averageCostRow(byMode));
  const title = `average over ${trials} trials${sim}: mean ± half the 95 % interval (t), sd`;
  const out = [
    title,
    ...table(
      byMode.map((a) => a.column.label),
      rows.map(([l, f]) => [l, byMode.map(f)]),
    ),
  ];
  out.push(FIGURES_NOTE);
  const fewest = averageTokensLine(byMode, sim);
  if (fewest) out.push('', fewest);
  const cheapest = sim ? null : averageCostLine(byMode);
  if (cheapest) out.push(cheapest);
  if (d.differences.length)
    out.push(
      '',
      `against ${byMode[0].column.label} (exact permutation tests${d.differences[0].paired ? ', paired by round' : ''}):`,
      ...d.differences.map((x) => `  ${x.sentence}.`),
    );
  return out;
}

/** A Δ against the baseline, or why there is none (a run that did not answer is not compared like for like). */
function diffText(p: number | null): string {
  return p === null ? 'no Δ: a run did not answer' : formatPercent(p);
}
