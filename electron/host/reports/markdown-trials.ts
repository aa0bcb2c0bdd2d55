/**
 * The Markdown report's parts for several trials per mode: the average table (means over answered runs,
 * with the lowest–highest run and the difference against the first mode) and one table of every run,
 * grouped by trial. Figures come from trial-figures.ts, as in the HTML report.
 */
import { FIGURES_NOTE, formatPercent, percentDiff, ranOfAggregate } from '../../../shared/summary.js';
import { formatWithInterval } from '../../../shared/trial-differences.js';
import { formatMetric, isTokenMetric, metricNote } from '../../../shared/run-metrics.js';
import { costText, formatUsd, isEstimated } from '../../../shared/cost.js';
import { averageCostVerdict, costLegend, meanCostText, tokenText } from './cost-figures.js';
import { mdCell, mdText, table } from './markdown-table.js';
import { RUN_METRICS, type Metric } from './report-figures.js';
import { statusLabel, type ReportData, type ReportRun } from './report-data.js';
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

const pct = (v: number) => `${Math.round(v * 100)} %`;

/** The average table and its legend, as lines (the verdict and differences lead the report: averageResult). */
export function averageTable(d: ReportData): string[] {
  const base = d.byMode[0];
  const rows: string[][] = [
    [
      'Answered',
      ...d.byMode.map(
        (a) => `${a.answered}/${ranOfAggregate(a)}${a.neverStarted ? ` (${a.neverStarted} never started)` : ''}`,
      ),
    ],
    [
      'Passed validation',
      ...d.byMode.map((a) =>
        a.passRate
          ? `${a.passed}/${ranOfAggregate(a)} (95 % CI ${pct(a.passRate.ci95[0])}–${pct(a.passRate.ci95[1])})`
          : `${a.passed}/${ranOfAggregate(a)}`,
      ),
    ],
  ];
  for (const m of AVERAGE_METRICS) {
    rows.push([
      m.label,
      ...d.byMode.map((a, i) => {
        const s = a[m.key];
        if (!s) return 'no finished run';
        const est =
          ['prompt', 'completion', 'cached', 'total'].includes(m.key) && isEstimated(a.usageSource) ? '≈ ' : '';
        const f = (v: number) => formatMean(v, m.unit === 'ms');
        const cell = `${est}${formatWithInterval(s, f)}${s.sd !== null ? `, sd ${f(s.sd)}` : ''} (${formatRange(s, m.unit === 'ms')})`;
        return i === 0 ? cell : `${cell}, ${formatPercent(meanDiff(a, base, m.key))}`;
      }),
    ]);
  }
  if (d.costShown) {
    const baseCost = base?.cost?.mean ?? null;
    rows.push([
      'Cost (USD)',
      ...d.byMode.map((a, i) => {
        const text = mdCell(meanCostText(a, formatUsd));
        if (!a.cost) return text;
        const cell = `${a.costEstimated ? '≈ ' : ''}${formatWithInterval(a.cost, formatUsd)} (${formatUsd(a.cost.min)}–${formatUsd(a.cost.max)})`;
        return i === 0 || baseCost === null ? cell : `${cell}, ${formatPercent(percentDiff(a.cost.mean, baseCost))}`;
      }),
    ]);
  }
  return [
    table(['', ...d.byMode.map(columnLabel)], ['l', ...d.byMode.map(() => 'r' as const)], rows),
    '',
    "Each cell is the mean ± half its 95 % interval (Student's t) and the standard deviation, then (lowest–highest run), then the mean's difference against the first mode. Pass rates with Wilson's 95 % interval.",
    '',
    FIGURES_NOTE,
    '',
  ];
}

