/**
 * Prompt vs completion tokens per step, every mode side by side: one bar pair (prompt, completion) per step per
 * mode. Each bar carries data-step / data-mode / data-kind / data-value so a test reads the exact figures; a
 * screen reader reads them from the chart's table.
 */
import { useState } from 'react';
import { Bar, BarChart, Brush, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { barShape } from './bar-shape.js';
import type { RunSummary } from '../../../shared/summary.js';
import { perStepTable } from './chart-tables.js';
import { estimatedKey, perStepRows, seriesKey, summaryNotes, type StepRow, type TokenKind } from './chart-data.js';
import { fmtInt } from '../../lib/display-format.js';
import { useApp } from '../../store/app-store.js';
import {
  ChartFrame,
  PairLegend,
  axisTick,
  fmtAxis,
  logTicks,
  modeColor,
  outline,
  roundTicks,
  useChartColumns,
  type ChartColumn,
  TITLE_ROOM,
  yAxisTitle,
} from './chart-parts.js';

function tokenBar(col: ChartColumn, kind: TokenKind) {
  const key = seriesKey(col.key, kind);
  return barShape<Record<string, number | undefined>>(
    (row) => row[key],
    (row, value, width) => ({
      style: { fill: modeColor(col.slot, kind), ...outline(col.slot, kind, width) },
      data: {
        'data-testid': 'token-bar',
        'data-step': row.step,
        'data-mode': col.key,
        'data-kind': kind,
        'data-value': value,
      },
    }),
  );
}

/**
 * The hovered step's prompt and completion of every column, whichever panel is hovered: each panel draws
 * one kind, but a reader compares both at once.
 */
function StepTooltip({
  active,
  payload,
  modes,
  simulated,
}: {
  active?: boolean;
  payload?: readonly { payload?: StepRow }[];
  modes: readonly ChartColumn[];
  simulated: boolean;
}) {
  const row = payload?.[0]?.payload;
  if (!active || !row) return null;
  const est = (key: string) => row[estimatedKey(key)] === 1;
  const cell = (key: string) => (row[key] === undefined ? '—' : `${est(key) ? '≈ ' : ''}${fmtInt(row[key]!)}`);
  const shown = modes.filter(
    (m) => row[seriesKey(m.key, 'prompt')] !== undefined || row[seriesKey(m.key, 'completion')] !== undefined,
  );
  const anyEst = shown.some((m) => est(seriesKey(m.key, 'prompt')) || est(seriesKey(m.key, 'completion')));
  return (
    <div className="chart-tooltip step-tooltip" data-testid="step-tooltip">
      <div className="chart-tooltip-title">
        Step {row.step}
        {simulated ? ' · simulated' : ''}
      </div>
      <div className="chart-tooltip-row chart-tooltip-head">
        <span />
        <span />
        <span className="num">prompt</span>
        <span className="num">completion</span>
      </div>
      {shown.map((m) => (
        <div key={m.key} className="chart-tooltip-row" data-mode={m.key}>
          <span className="legend-swatch" style={{ background: modeColor(m.slot) }} />
          <span>{m.label}</span>
          <span className="num">{cell(seriesKey(m.key, 'prompt'))}</span>
          <span className="num">{cell(seriesKey(m.key, 'completion'))}</span>
        </div>
      ))}
      {anyEst ? (
        <div className="chart-tooltip-note">
          ≈ estimated: the provider sent no usage, so Parallax counted these tokens.
        </div>
      ) : null}
    </div>
  );
}

/** Beyond this many steps the bars would be thinner than a pixel: show a window and a brush to move it. */
const WINDOW = 60;

/** One panel of the chart: the bars of one kind (prompt or completion) for every column, on its own scale. */
function KindPanel({
  rows,
  modes,
  kind,
  log,
  height,
  brush,
  simulated,
}: {
  rows: StepRow[];
  modes: readonly ChartColumn[];
  kind: TokenKind;
  log: boolean;
  height: number;
  brush?: React.ReactNode;
  simulated: boolean;
}) {
  const max = Math.max(1, ...rows.flatMap((r) => modes.map((m) => r[seriesKey(m.key, kind)] ?? 0)));
  const ticks = log ? logTicks(max) : roundTicks(max);
  return (
    <div
      className="chart-box"
      style={{ height }}
      data-testid={`per-step-${kind}`}
      data-scale={log ? 'log' : 'linear'}
      data-ticks={ticks.join(' ')}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart
          accessibilityLayer={false}
          data={rows}
          margin={{ top: TITLE_ROOM, right: 12, bottom: 12, left: 6 }}
          barGap={1}
          barCategoryGap="18%"
          maxBarSize={28}
        >
          <CartesianGrid vertical={false} stroke="var(--chart-grid)" />
          <XAxis
            dataKey="step"
            interval={Math.max(0, Math.ceil(rows.length / 24) - 1)}
            tick={axisTick}
            tickLine={false}
            axisLine={{ stroke: 'var(--chart-grid)' }}
            label={{ value: 'step', position: 'insideBottom', offset: -8, fill: 'var(--chart-axis)', fontSize: 11 }}
          />
          <YAxis
            scale={log ? 'log' : 'linear'}
            domain={[log ? 1 : 0, ticks[ticks.length - 1]!]}
            ticks={ticks}
            allowDataOverflow={log}
            tick={axisTick}
            tickLine={false}
            axisLine={false}
            tickFormatter={fmtAxis}
            width={56}
            label={yAxisTitle(`${kind} tokens`)}
          />
          <Tooltip
            cursor={{ fill: 'var(--bg-hover)' }}
            content={(p) => <StepTooltip {...(p as object)} modes={modes} simulated={simulated} />}
            isAnimationActive={false}
          />
          {modes.map((m) => (
            <Bar
              key={seriesKey(m.key, kind)}
              dataKey={seriesKey(m.key, kind)}
              name={seriesKey(m.key, kind)}
              fill={modeColor(m.slot, kind)}
              shape={tokenBar(m, kind)}
              isAnimationActive={false}
            />
          ))}
          {brush}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

/** `scope` names the trial shown ("Trial 2") when the comparison has several. */
export function PerStepChart({
  runs,
  simulated,
  scope,
}: {
  runs: readonly RunSummary[];
  simulated: boolean;
  scope?: string;
}) {
  const rows = perStepRows(runs);
  const summaries = summaryNotes(runs, simulated);
  // null: follow the newest steps (live runs grow to the right); a range once the user moved the brush.
  const [range, setRange] = useState<{ startIndex: number; endIndex: number } | null>(null);
  const log = useApp((s) => s.chartLogScale);
  const setLog = useApp((s) => s.setChartLogScale);
  const windowed = rows.length > WINDOW;
  const start = range ? Math.min(range.startIndex, rows.length - 1) : Math.max(0, rows.length - WINDOW);
  const end = range ? Math.min(range.endIndex, rows.length - 1) : rows.length - 1;
  const modes = useChartColumns(runs);
  const legend = (
    <>
      <PairLegend columns={modes} note="prompt shade above, completion shade below" />
      <label className="chart-toggle" data-testid="log-scale-toggle">
        <input type="checkbox" checked={log} onChange={(e) => setLog(e.target.checked)} /> Log scale
      </label>
    </>
  );
  const brush = windowed ? (
    <Brush
      dataKey="step"
      height={18}
      stroke="var(--border-strong)"
      fill="var(--bg-subtle)"
      travellerWidth={8}
      startIndex={start}
      endIndex={end}
      onChange={(r) => {
        if (typeof r.startIndex === 'number' && typeof r.endIndex === 'number')
          setRange(r.endIndex >= rows.length - 1 ? null : { startIndex: r.startIndex, endIndex: r.endIndex });
      }}
    />
  ) : undefined;
  return (
    <ChartFrame
      title={scope ? `Tokens per step · ${scope}` : 'Tokens per step'}
      subtitle="Prompt (input) tokens of every model request above, completion (output) tokens below, each on its own scale, as the provider reported them."
      simulated={simulated}
      legend={legend}
      testId="per-step-chart"
      table={perStepTable(
        rows.slice(start, end + 1),
        modes,
        `Tokens per step${scope ? `, ${scope}` : ''}${windowed ? `, steps ${rows[start]?.step} to ${rows[end]?.step} of ${rows.length}` : ''}`,
        simulated,
        summaries,
      )}
    >
      {windowed ? (
        <p className="chart-note">
          Showing steps {rows[start]?.step}–{rows[end]?.step} of {rows.length}; drag the handles below the chart to move
          the window.
        </p>
      ) : null}
      {rows.length === 0 ? (
        <div className="chart-empty">
          {runs.some((r) => r.status === 'running')
            ? 'No model replies yet.'
            : 'No model replied in this comparison: see the timeline for why.'}
        </div>
      ) : (
        <>
          <KindPanel
            rows={rows}
            modes={modes}
            kind="prompt"
            log={log}
            height={250}
            brush={brush}
            simulated={simulated}
          />
          <KindPanel
            rows={rows.slice(start, end + 1)}
            modes={modes}
            kind="completion"
            log={log}
            height={150}
            simulated={simulated}
          />
          {summaries.map((n) => (
            <p
              key={n.key}
              className="chart-note"
              data-testid="summary-note"
              data-mode={n.key}
              data-prompt={n.prompt}
              data-completion={n.completion}
            >
              {n.text}
            </p>
          ))}
        </>
      )}
    </ChartFrame>
  );
}
