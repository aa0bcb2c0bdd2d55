/**
 * One figure per step per mode beside the token charts: the model's latency (ms), and the cost (USD) when the
 * steps were priced. Bars carry data-mode / data-step / data-metric / data-value for tests.
 */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { barShape } from './bar-shape.js';
import type { RunSummary, StepSummary } from '../../../shared/summary.js';
import { fmtMs } from '../../lib/display-format.js';
import { stepMetricTable } from './chart-tables.js';
import {
  ChartFrame,
  LegendItem,
  axisTick,
  modeColor,
  roundTicks,
  seriesLabel,
  useChartColumns,
  type ChartColumn,
  TITLE_ROOM,
  yAxisTitle,
} from './chart-parts.js';

export type StepMetric = 'latency' | 'cost';

const METRICS: Record<
  StepMetric,
  {
    title: string;
    subtitle: string;
    axis: string;
    value: (s: StepSummary) => number | null;
    text: (v: number) => string;
  }
> = {
  latency: {
    title: 'Latency per step',
    subtitle: 'Time from sending each model request to its last byte.',
    axis: 'latency',
    value: (s) => s.latencyMs,
    text: (v) => fmtMs(v),
  },
  cost: {
    title: 'Cost per step',
    subtitle: 'What each model request cost, from the provider’s figure or the model’s price.',
    axis: 'cost',
    value: (s) => s.cost.usd,
    text: (v) => `$${v < 0.01 ? v.toPrecision(2) : v.toFixed(4)}`,
  },
};

/** One value per column key (a plain comparison's keys are its modes). */
type Row = { step: number } & Partial<Record<string, number>>;

export function stepMetricRows(runs: readonly RunSummary[], metric: StepMetric): Row[] {
  const rows = new Map<number, Row>();
  for (const r of runs) {
    for (const s of r.perStep) {
      const v = METRICS[metric].value(s);
      if (v === null) continue;
      const row = rows.get(s.step) ?? { step: s.step };
      row[r.column.key] = v;
      rows.set(s.step, row);
    }
  }
  return [...rows.values()].sort((a, b) => a.step - b.step);
}

function shape(col: ChartColumn, metric: StepMetric) {
  return barShape<Row>(
    (row) => row[col.key],
    (row, value) => ({
      style: { fill: modeColor(col.slot) },
      data: {
        'data-testid': 'metric-bar',
        'data-metric': metric,
        'data-mode': col.key,
        'data-step': row.step,
        'data-value': value,
      },
    }),
  );
}

export function StepMetricChart({
  runs,
  metric,
  simulated,
}: {
  runs: readonly RunSummary[];
  metric: StepMetric;
  simulated: boolean;
}) {
  const rows = stepMetricRows(runs, metric);
  const columns = useChartColumns(runs);
  if (rows.length === 0) return null;
  const m = METRICS[metric];
  const modes = columns;
  const max = Math.max(...rows.flatMap((r) => modes.map((c) => r[c.key] ?? 0)));
  const ticks = metric === 'cost' ? undefined : roundTicks(max);
  return (
    <ChartFrame
      title={m.title}
      subtitle={m.subtitle}
      simulated={simulated}
      legend={modes.map((c) => (
        <LegendItem key={c.key} color={modeColor(c.slot)} label={c.label} />
      ))}
      testId={`${metric}-chart`}
      table={stepMetricTable(rows, columns, `${m.title}${simulated ? ' (simulated)' : ''}`, m.text)}
    >
      <div className="chart-box" style={{ height: 180 }}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart
            accessibilityLayer={false}
            data={rows}
            margin={{ top: TITLE_ROOM, right: 12, bottom: 12, left: 6 }}
            barGap={1}
            barCategoryGap="22%"
            maxBarSize={24}
          >
            <CartesianGrid vertical={false} stroke="var(--chart-grid)" />
            <XAxis
              dataKey="step"
              tick={axisTick}
              tickLine={false}
              axisLine={{ stroke: 'var(--chart-grid)' }}
              label={{ value: 'step', position: 'insideBottom', offset: -8, fill: 'var(--chart-axis)', fontSize: 11 }}
            />
            <YAxis
              {...(ticks ? { ticks, domain: [0, ticks[ticks.length - 1]!] } : {})}
              tick={axisTick}
              tickLine={false}
              axisLine={false}
              width={56}
              tickFormatter={(v: number) => (metric === 'cost' ? `$${+v.toPrecision(2)}` : fmtMs(v))}
              label={yAxisTitle(m.axis)}
            />
            <Tooltip
              cursor={{ fill: 'var(--bg-hover)' }}
              isAnimationActive={false}
              formatter={(v, name) => [m.text(Number(v)), seriesLabel(columns)(String(name))]}
              labelFormatter={(l) => `Step ${String(l)}${simulated ? ' · simulated' : ''}`}
            />
            {modes.map((c) => (
              <Bar
                key={c.key}
                dataKey={c.key}
                name={c.key}
                fill={modeColor(c.slot)}
                shape={shape(c, metric)}
                isAnimationActive={false}
              />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
    </ChartFrame>
  );
}
