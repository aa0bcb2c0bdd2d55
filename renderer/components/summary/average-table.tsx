/**
 * Every trial of every mode in one table: the mean of each figure over the finished runs with ± half its 95 %
 * interval, its sd and min–max, how many runs answered and passed (with the pass rate's Wilson interval), and
 * the difference of the means against the first mode; under it each difference in words with its interval and
 * exact p — all from the shared aggregateByColumn and differencesByMode, so the CLI and the reports agree.
 */
import { BaselinePicker, useBaseline } from './baseline-picker.js';
import { ColumnSwatch, useSlotOf } from '../common/column-swatch.js';
import {
  FIGURES_NOTE,
  ONE_TRIAL_NOTE,
  ranOfAggregate,
  type ModeAggregate,
  type Stat,
} from '../../../shared/summary.js';
import type { ModeDifference } from '../../../shared/trial-differences.js';
import { fmtMean, fmtMs } from '../../lib/display-format.js';
import { SimBadge } from '../common/badges.js';
import { DiffCell, MANY_COLUMNS, ROWS as SUMMARY_ROWS } from './summary-table.js';
import { RUN_METRICS } from '../../../shared/run-metrics.js';
import { EstMark, meanCostText } from './cost-parts.js';
import { formatUsd, isEstimated } from '../../../shared/cost.js';

const TOKEN_ROWS: ReadonlySet<string> = new Set(['prompt', 'completion', 'cached', 'total']);

type StatKey = 'steps' | 'requests' | 'prompt' | 'completion' | 'cached' | 'total' | 'wallMs' | 'toolCalls';

// The run table's rows of the metrics averaged over trials (not the first request: its size does not vary between trials of a mode).
const AVERAGED: ReadonlySet<string> = new Set(RUN_METRICS.filter((m) => m.averaged).map((m) => m.key));
const ROWS = SUMMARY_ROWS.filter((r): r is typeof r & { key: StatKey } => AVERAGED.has(r.key));

/**
 * The mean, then lowest–highest in a quieter colour: in a cell of its own, or (`stacked`, with more than two
 * modes, where a column each would not fit) on a second line under the mean.
 */
function StatCells({
  stat,
  time,
  testId,
  stacked,
  estimated = false,
  usd = false,
}: {
  stat: Stat | null;
  time?: boolean;
  testId: string;
  stacked: boolean;
  estimated?: boolean;
  usd?: boolean;
}) {
  const f = usd ? formatUsd : time ? fmtMs : fmtMean;
  if (!stat)
    return (
      <>
        <td className="num" data-testid={testId} data-mean="" title="No trial of this mode has finished">
          —
        </td>
        {stacked ? null : <td />}
      </>
    );
  const range = `${f(stat.min)}–${f(stat.max)}`;
  const ci = stat.ci95;
  const spread = (
    <span
      className="stat-ci"
      data-ci-low={ci?.[0]}
      data-ci-high={ci?.[1]}
      data-sd={stat.sd ?? undefined}
      title={
        ci
          ? `95 % interval of the mean (Student's t): ${f(ci[0])} to ${f(ci[1])}; sd: standard deviation over ${stat.n} runs`
          : undefined
      }
    >
      {/* Two unbreakable halves: with many modes the line wraps between them, never inside a figure. */}
      {ci && stat.sd !== null ? (
        <>
          <span>± {f((ci[1] - ci[0]) / 2)}</span> <span>· sd {f(stat.sd)}</span>
        </>
      ) : (
        ONE_TRIAL_NOTE
      )}
    </span>
  );
  if (stacked)
    return (
      <td className="num" data-testid={testId} data-mean={stat.mean} data-min={stat.min} data-max={stat.max}>
        <EstMark on={estimated} />
        {f(stat.mean)}
        {spread}
        <span className="stat-range" title="Lowest and highest over the finished trials">
          {range}
        </span>
      </td>
    );
  return (
    <>
      <td className="num" data-testid={testId} data-mean={stat.mean} data-min={stat.min} data-max={stat.max}>
        <EstMark on={estimated} />
        {f(stat.mean)}
        {spread}
      </td>
      <td className="num stat-range" title="Lowest and highest over the finished trials">
        {range}
      </td>
    </>
  );
}