/** The result over trials, for the top of the report: the verdict, the cost verdict and the differences in words. */
export function averageResult(d: ReportData): string[] {
  const v = averageVerdict(d.byMode, d.runs, d.trials, d.simulated, d.costInfo);
  const cv = d.costShown ? averageCostVerdict(d.byMode, formatUsd) : null;
  return [
    v.cheaper ? `**${v.cheaper}**${v.text}` : v.text,
    '',
    ...(cv ? [cv.lead ? `**${mdCell(cv.lead)}**${mdCell(cv.text)}` : mdCell(cv.text), ''] : []),
    ...(d.differences.length
      ? [
          `Against ${columnLabel(d.byMode[0])}, with 95 % intervals and exact permutation tests${d.differences[0].paired ? ' (paired by round)' : ''}:`,
          '',
          ...d.differences.map((x) => `- ${mdText(x.sentence)}.`),
          '',
        ]
      : []),
  ];
}

// The run metrics (shared/run-metrics.ts) around the total, whose cell adds its difference and is followed by the cost.
const BEFORE_TOTAL = RUN_METRICS.slice(
  0,
  RUN_METRICS.findIndex((m) => m.key === 'total'),
);
const AFTER_TOTAL = RUN_METRICS.slice(RUN_METRICS.findIndex((m) => m.key === 'total') + 1);
const TOTAL_LABEL = RUN_METRICS.find((m) => m.key === 'total')!.label;

/** Every run, one row each, grouped by trial; the total's difference is against the first mode of the same trial. */
export function runsTable(d: ReportData): string {
  const answered = (r: ReportRun) => r.summary.status === 'answered';
  let starred = false;
  const rows = byTrial(d.runs).flatMap((g) => {
    const first = g.runs[0];
    const cheapest = trialCheapest(g.runs);
    return g.runs.map((r) => {
      const t = r.summary.totals;
      const star = answered(r) && answered(first) ? '' : '\\*';
      if (r !== first && star) starred = true;
      const tok = (n: number) => tokenText(n, r.summary);
      const cell = (m: Metric) =>
        isTokenMetric(m) ? tok(t[m.key]) : `${formatMetric(m, t[m.key])}${metricNote(m.key, r.summary)}`;
      const total =
        r === first
          ? tok(t.total)
          : `${tok(t.total)} (${formatPercent(percentDiff(t.total, first.summary.totals.total))}${star})`;
      const v = r.summary.validation;
      return [
        `${mdCell(r.label)}${r === cheapest ? ' (cheapest)' : ''}`,
        mdCell(statusLabel(r)),
        ...BEFORE_TOTAL.map(cell),
        total,
        ...(d.costShown ? [mdCell(costText(r.summary.cost))] : []),
        ...AFTER_TOTAL.map(cell),
        v ? `${v.ok ? 'passed' : 'failed'}: ${mdCell(v.detail)}` : 'not checked',
        r.summary.answer ? mdCell(r.summary.answer) : '—',
      ];
    });
  });
  const out =
    table(
      [
        'Run',
        'Status',
        ...BEFORE_TOTAL.map((m) => m.label),
        TOTAL_LABEL,
        ...(d.costShown ? ['Cost (USD)'] : []),
        ...AFTER_TOTAL.map((m) => m.label),
        'Validation',
        'Answer',
      ],
      [
        'l',
        'l',
        ...BEFORE_TOTAL.map(() => 'r' as const),
        'r',
        ...(d.costShown ? (['r'] as const) : []),
        ...AFTER_TOTAL.map(() => 'r' as const),
        'l',
        'l',
      ],
      rows,
    ) +
    (d.costShown && costLegend(d.runs.map((r) => r.summary))
      ? `\n\n${mdCell(costLegend(d.runs.map((r) => r.summary)))}`
      : '');
  const legend =
    'Runs in trial order; a total\'s percentage is against the first mode of the same trial, and "(cheapest)" marks the answered run with the fewest total tokens in its trial.';
  const note = starred
    ? '\n\n\\* Compared with a run that did not answer: its figures cover only the steps it made.'
    : '';
  return `${out}\n\n${legend}${note}`;
}
