/** Total tokens spent so far (prompt + completion), after each step: one line per column, or per run for every trial. */
import type { ColumnSlot } from '../../../shared/column-shades.js';
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { RunSummary } from '../../../shared/summary.js';
import { carriedKey, cumulativeRows } from './chart-data.js';
import { cumulativeTable } from './chart-tables.js';
import {
  ChartFrame,
  LegendItem,
  TokenTooltip,
  axisTick,
  fmtAxis,
  modeColor,
  modeDash,
  seriesLabel,
  useChartColumns,
  TITLE_ROOM,
  yAxisTitle,
} from './chart-parts.js';

interface DotProps {
  cx?: number;
  cy?: number;
  payload?: Record<string, number>;
  value?: number;
}

function dot(slot: ColumnSlot, column: string, key: string, trial: number | undefined) {
  return (p: DotProps) => {
    if (p.cx === undefined || p.cy === undefined || typeof p.value !== 'number')
      return <g key={`${key}-${p.payload?.step}`} />;
    return (
      <circle
        key={`${key}-${p.payload?.step}`}
        cx={p.cx}
        cy={p.cy}
        r={3}
        style={{ fill: 'var(--bg)', stroke: modeColor(slot), strokeWidth: 2 }}
        data-testid="cumulative-point"
        data-mode={column}
        data-trial={trial}
        data-step={p.payload?.step}
        data-value={p.value}
      />
    );
  };
}

/** `trials` (every trial drawn at once) gives each run's trial, so each run gets its own line in its mode's colour. */
export function CumulativeChart({
  runs,
  simulated,
  scope,
  trials,
}: {
  runs: readonly RunSummary[];
  simulated: boolean;
  scope?: string;
  trials?: readonly number[];
}) {
  const keyOf = (r: RunSummary, i: number) => (trials ? `${r.column.key}-t${trials[i]}` : r.column.key);
  // One line per column: a finished column's total carries forward; with every trial drawn, lines just end.
  const rows = cumulativeRows(runs, keyOf, !trials);
  const columns = useChartColumns(runs);
  const slotOf = (key: string) => columns.find((c) => c.key === key)!.slot;
  const lines = runs.map((r, i) => ({
    key: keyOf(r, i),
    column: r.column.key,
    mode: slotOf(r.column.key),
    trial: trials?.[i],
    label: trials ? `${r.column.label} · trial ${trials[i]}` : r.column.label,
  }));
  const labels = new Map(
    lines.flatMap((l, i) => [
      [l.key, l.label],
      [carriedKey(l.key), `${l.label} (finished at step ${runs[i]!.perStep.at(-1)?.step ?? '?'})`],
    ]),
  );
  const carried = lines.filter((l) => rows.some((r) => r[carriedKey(l.key)] !== undefined));
  return (
    <ChartFrame
      title={scope ? `Cumulative tokens · ${scope}` : 'Cumulative tokens'}
      subtitle={`Prompt + completion tokens spent up to each step; the history is re-sent on every request.${trials ? ' One line per run.' : ''}`}
      simulated={simulated}
      legend={columns.map((c) => (
        <LegendItem key={c.key} color={modeColor(c.slot)} label={c.label} dash={modeDash(c.slot) ?? ''} />
      ))}
      testId="cumulative-chart"
      table={cumulativeTable(
        runs,
        keyOf,
        lines.map((l) => l.label),
        scope ? `Cumulative tokens, ${scope}` : 'Cumulative tokens',
        simulated,
      )}
    >
      {rows.length === 0 ? (
        <div className="chart-empty">
          {runs.some((r) => r.status === 'running')
            ? 'No model replies yet.'
            : 'No model replied in this comparison: see the timeline for why.'}
        </div>
      ) : (
        <div className="chart-box" style={{ height: 220 }}>
          <ResponsiveContainer width="100%" height="100%">
            <LineChart
              accessibilityLayer={false}
              data={rows}
              margin={{ top: TITLE_ROOM, right: 16, bottom: 12, left: 6 }}
            >
              <CartesianGrid vertical={false} stroke="var(--chart-grid)" />
              {/* A numeric axis picks a few ticks itself; a categorical one would measure every label (slow at 1,000 steps). */}
              <XAxis
                dataKey="step"
                type="number"
                domain={['dataMin', 'dataMax']}
                allowDecimals={false}
                ticks={rows.length <= 20 ? rows.map((r) => r.step) : undefined}
                tick={axisTick}
                tickLine={false}
                axisLine={{ stroke: 'var(--chart-grid)' }}
                label={{ value: 'step', position: 'insideBottom', offset: -8, fill: 'var(--chart-axis)', fontSize: 11 }}
              />
              <YAxis
                tick={axisTick}
                tickLine={false}
                axisLine={false}
                tickFormatter={fmtAxis}
                width={56}
                label={yAxisTitle('tokens so far')}
              />
              <Tooltip
                content={(p) => {
                  // At a run's last step its carried line starts on the same value: list it once.
                  const payload = (p.payload ?? []).filter(
                    (e) =>
                      !String(e.dataKey).endsWith('~carried') ||
                      e.payload?.[String(e.dataKey).slice(0, -'~carried'.length)] === undefined,
                  );
                  return (
                    <TokenTooltip
                      {...(p as object)}
                      payload={payload as never}
                      simulated={simulated}
                      labelOf={(k) => labels.get(k) ?? seriesLabel(columns)(k)}
                    />
                  );
                }}
                isAnimationActive={false}
              />
              {lines.map((l) => (
                <Line
                  key={l.key}
                  dataKey={l.key}
                  name={l.key}
                  type="linear"
                  stroke={modeColor(l.mode)}
                  strokeDasharray={modeDash(l.mode)}
                  strokeWidth={trials ? 1.5 : 2}
                  strokeOpacity={trials ? 0.8 : 1}
                  dot={rows.length <= 60 ? dot(l.mode, l.column, l.key, l.trial) : false}
                  activeDot={{ r: 4 }}
                  isAnimationActive={false}
                  connectNulls={false}
                />
              ))}
              {carried.map((l) => (
                <Line
                  key={carriedKey(l.key)}
                  dataKey={carriedKey(l.key)}
                  name={carriedKey(l.key)}
                  type="linear"
                  stroke={modeColor(l.mode)}
                  strokeDasharray="2 4"
                  strokeOpacity={0.55}
                  strokeWidth={1.5}
                  dot={false}
                  activeDot={false}
                  legendType="none"
                  isAnimationActive={false}
                  className="carried-line"
                  data-testid="carried-line"
                />
              ))}
            </LineChart>
          </ResponsiveContainer>
        </div>
      )}
    </ChartFrame>
  );
}
