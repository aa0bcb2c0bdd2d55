/**
 * The comparison in one table: every total of every run (computeTotals via summarizeRun) and the difference of
 * each mode against the first, in percent (percentDiff / formatPercent) — the same figures as the CLI and reports.
 */
import { BaselinePicker, useBaseline } from './baseline-picker.js';
import { ColumnSwatch, useSlotOf } from '../common/column-swatch.js';
import type { RunTotals } from '../../../shared/step-event.js';
import {
  NO_DIFF_NOTE,
  comparableRuns,
  formatPercent,
  percentDiff,
  type ComparisonSummary,
  type RunSummary,
} from '../../../shared/summary.js';
import { metricNote, metricsOn, toolsRun } from '../../../shared/run-metrics.js';
import { fmtInt, fmtMs } from '../../lib/display-format.js';
import { SimBadge, StatusBadge, ValidationBadge } from '../common/badges.js';
import { CostRows, costShown, EstMark, runEstimated, Verdicts } from './cost-parts.js';
import { startupTitle } from '../timeline/worker-start.js';

/** Rows whose figures are token counts: marked "≈" when estimated. */
const TOKEN_ROWS: ReadonlySet<NumericRow['key']> = new Set(['prompt', 'completion', 'cached', 'total']);
const estimatedCell = (r: RunSummary, key: NumericRow['key']) =>
  key === 'firstRequestPrompt' ? r.perStep[0]?.usageSource === 'estimated' : TOKEN_ROWS.has(key) && runEstimated(r);

/** More modes than this and the table's headings and figures wrap, so every column stays in view. */
export const MANY_COLUMNS = 4;

export type NumericRow = {
  key: keyof RunTotals | 'firstRequestPrompt';
  label: string;
  hint: string;
  time?: boolean;
  zeroIsMissing?: boolean;
  notCompared?: boolean;
  neutral?: boolean;
};

/** The first request's prompt: the fixed cost of the system prompt and the tool definitions, shown after the total. */
const FIRST_REQUEST: NumericRow = {
  key: 'firstRequestPrompt',
  label: 'First request prompt',
  hint: 'Fixed cost of prompt and tool definitions',
};

/** The figures of a run, in table order (shared/run-metrics.ts); the averages table shows the same rows but the first request. */
export const ROWS: readonly NumericRow[] = metricsOn('app').flatMap((m) => {
  const row: NumericRow = {
    key: m.key,
    label: m.label,
    hint: m.hint,
    ...(m.unit === 'ms' ? { time: true } : {}),
    ...(m.zeroIsMissing ? { zeroIsMissing: true } : {}),
    ...(m.notCompared ? { notCompared: true } : {}),
    ...(m.neutral ? { neutral: true } : {}),
  };
  return m.key === 'total' ? [row, FIRST_REQUEST] : [row];
});

/** The answer's gist for a table cell: its first line that is not part of a Markdown table. */
function answerGist(answer: string): string {
  const lines = answer
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('|'));
  return lines[0] ?? answer.trim();
}

/** A row's figure for a run; null when it has none (no first request yet, a start-up not measured). */
const valueOf = (r: RunSummary, row: NumericRow): number | null => {
  const v = row.key === 'firstRequestPrompt' ? r.firstRequestPrompt : r.totals[row.key];
  return row.zeroIsMissing && v === 0 ? null : v;
};

/**
 * The figure a Δ compares: for tool calls the tools run (toolsRun: a program counts by the calls made inside it,
 * not as one more), so Code Mode doing the same work through a program compares as the same number of calls.
 */
const diffValueOf = (r: RunSummary, row: NumericRow): number | null => {
  const v = valueOf(r, row);
  return row.key === 'toolCalls' && v !== null ? toolsRun(r) : v;
};

/** What a Δ's tooltip says: how tool calls are counted; that wall time was measured with runs side by side. */
function diffTitle(row: NumericRow, runs: number): string | undefined {
  if (row.key === 'toolCalls')
    return "Δ of the tools run: the calls made inside programs count, a program itself does not. Not a win or a loss: the calls' tokens are in the token rows.";
  if (row.key === 'wallMs')
    return `Measured with ${runs} runs side by side: wall time depends on how many ran at once and on the machine, so it is not a win or a loss.`;
  return undefined;
}

