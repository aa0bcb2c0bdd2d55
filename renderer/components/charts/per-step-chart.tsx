/**
 * Prompt vs completion tokens per step, every mode side by side: one bar pair (prompt, completion) per step per
 * mode. Each bar carries data-step / data-mode / data-kind / data-value so a test (or a screen reader, via the
 * hidden table) reads the exact figures.
 */
import { Bar, BarChart, Brush, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { BarShapeProps } from 'recharts';
import { MODE_LABELS, type ModeId } from '../../../shared/run-spec.js';
import type { RunSummary } from '../../../shared/summary.js';
import { fmtInt } from '../../lib/format.js';
import { perStepRows, seriesKey, type TokenKind } from './chart-data.js';
import { ChartFrame, LegendItem, TokenTooltip, axisTick, fmtAxis, modeColor, modeKindLabel } from './chart-parts.js';

function barShape(mode: ModeId, kind: TokenKind) {
  const key = seriesKey(mode, kind);
  return (props: BarShapeProps) => {
    const payload = props.payload as Record<string, number | undefined> | undefined;
    const value = payload?.[key];
    if (value === undefined) return <g />;
    const { x = 0, y = 0, width = 0, height = 0 } = props;
    return (
      <rect
        x={x}
        y={y}
        width={Math.max(0, width)}
        height={Math.max(0, height)}
        rx={Math.min(2, width / 4)}
        style={{ fill: modeColor(mode, kind) }}
        data-testid="token-bar"
        data-step={payload?.step}
        data-mode={mode}
        data-kind={kind}
        data-value={value}
        aria-label={`Step ${payload?.step}, ${MODE_LABELS[mode]}, ${kind}: ${fmtInt(value)} tokens`}
      />
    );
  };
}

export function PerStepChart({ runs, simulated }: { runs: readonly RunSummary[]; simulated: boolean }) {
  const rows = perStepRows(runs);
  const modes = runs.map((r) => r.mode);
  const legend = modes.flatMap((m) => [
    <LegendItem key={`${m}p`} color={modeColor(m, 'prompt')} label={`${MODE_LABELS[m]} prompt`} />,
    <LegendItem key={`${m}c`} color={modeColor(m, 'completion')} label={`${MODE_LABELS[m]} completion`} />,
  ]);
  return (
    <ChartFrame
      title="Tokens per step"
      subtitle="Prompt (input) and completion (output) tokens of every model request, as the provider reported them."
      simulated={simulated}
      legend={legend}
      testId="per-step-chart"
    >
      {rows.length === 0 ? (
        <div className="chart-empty">No model replies yet.</div>
      ) : (
        <div className="chart-box" style={{ height: 260 }}>
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={rows} margin={{ top: 8, right: 12, bottom: 0, left: 0 }} barGap={1} barCategoryGap="18%">
              <CartesianGrid vertical={false} stroke="var(--chart-grid)" />
              <XAxis dataKey="step" tick={axisTick} tickLine={false} axisLine={{ stroke: 'var(--chart-grid)' }} />
              <YAxis tick={axisTick} tickLine={false} axisLine={false} tickFormatter={fmtAxis} width={48} />
              <Tooltip cursor={{ fill: 'var(--bg-hover)' }} content={(p) => <TokenTooltip {...(p as object)} labelOf={modeKindLabel} />} isAnimationActive={false} />
              {modes.flatMap((m) =>
                (['prompt', 'completion'] as const).map((k) => (
                  <Bar key={seriesKey(m, k)} dataKey={seriesKey(m, k)} name={seriesKey(m, k)} fill={modeColor(m, k)} shape={barShape(m, k)} isAnimationActive={false} />
                )),
              )}
              {rows.length > 40 ? <Brush dataKey="step" height={18} stroke="var(--border-strong)" fill="var(--bg-subtle)" travellerWidth={8} /> : null}
            </BarChart>
          </ResponsiveContainer>
        </div>
      )}
      <table className="visually-hidden" data-testid="per-step-table">
        <caption>Tokens per step{simulated ? ' (simulated)' : ''}</caption>
        <thead>
          <tr>
            <th>Step</th>
            {modes.flatMap((m) => [<th key={`${m}p`}>{MODE_LABELS[m]} prompt</th>, <th key={`${m}c`}>{MODE_LABELS[m]} completion</th>])}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.step}>
              <td>{r.step}</td>
              {modes.flatMap((m) => (['prompt', 'completion'] as const).map((k) => <td key={seriesKey(m, k)}>{r[seriesKey(m, k)] ?? ''}</td>))}
            </tr>
          ))}
        </tbody>
      </table>
    </ChartFrame>
  );
}
