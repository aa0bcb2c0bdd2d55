/**
 * The Markdown report: GitHub-flavoured tables fit to paste into an issue or a post. Cell text is escaped so
 * a pipe, a newline or markup inside a model's answer cannot break the table or turn into HTML.
 */
import { concurrencyNote } from '../../../shared/concurrency.js';
import { formatMetric, metricNote, toolsRun } from '../../../shared/run-metrics.js';
import { findTask } from '../../../shared/tasks.js';
import { formatPercent, NO_DIFF_NOTE, percentDiff } from '../../../shared/summary.js';
import { approvalOutcome, formatInt, formatMs, formatUtc, settingsRows } from './report-text.js';
import { firstRequestRows, RUN_METRICS, startSpreadMs } from './report-figures.js';
import { trialStartSpreadMs } from './trial-figures.js';
import { columnModelsNote, statusLabel, statusNote, type ReportData, type ReportRun } from './report-data.js';
import { mdCell, mdText, table } from './markdown-table.js';
import { averageTable, runsTable, averageResult } from './markdown-trials.js';
import { costLegend, priceFacts, tokenText, usageText, verdicts } from './cost-figures.js';
import { costText, stepCostText } from '../../../shared/cost.js';
import { matrixMarkdown, variantsMarkdown } from './matrix-report.js';
import { resultMarkdown } from './result-report.js';
import { mcpList } from './markdown-mcp.js';
import { historySummaryText, summaryTotals, summaryTotalsText } from '../../../shared/history-summary-words.js';
import type { StepEvent } from '../../../shared/step-event.js';
import { phaseSuffix, stepPhases } from '../../../shared/step-phase.js';

export { mdCell };

/** A tool name as inline code when it is a plain identifier (always, for the engine's tools). */
function toolName(name: string): string {
  return /^[\w.-]+$/.test(name) ? `\`${name}\`` : mdCell(name);
}

const METRICS = RUN_METRICS.map((m) => [m.key, m.label, m] as const);
const TOKEN_KEYS: ReadonlySet<string> = new Set(['prompt', 'completion', 'cached', 'reasoning', 'total']);

function summaryTable(d: ReportData): string {
  const base = d.runs[0]?.summary.totals;
  const answered = (r: ReportRun | undefined) => r?.summary.status === 'answered';
  // A difference involving a run that did not answer is not like for like: starred, with a footnote.
  const star = (r: ReportRun) => (answered(r) && answered(d.runs[0]) ? '' : '\\*');
  const rows: string[][] = [['Status', ...d.runs.map((r) => mdCell(statusLabel(r)))]];
  for (const [key, label, metric] of METRICS) {
    rows.push([
      label,
      ...d.runs.map((r, i) => {
        const v = r.summary.totals[key];
        const text = TOKEN_KEYS.has(key)
          ? tokenText(v, r.summary)
          : `${formatMetric(metric, v)}${metricNote(key, r.summary)}`;
        const [now, then] =
          key === 'toolCalls' ? [toolsRun(r.summary), toolsRun(d.runs[0]!.summary)] : [v, base?.[key] ?? 0];
        return i === 0 || !base || metric.notCompared
          ? text
          : star(r)
            ? `${text} (no Δ${star(r)})`
            : `${text} (${formatPercent(percentDiff(now, then))})`;
      }),
    ]);
  }
  if (d.costShown) {
    const baseCost = d.runs[0]?.summary.cost.usd ?? null;
    rows.push([
      'Cost (USD)',
      ...d.runs.map((r, i) => {
        const c = r.summary.cost;
        const text = mdCell(costText(c));
        return i === 0 || c.usd === null || baseCost === null
          ? text
          : star(r)
            ? `${text} (no Δ${star(r)})`
            : `${text} (${formatPercent(percentDiff(c.usd, baseCost))})`;
      }),
    ]);
    rows.push(['Usage', ...d.runs.map((r) => usageText(r.summary))]);
  }
  rows.push(['Answer', ...d.runs.map((r) => (r.summary.answer ? mdCell(r.summary.answer) : '—'))]);
  rows.push([
    'Validation',
    ...d.runs.map((r) => {
      const v = r.summary.validation;
      return v ? `${v.ok ? 'passed' : 'failed'}: ${mdCell(v.detail)}` : 'not checked';
    }),
  ]);
  const legend = d.costShown ? costLegend(d.runs.map((r) => r.summary)) : '';
  const out =
    table(['', ...d.runs.map((r) => mdCell(r.label))], ['l', ...d.runs.map(() => 'r' as const)], rows) +
    (legend ? `\n\n${mdText(legend)}` : '');
  return d.runs.slice(1).some((r) => star(r)) ? `${out}\n\n\\* ${NO_DIFF_NOTE}` : out;
}