/** The Δ under a figure, for tables of more than MANY_COLUMNS modes, where Δ columns of their own would not fit. */
function DiffNote({
  value,
  base,
  testId,
  withheld,
  neutral,
  title,
}: {
  value: number | null;
  base: number | null;
  testId?: string;
  withheld?: string;
  neutral?: boolean;
  title?: string;
}) {
  const p = value === null || base === null || withheld ? null : percentDiff(value, base);
  const tone = neutral || p === null || p === 0 ? '' : p < 0 ? 'is-less' : 'is-more';
  return (
    <span
      className={`diff diff-inline ${tone}`}
      data-value={p ?? ''}
      data-testid={testId}
      title={withheld ?? title ?? 'Δ against the baseline'}
    >
      {p === null ? '—' : `Δ ${formatPercent(p)}`}
    </span>
  );
}

/** `neutral`: a figure that is no win or loss (wall time, tool calls): no green, no red; `suffix` after it ("measured"). */
export function DiffCell({
  value,
  base,
  testId,
  withheld,
  neutral,
  title,
  suffix,
}: {
  value: number | null;
  base: number | null;
  testId?: string;
  withheld?: string;
  neutral?: boolean;
  title?: string;
  suffix?: string;
}) {
  if (value === null || base === null || withheld)
    return (
      <td className="num diff" data-testid={testId} data-value="" title={withheld}>
        —
      </td>
    );
  const p = percentDiff(value, base);
  const tone = neutral || p === null || p === 0 ? '' : p < 0 ? 'is-less' : 'is-more';
  return (
    <td
      className={`num diff ${tone}`}
      data-value={p ?? ''}
      data-testid={testId}
      data-neutral={neutral || undefined}
      title={title}
    >
      {formatPercent(p)}
      {suffix ? <span className="muted"> {suffix}</span> : null}
    </td>
  );
}

const NONE: readonly string[] = [];

