/**
 * "Mean per mode": each mode's mean prompt, completion and total tokens over its trials as bars, with the 95 %
 * interval of the mean (Student's t, shared aggregateByColumn) as an error bar — the same figures as the
 * average table, the CLI and the reports. A mode with one finished run has a bar and no error bar.
 */
import type { ColumnSlot } from '../../../shared/column-shades.js';
import { Bar, BarChart, CartesianGrid, Cell, ErrorBar, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useSlotOf } from '../common/column-swatch.js';
import { ONE_TRIAL_NOTE, type ModeAggregate, type Stat } from '../../../shared/summary.js';
import { fmtMean } from '../../lib/display-format.js';
import { modeMeansTable } from './chart-tables.js';
import { ChartFrame, LegendItem, axisTick, fmtAxis, modeColor } from './chart-parts.js';

const FIGURES = [
  ['prompt', 'Prompt tokens'],
  ['completion', 'Completion tokens'],
  ['total', 'Total tokens'],
] as const;
type FigureKey = (typeof FIGURES)[number][0];

/** `mode`: the column's key (a plain comparison's keys are its modes). */
type Row = { mode: string; label: string; mean: number; err: [number, number] | undefined };

/** Error-bar extents below and above the mean; the lower one stops at 0, since no figure is negative. */
export function errorExtent(s: Stat): [number, number] | undefined {
  if (!s.ci95) return undefined;
  return [s.mean - Math.max(0, s.ci95[0]), s.ci95[1] - s.mean];
}

/** One row per mode with a figure: its mean and error extents. */
export function meanRows(aggregates: readonly ModeAggregate[], key: FigureKey): Row[] {
  return aggregates.flatMap((a) => {
    const s = a[key];
    return s ? [{ mode: a.column.key, label: a.column.label, mean: s.mean, err: errorExtent(s) }] : [];
  });
}

/** Every column's mean, the hovered one first in weight: a reader compares them without moving along the bars. */
function MeanTooltip({
  active,
  payload,
  figure,
  title,
  aggregates,
  slot,
  simulated,
}: {
  slot: (a: ModeAggregate) => ColumnSlot;
  active?: boolean;
  payload?: readonly { payload?: { mode?: string } }[];
  figure: FigureKey;
  title: string;
  aggregates: readonly ModeAggregate[];
  simulated: boolean;
}) {
  if (!active || !payload?.length) return null;
  const mode = payload[0]?.payload?.mode;
  return (
    <div className="chart-tooltip">
      <div className="chart-tooltip-title">
        {title}
        {simulated ? ' · simulated' : ''}
      </div>
      {aggregates.map((a) => {
        const s = a[figure];
        if (!s) return null;
        return (
          <div key={a.column.key} className={`chart-tooltip-row${a.column.key === mode ? ' is-current' : ''}`}>
            <span className="legend-swatch" style={{ background: modeColor(slot(a), 'prompt') }} /> {a.column.label}:{' '}
            {fmtMean(s.mean)}{' '}
            {s.ci95
              ? `(95 % CI ${fmtMean(Math.max(0, s.ci95[0]))}–${fmtMean(s.ci95[1])}, ${s.n} runs)`
              : `(${ONE_TRIAL_NOTE})`}
          </div>
        );
      })}
    </div>
  );
}

export function ModeMeansChart({
  aggregates,
  simulated,
}: {
  aggregates: readonly ModeAggregate[];
  simulated: boolean;
}) {
  const slot = useSlotOf();
  const modes = aggregates.filter((a) => a.total);
  const slotOfKey = (key: string) => slot(aggregates.find((a) => a.column.key === key)!);
  const legend = modes.map((a) => (
    <LegendItem key={a.column.key} color={modeColor(slot(a), 'prompt')} label={a.column.label} />
  ));
  return (
    <ChartFrame
      title="Mean tokens per mode"
      subtitle="Bars: the mean over each mode's finished runs; error bars: the 95 % interval of that mean (Student's t), cut at 0. Whether two modes differ is the test in the sentences above, not whether bars overlap."
      simulated={simulated}
      legend={legend}
      testId="mode-means-chart"
      table={modeMeansTable(aggregates, simulated)}
    >
      {modes.length === 0 ? (
        <div className="chart-empty">No run has finished yet.</div>
      ) : (
        <div className="means-grid">
          {FIGURES.map(([key, title]) => (
            <div key={key} className="means-cell" data-testid={`means-${key}`}>
              <div className="means-title">{title}</div>
              <div className="chart-box" style={{ height: 200 }}>
                <ResponsiveContainer width="100%" height="100%">
                  <BarChart
                    accessibilityLayer={false}
                    data={meanRows(aggregates, key)}
                    margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
                    barCategoryGap="30%"
                    maxBarSize={56}
                  >
                    <CartesianGrid vertical={false} stroke="var(--chart-grid)" />
                    <XAxis
                      dataKey="label"
                      tick={axisTick}
                      tickLine={false}
                      axisLine={{ stroke: 'var(--chart-grid)' }}
                      interval={0}
                    />
                    <YAxis tick={axisTick} tickLine={false} axisLine={false} tickFormatter={fmtAxis} width={44} />
                    <Tooltip
                      cursor={{ fill: 'var(--bg-hover)' }}
                      content={(p) => (
                        <MeanTooltip
                          {...(p as object)}
                          simulated={simulated}
                          slot={slot}
                          figure={key}
                          title={title}
                          aggregates={aggregates}
                        />
                      )}
                      isAnimationActive={false}
                    />
                    <Bar dataKey="mean" isAnimationActive={false}>
                      {meanRows(aggregates, key).map((r) => (
                        <Cell
                          key={r.mode}
                          fill={modeColor(slotOfKey(r.mode), 'prompt')}
                          data-testid="mean-bar"
                          data-mode={r.mode}
                          data-figure={key}
                          data-mean={r.mean}
                        />
                      ))}
                      <ErrorBar dataKey="err" width={8} stroke="var(--text)" strokeWidth={1.5} direction="y" />
                    </Bar>
                  </BarChart>
                </ResponsiveContainer>
              </div>
            </div>
          ))}
        </div>
      )}
    </ChartFrame>
  );
}