function verdict(d: ReportData): string {
  const cheapest = d.runs.find((r) => r.runId === d.comparison.cheapestRunId);
  const skipped = d.runs.filter((r) => r.summary.status !== 'answered');
  const unranked = skipped.length
    ? ` Not ranked (did not answer): ${skipped.map((r) => `${r.label} (${statusLabel(r)})`).join(', ')}.`
    : '';
  if (d.costInfo) {
    const c = d.comparison;
    const lines = verdicts(
      d.runs,
      c.fewestTokens,
      d.costShown ? c.cheapest : null,
      { tokens: c.totalDiffPercent, cost: c.costDiffPercent },
      d.simulated,
    );
    return (
      lines.map((l) => `${l.lead ? `**${mdCell(l.lead)}**` : ''}${mdText(l.text)}`).join('\n\n') +
      (d.runs.length > 1 && unranked ? `\n\n${mdText(unranked.trim())}` : '')
    );
  }
  if (!cheapest && d.comparison.fewestTokens.withheld) return `${d.comparison.fewestTokens.withheld}${unranked}`;
  if (!cheapest) return `No run answered, so no mode is called cheaper.${unranked}`;
  if (d.runs.length < 2) return 'Only one mode ran.';
  const base = d.runs[0];
  const vs =
    cheapest === base
      ? 'the first mode (baseline)'
      : `${formatPercent(d.comparison.totalDiffPercent[cheapest.runId])} total tokens vs ${base.label}`;
  const invalid =
    cheapest.summary.validation && !cheapest.summary.validation.ok ? ' Its answer failed validation.' : '';
  return `**Cheaper: ${cheapest.label}** — ${formatInt(cheapest.summary.totals.total)} total tokens${d.simulated ? ' (simulated)' : ''}, ${vs}.${invalid}${unranked}`;
}

function stepRows(run: ReportRun, costInfo: boolean): string {
  if (!run.summary.perStep.length) return '_No model response was stored for this run._';
  const kind = run.summary.cost.kind;
  const est = (s: { usageSource: string }, text: string) => (s.usageSource === 'estimated' ? `≈ ${text}` : text);
  const calls = new Map<number, string[]>();
  for (const e of run.events)
    if (e.type === 'model-response')
      calls.set(
        e.step,
        e.toolCalls.map((c) => c.name),
      );
  const phases = stepPhases(run.events);
  const rows = run.summary.perStep.map((s) => [
    `${s.step}${phaseSuffix(phases.get(s.step))}`,
    s.usageMissing ? 'not sent' : est(s, formatInt(s.prompt)),
    s.usageMissing ? 'not sent' : est(s, formatInt(s.completion)),
    formatInt(s.cached),
    formatInt(s.reasoning),
    est(s, formatInt(s.prompt + s.completion)),
    ...(costInfo ? [mdCell(stepCostText(s.cost, kind, s.usageMissing))] : []),
    formatMs(s.latencyMs),
    String(s.attempts),
    calls.get(s.step)?.length ? calls.get(s.step)!.map(toolName).join(', ') : '—',
  ]);
  return table(
    [
      'Step',
      'Prompt',
      'Completion',
      'Cached',
      'Reasoning',
      'Total',
      ...(costInfo ? ['Cost (USD)'] : []),
      'Latency',
      'Attempts',
      'Tool calls',
    ],
    ['r', 'r', 'r', 'r', 'r', 'r', ...(costInfo ? (['r'] as const) : []), 'r', 'r', 'l'],
    rows,
  );
}

/** The run's approvals in order, with the user's answers and the wait kept out of its time; none: nothing. */
function approvalList(run: ReportRun): string[] {
  const answers = new Map<
    string,
    { decision: 'allow' | 'deny' | 'allow-comparison' | 'cancelled'; waitedMs: number }
  >();
  for (const e of run.events) if (e.type === 'approval-resolved') answers.set(e.approvalId, e);
  const lines: string[] = [];
  for (const e of run.events) {
    if (e.type !== 'approval-requested') continue;
    const a = answers.get(e.approvalId);
    lines.push(
      `- Step ${e.step}: ${toolName(e.tool)}${mdText(approvalOutcome(e.inProgram, a?.decision ?? null, a?.waitedMs ?? null))}`,
    );
  }
  return lines.length ? ['**Approvals**', '', ...lines, ''] : [];
}