/** `scope` names the trial shown ("Trial 2"); `waiting` lists runs whose trial has not started yet. */
export function SummaryTable({
  comparison,
  simulated,
  scope,
  waiting = NONE,
}: {
  comparison: ComparisonSummary;
  simulated: boolean;
  scope?: string;
  waiting?: readonly string[];
}) {
  const runs = comparison.runs;
  const slot = useSlotOf();
  const baseMode = useBaseline(runs.map((r) => r.column.key));
  const base = runs.find((r) => r.column.key === baseMode) ?? runs[0];
  const others = runs.filter((r) => r !== base);
  // Beyond MANY_COLUMNS modes the Δ goes under each figure: its own columns would push modes out of view.
  const inlineDiff = runs.length > MANY_COLUMNS;
  const diffColumns = inlineDiff ? [] : others;
  const showCost = costShown(runs);
  const cheapest = comparison.cheapest;
  const fewest = comparison.fewestTokens;
  return (
    <figure className="summary" data-testid="summary-table">
      <figcaption className="chart-caption">
        <div className="chart-title-row">
          <h3 className="chart-title">{scope ? `Summary · ${scope}` : 'Summary'}</h3>
          {simulated ? <SimBadge /> : null}
        </div>
        <p className="chart-subtitle">
          {others.length > 0 && base ? (
            <>
              Δ is relative to <BaselinePicker columns={runs.map((r) => r.column)} testId="sum-baseline" />; negative
              means fewer.
            </>
          ) : (
            'Totals of the run.'
          )}
          {simulated ? ' Simulated model: not what a real provider would bill.' : ''}
        </p>
      </figcaption>
      <div className="table-wrap">
        <table className={`data-table${runs.length > MANY_COLUMNS ? ' is-many' : ''}`}>
          <thead>
            <tr>
              <th scope="col">Metric</th>
              {runs.map((r) => (
                <th scope="col" key={r.runId} className="num">
                  <ColumnSwatch slot={slot(r)} /> {r.column.label}
                  {fewest.runId === r.runId && runs.length > 1 ? (
                    <span
                      className="cheapest-pill"
                      data-testid="fewest-pill"
                      title={fewest.estimated ? 'Built on estimated usage' : undefined}
                    >
                      {fewest.estimated ? '≈ ' : ''}fewest tokens
                    </span>
                  ) : null}
                  {showCost && cheapest.runId === r.runId && runs.length > 1 ? (
                    <span
                      className="cheapest-pill is-cost"
                      data-testid="cheapest-pill"
                      title={cheapest.estimated ? 'Built on estimated usage' : undefined}
                    >
                      {cheapest.estimated ? '≈ ' : ''}cheapest
                    </span>
                  ) : null}
                </th>
              ))}
              {diffColumns.map((r) => (
                <th scope="col" key={`d${r.runId}`} className="num diff">
                  Δ {r.column.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">Status</th>
              {runs.map((r) => (
                <td key={r.runId} className="num">
                  <StatusBadge status={waiting.includes(r.runId) ? 'waiting' : r.status} validation={r.validation} />
                </td>
              ))}
              {diffColumns.map((r) => (
                <td key={`d${r.runId}`} />
              ))}
            </tr>
            {ROWS.map((row) => (
              <tr key={row.key} data-metric={row.key}>
                <th scope="row" title={row.hint}>
                  {row.label}
                </th>
                {runs.map((r) => {
                  const v = valueOf(r, row);
                  return (
                    <td
                      key={r.runId}
                      className="num"
                      data-testid={`sum-${row.key}-${r.column.key}`}
                      data-value={v ?? ''}
                      data-estimated={estimatedCell(r, row.key) || undefined}
                    >
                      <EstMark on={v !== null && estimatedCell(r, row.key)} />
                      {v === null ? '—' : row.time ? fmtMs(v) : fmtInt(v)}
                      {row.key === 'firstRequestPrompt' ? null : row.key === 'startupMs' ? (
                        // The long form ("0.4 s before Run, warm pool") is in the tooltip: the table keeps its width.
                        r.workerStart?.pooled ? (
                          <span className="muted" title={startupTitle(r.workerStart)}>
                            {' '}
                            warm
                          </span>
                        ) : null
                      ) : (
                        <span className="muted">{metricNote(row.key, r)}</span>
                      )}
                      {inlineDiff && r !== base && !row.notCompared ? (
                        <DiffNote
                          value={diffValueOf(r, row)}
                          base={base ? diffValueOf(base, row) : null}
                          {...(base && !comparableRuns(r, base) ? { withheld: NO_DIFF_NOTE } : {})}
                          neutral={row.neutral}
                          title={diffTitle(row, runs.length)}
                          testId={`sum-diff-${row.key}-${r.column.key}`}
                        />
                      ) : null}
                    </td>
                  );
                })}
                {diffColumns.map((r) =>
                  row.notCompared ? (
                    <td key={`d${r.runId}`} className="num diff" />
                  ) : (
                    <DiffCell
                      key={`d${r.runId}`}
                      value={diffValueOf(r, row)}
                      base={base ? diffValueOf(base, row) : null}
                      {...(base && !comparableRuns(r, base) ? { withheld: NO_DIFF_NOTE } : {})}
                      neutral={row.neutral}
                      suffix={row.key === 'wallMs' ? 'measured' : undefined}
                      title={diffTitle(row, runs.length)}
                      testId={`sum-diff-${row.key}-${r.column.key}`}
                    />
                  ),
                )}
              </tr>
            ))}
            {showCost ? <CostRows comparison={comparison} blanks={diffColumns.length} /> : null}
            <tr>
              <th scope="row">Validation</th>
              {runs.map((r) => (
                <td key={r.runId} className="num" title={r.validation?.detail}>
                  {r.status === 'running' ? '—' : <ValidationBadge validation={r.validation} />}
                </td>
              ))}
              {diffColumns.map((r) => (
                <td key={`d${r.runId}`} />
              ))}
            </tr>
            <tr className="answer-row">
              <th scope="row">Answer</th>
              {runs.map((r) => (
                <td key={r.runId} className="answer-cell" data-testid={`sum-answer-${r.column.key}`}>
                  {r.answer ? (
                    <span title={r.answer}>{answerGist(r.answer)}</span>
                  ) : (
                    <span className="muted">
                      {r.error ??
                        (waiting.includes(r.runId)
                          ? 'Not started yet'
                          : r.status === 'running'
                            ? 'Running…'
                            : 'No answer')}
                    </span>
                  )}
                </td>
              ))}
              {diffColumns.map((r) => (
                <td key={`d${r.runId}`} />
              ))}
            </tr>
          </tbody>
        </table>
      </div>
      <Verdicts comparison={comparison} showCost={showCost} />
    </figure>
  );
}