/** `never`: runs cancelled before they started, outside the count (they tried nothing). */
function CountCells({
  value,
  of,
  never = 0,
  testId,
  stacked,
  ci,
}: {
  value: number;
  of: number;
  never?: number;
  testId: string;
  stacked: boolean;
  ci?: readonly [number, number];
}) {
  const pct = (v: number) => `${Math.round(v * 100)} %`;
  return (
    <>
      <td
        className={`num count-cell ${value < of ? 'is-short' : ''}`}
        data-testid={testId}
        data-value={value}
        data-of={of}
        data-never={never || undefined}
      >
        {value}/{of}
        {never > 0 ? (
          <span className="stat-ci" data-testid="never-started-note">
            {never} never started
          </span>
        ) : null}
        {ci ? (
          <span
            className="stat-ci"
            data-ci-low={ci[0]}
            data-ci-high={ci[1]}
            title="95 % interval of the pass rate (Wilson)"
          >
            <span>95 % CI</span>{' '}
            <span>
              {pct(ci[0])}–{pct(ci[1])}
            </span>
          </span>
        ) : null}
      </td>
      {stacked ? null : <td />}
    </>
  );
}

export function AverageTable({
  aggregates,
  differences = [],
  trials,
  running,
  simulated,
  showCost = false,
}: {
  aggregates: readonly ModeAggregate[];
  differences?: readonly ModeDifference[];
  trials: number;
  running: boolean;
  simulated: boolean;
  showCost?: boolean;
}) {
  const slot = useSlotOf();
  const baseMode = useBaseline(aggregates.map((a) => a.column.key));
  const base = aggregates.find((a) => a.column.key === baseMode) ?? aggregates[0];
  const others = aggregates.filter((a) => a !== base);
  const blanks = others.map((a) => <td key={`d${a.column.key}`} />);
  const stacked = aggregates.length > 2;
  return (
    <figure className="summary average" data-testid="average-table">
      <figcaption className="chart-caption">
        <div className="chart-title-row">
          <h3 className="chart-title">Average over {trials} trials</h3>
          {simulated ? <SimBadge /> : null}
        </div>
        <p className="chart-subtitle">
          Mean ± half its 95 % interval and sd{stacked ? ' (lowest–highest below them)' : ', lowest and highest'}.{' '}
          {FIGURES_NOTE}
          {others.length > 0 && base ? (
            <>
              {' '}
              Δ compares the means against{' '}
              <BaselinePicker columns={aggregates.map((a) => a.column)} testId="avg-baseline" />; negative means fewer.
            </>
          ) : (
            ''
          )}
          {running ? ' Trials still running join the figures when they finish.' : ''}
          {simulated ? ' Simulated model: not what a real provider would bill.' : ''}
        </p>
      </figcaption>
      <div className="table-wrap">
        <table
          className={`data-table ${stacked ? 'is-stacked' : ''}${aggregates.length > MANY_COLUMNS ? ' is-many' : ''}`}
        >
          <thead>
            <tr>
              <th scope="col" rowSpan={stacked ? 1 : 2}>
                Metric
              </th>
              {aggregates.map((a) => (
                <th
                  scope={stacked ? 'col' : 'colgroup'}
                  colSpan={stacked ? 1 : 2}
                  key={a.column.key}
                  className="mode-group"
                >
                  <ColumnSwatch slot={slot(a)} /> {a.column.label}
                </th>
              ))}
              {others.map((a) => (
                <th scope="col" rowSpan={stacked ? 1 : 2} key={`d${a.column.key}`} className="num diff">
                  Δ {a.column.label}
                </th>
              ))}
            </tr>
            {stacked ? null : (
              <tr>
                {aggregates.flatMap((a) => [
                  <th scope="col" key={`${a.column.key}m`} className="num">
                    mean
                  </th>,
                  <th scope="col" key={`${a.column.key}r`} className="num">
                    min–max
                  </th>,
                ])}
              </tr>
            )}
          </thead>
          <tbody>
            <tr data-metric="answered">
              <th scope="row" title="Runs that ended with an answer">
                Answered
              </th>
              {aggregates.map((a) => (
                <CountCells
                  key={a.column.key}
                  value={a.answered}
                  of={ranOfAggregate(a)}
                  never={a.neverStarted ?? 0}
                  testId={`avg-answered-${a.column.key}`}
                  stacked={stacked}
                />
              ))}
              {blanks}
            </tr>
            <tr data-metric="passed">
              <th
                scope="row"
                title="Answered runs whose answer passed the task's check, of the runs that started; below: the pass rate's 95 % interval (Wilson)"
              >
                Passed
              </th>
              {aggregates.map((a) => (
                <CountCells
                  key={a.column.key}
                  value={a.passed}
                  of={ranOfAggregate(a)}
                  testId={`avg-passed-${a.column.key}`}
                  stacked={stacked}
                  ci={a.passRate?.ci95}
                />
              ))}
              {blanks}
            </tr>
            {ROWS.map((row) => (
              <tr key={row.key} data-metric={row.key}>
                <th scope="row" title={row.hint}>
                  {row.label}
                </th>
                {aggregates.map((a) => (
                  <StatCells
                    key={a.column.key}
                    stat={a[row.key]}
                    time={row.time}
                    testId={`avg-${row.key}-${a.column.key}`}
                    stacked={stacked}
                    estimated={TOKEN_ROWS.has(row.key) && isEstimated(a.usageSource)}
                  />
                ))}
                {others.map((a) => (
                  <DiffCell
                    key={`d${a.column.key}`}
                    value={a[row.key]?.mean ?? null}
                    base={base?.[row.key]?.mean ?? null}
                    neutral={row.neutral}
                    testId={`avg-diff-${row.key}-${a.column.key}`}
                  />
                ))}
              </tr>
            ))}
            {showCost ? (
              <tr data-metric="cost">
                <th scope="row" title="USD over the finished runs, at the price each recorded when it started">
                  Cost (USD)
                </th>
                {aggregates.map((a) =>
                  a.cost ? (
                    <StatCells
                      key={a.column.key}
                      stat={a.cost}
                      usd
                      testId={`avg-cost-${a.column.key}`}
                      stacked={stacked}
                      estimated={a.costEstimated}
                    />
                  ) : (
                    <td
                      key={a.column.key}
                      className="num muted"
                      colSpan={stacked ? 1 : 2}
                      data-testid={`avg-cost-${a.column.key}`}
                      title="The cost of a finished run of this mode is not known (no price, or usage not sent): no figure rather than $0"
                    >
                      {meanCostText(a)}
                    </td>
                  ),
                )}
                {others.map((a) => (
                  <DiffCell
                    key={`d${a.column.key}`}
                    value={a.cost?.mean ?? null}
                    base={base?.cost?.mean ?? null}
                    testId={`avg-diff-cost-${a.column.key}`}
                  />
                ))}
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      {differences.length > 0 && base ? (
        <div className="avg-differences" data-testid="avg-differences">
          <p className="chart-subtitle">
            Against {base.column.label}: each difference with its 95 % interval and the two-sided p of an exact
            permutation test
            {differences[0]!.paired ? ', paired by round' : ''}.
          </p>
          <ul>
            {differences.map((d) => (
              <li
                key={`${d.column.key}-${d.figure}`}
                data-testid={`avg-difference-${d.column.key}-${d.figure}`}
                data-p={d.p ?? undefined}
              >
                {d.sentence}.
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </figure>
  );
}