export function renderMarkdown(d: ReportData, generatedAt?: Date): string {
  const m = d.meta;
  const title = (m.task.id && findTask(m.task.id)?.title) || 'Custom task';
  const sim = d.simulated ? ' (simulated)' : '';
  const out: string[] = [];
  out.push(`# Parallax comparison: ${mdText(title)}${sim}`, '');
  out.push(`> ${mdText(m.task.text).replace(/\n/g, '\n> ')}`, '');
  out.push(`- **Comparison:** \`${m.id}\`, created ${formatUtc(m.createdAt)}`);
  const own = columnModelsNote(d);
  out.push(
    `- **Provider:** ${mdText(m.provider.name)}, model \`${m.provider.model.replace(/`/g, "'")}\`${own}${d.simulated ? ' — **simulated**' : ''}`,
  );
  out.push(`- **Workspace:** ${mdText(m.workspaceSource)}`);
  const spread = startSpreadMs(d.runs.map((r) => r.summary));
  const multi = d.trials > 1;
  if (multi) out.push(`- **Trials:** ${d.trials} per mode`);
  const trialSpread = multi ? trialStartSpreadMs(d.runs) : null;
  if (trialSpread !== null)
    out.push(`- **Start spread:** up to ${formatMs(trialSpread)} between the modes' first requests within a trial`);
  else if (!multi && spread !== null && d.runs.length > 1)
    out.push(`- **Start spread:** ${formatMs(spread)} between the modes' first requests`);
  const concurrency = concurrencyNote(m.concurrency, m.throttled);
  if (concurrency) out.push(`- **Concurrency:** ${mdText(concurrency)}`);
  out.push(
    `- **Settings:** ${settingsRows(m.settings)
      .map(([k, v]) => `${k.toLowerCase()} ${v}`)
      .join('; ')}`,
  );
  if (d.costInfo) out.push(`- **Prices:** ${priceFacts(d.runs).map(mdText).join('; ')}`);
  if (generatedAt) out.push(`- **Report generated:** ${formatUtc(generatedAt.getTime())}`);
  out.push('');
  if (d.simulated) {
    out.push(
      "_Simulated: every token figure below was counted by Parallax's simulated model from the real requests (a real tokenizer), not billed by a provider._",
      '',
    );
  }
  for (const w of d.warnings) out.push(`> **Note:** ${mdText(w)}`, '');
  // The result first: what a reader came for; the tables and timelines below back it.
  out.push(
    `## Result${sim}`,
    '',
    ...resultMarkdown(d.result),
    '',
    ...(multi ? averageResult(d) : [verdict(d), '']),
    ...matrixMarkdown(d),
    ...variantsMarkdown(d),
  );
  // With several trials the average comes first: it is the comparison's result; each run follows.
  if (multi)
    out.push(
      `## Average over ${d.trials} trials${sim}`,
      '',
      ...averageTable(d),
      `## Summary per run${sim}`,
      '',
      runsTable(d),
      '',
    );
  else out.push(`## Summary${sim}`, '', summaryTable(d), '');
  for (const r of d.runs) {
    const note = statusNote(r);
    if (note) out.push(`- **${r.label}:** ${mdText(note)}`);
  }
  if (d.runs.some((r) => statusNote(r))) out.push('');
  const first = firstRequestRows(d.runs);
  const base = first[0]?.prompt ?? null;
  out.push(
    `## First request${sim}`,
    '',
    "The first request carries only the prompt, the task and the tool definitions: each mode's fixed cost per request.",
    '',
  );
  out.push(
    table(
      ['Mode', 'First-request prompt tokens', 'vs first', 'Tools sent', 'Tool definitions (chars)'],
      ['l', 'r', 'r', 'r', 'r'],
      first.map((f, i) => [
        mdCell(f.label),
        f.prompt === null ? 'none' : formatInt(f.prompt),
        i === 0 ? 'baseline' : f.prompt === null || base === null ? 'n/a' : formatPercent(percentDiff(f.prompt, base)),
        String(f.tools),
        formatInt(f.toolChars),
      ]),
    ),
    '',
  );
  for (const r of d.runs)
    out.push(
      `## ${r.label} — steps${sim}`,
      '',
      stepRows(r, d.costShown),
      '',
      ...approvalList(r),
      ...mcpList(r.events, toolName),
      ...summaryList(r.events, d.simulated),
    );
  return out.join('\n');
}

/** A summarize:K run's summary requests under its steps, and the sentence that makes rows + summaries = totals. */
function summaryList(events: readonly StepEvent[], simulated: boolean): string[] {
  const t = summaryTotals(events);
  if (!t) return [];
  const lines = events.flatMap((e) =>
    e.type === 'history-summary' ? [`- ${mdText(historySummaryText(e, simulated))}`] : [],
  );
  return ['**History summaries**', '', ...lines, '', mdText(summaryTotalsText(t, simulated)), ''];
}
