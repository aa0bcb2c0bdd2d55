/** "All" trials: each run's prompt and completion tokens, one group per trial — the spread behind the averages. */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { barShape } from './bar-shape.js';
import type { RunSummary } from '../../../shared/summary.js';
import { trialTotalsTable } from './chart-tables.js';
import { seriesKey, trialRows, type TokenKind } from './chart-data.js';
import {
  ChartFrame,
  PairLegend,
  TokenTooltip,
  axisTick,
  fmtAxis,
  modeColor,
  outline,
  seriesLabel,
  useChartColumns,
  type ChartColumn,
} from './chart-parts.js';

export interface TrialSummary {
  readonly trial: number;
  readonly summary: RunSummary;
}

function tokenBar(col: ChartColumn, kind: TokenKind, answered: ReadonlySet<string>) {
  const key = seriesKey(col.key, kind);
  return barShape<Record<string, number | undefined>>(
    (row) => row[key],
    (row, value, width) => {
      const ok = answered.has(`${row.trial}:${col.key}`);
      return {
        style: { fill: modeColor(col.slot, kind), opacity: ok ? 1 : 0.4, ...outline(col.slot, kind, width) },
        data: {
          'data-testid': 'trial-token-bar',
          'data-trial': row.trial,
          'data-mode': col.key,
          'data-kind': kind,
          'data-value': value,
          'data-answered': ok,
        },
      };
    },
  );
}

export function TrialTotalsChart({ runs, simulated }: { runs: readonly TrialSummary[]; simulated: boolean }) {
  const rows = trialRows(runs.filter((r) => r.summary.totals.requests > 0));
  const modes = useChartColumns(runs.map((r) => r.summary));
  const answered = new Set(
    runs.filter((r) => r.summary.status === 'answered').map((r) => `${r.trial}:${r.summary.column.key}`),
  );
  const legend = <PairLegend columns={modes} />;
  return (
    <ChartFrame
      title="Tokens per trial"
      subtitle="Prompt and completion tokens of each run, summed over its steps. Faded bars: runs without an answer (yet), left out of the averages."
      simulated={simulated}
      legend={legend}
      testId="trial-totals-chart"
      table={trialTotalsTable(rows, modes, answered, simulated)}
    >
      {rows.length === 0 ? (
        <div className="chart-empty">
          {runs.some((r) => r.summary.status === 'running')
            ? 'No model replies yet.'
            : 'No model replied in any trial: see the timeline for why.'}
        </div>
      ) : (
        <div className="chart-box" style={{ height: 240 }}>
          <ResponsiveContainer width="100%" height="100%">
            <BarChart
              accessibilityLayer={false}
              data={rows}
              margin={{ top: 8, right: 12, bottom: 0, left: 0 }}
              barGap={1}
              barCategoryGap="22%"
              maxBarSize={36}
            >
              <CartesianGrid vertical={false} stroke="var(--chart-grid)" />
              <XAxis
                dataKey="trial"
                tick={axisTick}
                tickLine={false}
                axisLine={{ stroke: 'var(--chart-grid)' }}
                tickFormatter={(t: number) => `Trial ${t}`}
              />
              <YAxis tick={axisTick} tickLine={false} axisLine={false} tickFormatter={fmtAxis} width={48} />
              <Tooltip
                cursor={{ fill: 'var(--bg-hover)' }}
                content={(p) => (
                  <TokenTooltip
                    {...(p as object)}
                    simulated={simulated}
                    title={`Trial ${String((p as { label?: unknown }).label)}`}
                    labelOf={seriesLabel(modes)}
                  />
                )}
                isAnimationActive={false}
              />
              {modes.flatMap((m) =>
                (['prompt', 'completion'] as const).map((k) => (
                  <Bar
                    key={seriesKey(m.key, k)}
                    dataKey={seriesKey(m.key, k)}
                    name={seriesKey(m.key, k)}
                    fill={modeColor(m.slot, k)}
                    shape={tokenBar(m, k, answered)}
                    isAnimationActive={false}
                  />
                )),
              )}
            </BarChart>
          </ResponsiveContainer>
        </div>
      )}
    </ChartFrame>
  );
}
