/**
 * The Markdown report's parts for several trials per mode: the average table (means over answered runs,
 * with the lowest–highest run and the difference against the first mode) and one table of every run,
 * grouped by trial. Figures come from trial-figures.ts, as in the HTML report.
 */
import { formatPercent, percentDiff } from '../../../shared/summary.js';
import type { RunTotals } from '../../../shared/step-event.js';
import { formatInt, formatMs } from './format.js';
import { costText, formatUsd, isEstimated } from '../../../shared/cost.js';
import { averageCostVerdict, costLegend, meanCostText, tokenText } from './cost-figures.js';
import { mdCell, table } from './markdown-table.js';
import { statusLabel, type ReportData, type ReportRun } from './report-data.js';
import {
  AVERAGE_METRICS, averageVerdict, byTrial, formatMean, formatRange, meanDiff, modeLabel, trialCheapest,
} from './trial-figures.js';

/** The average table, its legend and the verdict, as lines. */
export function averageTable(d: ReportData): string[] {
  const base = d.byMode[0];
  const rows: string[][] = [
    ['Answered', ...d.byMode.map((a) => `${a.answered}/${a.trials}`)],
    ['Passed validation', ...d.byMode.map((a) => `${a.passed}/${a.trials}`)],
  ];
  for (const m of AVERAGE_METRICS) {
    rows.push([m.label, ...d.byMode.map((a, i) => {
      const s = a[m.key];
      if (!s) return 'no answered run';
      const est = ['prompt', 'completion', 'cached', 'total'].includes(m.key) && isEstimated(a.usageSource) ? '≈ ' : '';
      const cell = `${est}${formatMean(s.mean, m.ms)} (${formatRange(s, m.ms)})`;
      return i === 0 ? cell : `${cell}, ${formatPercent(meanDiff(a, base, m.key))}`;
    })]);
  }
  if (d.costShown) {
    const baseCost = base?.cost?.mean ?? null;
    rows.push(['Cost (USD)', ...d.byMode.map((a, i) => {
      const text = mdCell(meanCostText(a, formatUsd));
      if (!a.cost) return text;
      const cell = `${text} (${formatUsd(a.cost.min)}–${formatUsd(a.cost.max)})`;
      return i === 0 || baseCost === null ? cell : `${cell}, ${formatPercent(percentDiff(a.cost.mean, baseCost))}`;
    })]);
  }
  const v = averageVerdict(d.byMode, d.runs, d.trials, d.simulated, d.costInfo);
  const cv = d.costShown ? averageCostVerdict(d.byMode, formatUsd) : null;
  return [
    table(['', ...d.byMode.map((a) => modeLabel(a.mode))], ['l', ...d.byMode.map(() => 'r' as const)], rows),
    '',
    "Each cell is the mean over the mode's answered runs, then (lowest–highest run), then the mean's difference against the first mode.",
    '',
    v.cheaper ? `**${v.cheaper}**${v.text}` : v.text,
    '',
    ...(cv ? [cv.lead ? `**${mdCell(cv.lead)}**${mdCell(cv.text)}` : mdCell(cv.text), ''] : []),
  ];
}

const RUN_METRICS: readonly (keyof RunTotals)[] = ['steps', 'requests', 'prompt', 'completion', 'cached', 'reasoning'];

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
      const total = r === first ? tok(t.total) : `${tok(t.total)} (${formatPercent(percentDiff(t.total, first.summary.totals.total))}${star})`;
      const v = r.summary.validation;
      return [
        `${mdCell(r.label)}${r === cheapest ? ' (cheapest)' : ''}`,
        mdCell(statusLabel(r)),
        ...RUN_METRICS.map((k) => (k === 'steps' || k === 'requests' ? formatInt(t[k]) : tok(t[k]))),
        total,
        ...(d.costShown ? [mdCell(costText(r.summary.cost))] : []),
        formatMs(t.wallMs),
        formatInt(t.toolCalls),
        v ? `${v.ok ? 'passed' : 'failed'}: ${mdCell(v.detail)}` : 'not checked',
        r.summary.answer ? mdCell(r.summary.answer) : '—',
      ];
    });
  });
  const out = table(
    ['Run', 'Status', 'Steps', 'Requests', 'Prompt tokens', 'Completion tokens', 'Cached tokens', 'Reasoning tokens', 'Total tokens', ...(d.costShown ? ['Cost (USD)'] : []), 'Wall time', 'Tool calls', 'Validation', 'Answer'],
    ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', ...(d.costShown ? (['r'] as const) : []), 'r', 'r', 'l', 'l'],
    rows,
  ) + (d.costShown && costLegend(d.runs.map((r) => r.summary)) ? `\n\n${mdCell(costLegend(d.runs.map((r) => r.summary)))}` : '');
  const legend = 'Runs in trial order; a total\'s percentage is against the first mode of the same trial, and "(cheapest)" marks the answered run with the fewest total tokens in its trial.';
  const note = starred ? '\n\n\\* Compared with a run that did not answer: its figures cover only the steps it made.' : '';
  return `${out}\n\n${legend}${note}`;
}
