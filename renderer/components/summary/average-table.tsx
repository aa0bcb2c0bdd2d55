/**
 * Every trial of every mode in one table: the mean of each figure over the answered runs with its min–max,
 * how many runs answered and passed, and the difference of the means against the first mode — all from the
 * shared aggregateByMode, so the CLI and the reports show the same figures.
 */
import { MODE_LABELS } from '../../../shared/run-spec.js';
import type { ModeAggregate, Stat } from '../../../shared/summary.js';
import { fmtMean, fmtMs } from '../../lib/format.js';
import { SimBadge } from '../common/badges.js';
import { DiffCell, ROWS as SUMMARY_ROWS } from './summary-table.js';
import { EstMark, meanCostText } from './cost-parts.js';
import { formatUsd, isEstimated } from '../../../shared/cost.js';

const TOKEN_ROWS: ReadonlySet<string> = new Set(['prompt', 'completion', 'cached', 'total']);

type StatKey = 'steps' | 'requests' | 'prompt' | 'completion' | 'cached' | 'total' | 'wallMs' | 'toolCalls';

// The run table's rows, less the first request (its size does not vary between trials of a mode).
const ROWS = SUMMARY_ROWS.filter((r): r is typeof r & { key: StatKey } => r.key !== 'firstRequestPrompt');

/**
 * The mean, then lowest–highest in a quieter colour: in a cell of its own, or (`stacked`, with more than two
 * modes, where a column each would not fit) on a second line under the mean.
 */
function StatCells({ stat, time, testId, stacked, estimated = false, usd = false }: { stat: Stat | null; time?: boolean; testId: string; stacked: boolean; estimated?: boolean; usd?: boolean }) {
  const f = usd ? formatUsd : time ? fmtMs : fmtMean;
  if (!stat)
    return (
      <>
        <td className="num" data-testid={testId} data-mean="" title="No trial of this mode answered">
          —
        </td>
        {stacked ? null : <td />}
      </>
    );
  const range = `${f(stat.min)}–${f(stat.max)}`;
  if (stacked)
    return (
      <td className="num" data-testid={testId} data-mean={stat.mean} data-min={stat.min} data-max={stat.max}>
        <EstMark on={estimated} />
        {f(stat.mean)}
        <span className="stat-range" title="Lowest and highest over the answered trials">
          {range}
        </span>
      </td>
    );
  return (
    <>
      <td className="num" data-testid={testId} data-mean={stat.mean} data-min={stat.min} data-max={stat.max}>
        <EstMark on={estimated} />
        {f(stat.mean)}
      </td>
      <td className="num stat-range" title="Lowest and highest over the answered trials">
        {range}
      </td>
    </>
  );
}

function CountCells({ value, of, testId, stacked }: { value: number; of: number; testId: string; stacked: boolean }) {
  return (
    <>
      <td className={`num count-cell ${value < of ? 'is-short' : ''}`} data-testid={testId} data-value={value} data-of={of}>
        {value}/{of}
      </td>
      {stacked ? null : <td />}
    </>
  );
}

export function AverageTable({ aggregates, trials, running, simulated, showCost = false }: { aggregates: readonly ModeAggregate[]; trials: number; running: boolean; simulated: boolean; showCost?: boolean }) {
  const base = aggregates[0];
  const others = aggregates.slice(1);
  const blanks = others.map((a) => <td key={`d${a.mode}`} />);
  const stacked = aggregates.length > 2;
  return (
    <figure className="summary average" data-testid="average-table">
      <figcaption className="chart-caption">
        <div className="chart-title-row">
          <h3 className="chart-title">Average over {trials} trials</h3>
          {simulated ? <SimBadge /> : null}
        </div>
        <p className="chart-subtitle">
          Mean{stacked ? ' (lowest–highest below it)' : ', lowest and highest'} over the answered runs; runs without an answer count only in “Answered”.
          {others.length > 0 && base ? ` Δ compares the means against ${MODE_LABELS[base.mode]}; negative means fewer.` : ''}
          {running ? ' Trials still running join the figures when they finish.' : ''}
          {simulated ? ' Simulated model: not what a real provider would bill.' : ''}
        </p>
      </figcaption>
      <div className="table-wrap">
        <table className={`data-table ${stacked ? 'is-stacked' : ''}`}>
          <thead>
            <tr>
              <th scope="col" rowSpan={stacked ? 1 : 2}>
                Metric
              </th>
              {aggregates.map((a) => (
                <th scope={stacked ? 'col' : 'colgroup'} colSpan={stacked ? 1 : 2} key={a.mode} className="mode-group">
                  <span className={`mode-swatch mode-${a.mode}`} aria-hidden="true" /> {MODE_LABELS[a.mode]}
                </th>
              ))}
              {others.map((a) => (
                <th scope="col" rowSpan={stacked ? 1 : 2} key={`d${a.mode}`} className="num diff">
                  Δ {MODE_LABELS[a.mode]}
                </th>
              ))}
            </tr>
            {stacked ? null : (
              <tr>
                {aggregates.flatMap((a) => [
                  <th scope="col" key={`${a.mode}m`} className="num">
                    mean
                  </th>,
                  <th scope="col" key={`${a.mode}r`} className="num">
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
                <CountCells key={a.mode} value={a.answered} of={a.trials} testId={`avg-answered-${a.mode}`} stacked={stacked} />
              ))}
              {blanks}
            </tr>
            <tr data-metric="passed">
              <th scope="row" title="Answered runs whose answer passed the task's check">
                Passed
              </th>
              {aggregates.map((a) => (
                <CountCells key={a.mode} value={a.passed} of={a.trials} testId={`avg-passed-${a.mode}`} stacked={stacked} />
              ))}
              {blanks}
            </tr>
            {ROWS.map((row) => (
              <tr key={row.key} data-metric={row.key}>
                <th scope="row" title={row.hint}>
                  {row.label}
                </th>
                {aggregates.map((a) => (
                  <StatCells key={a.mode} stat={a[row.key]} time={row.time} testId={`avg-${row.key}-${a.mode}`} stacked={stacked} estimated={TOKEN_ROWS.has(row.key) && isEstimated(a.usageSource)} />
                ))}
                {others.map((a) => (
                  <DiffCell key={`d${a.mode}`} value={a[row.key]?.mean ?? null} base={base?.[row.key]?.mean ?? null} testId={`avg-diff-${row.key}-${a.mode}`} />
                ))}
              </tr>
            ))}
            {showCost ? (
              <tr data-metric="cost">
                <th scope="row" title="USD over the answered runs, at the price each recorded when it started">
                  Cost (USD)
                </th>
                {aggregates.map((a) =>
                  a.cost ? (
                    <StatCells key={a.mode} stat={a.cost} usd testId={`avg-cost-${a.mode}`} stacked={stacked} estimated={a.costEstimated} />
                  ) : (
                    <td key={a.mode} className="num muted" colSpan={stacked ? 1 : 2} data-testid={`avg-cost-${a.mode}`} title="The cost of an answered run of this mode is not known (no price, or usage not sent)">
                      {meanCostText(a)}
                    </td>
                  ),
                )}
                {others.map((a) => (
                  <DiffCell key={`d${a.mode}`} value={a.cost?.mean ?? null} base={base?.cost?.mean ?? null} testId={`avg-diff-cost-${a.mode}`} />
                ))}
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
