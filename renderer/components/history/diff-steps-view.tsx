/**
 * A baseline diff's steps, one column at a time: the tokens of each step then and now as bars side by side
 * (recharts, as the app's other charts, with the figures as a table for screen readers), and the steps of both
 * comparisons side by side in a table. Figures are means over the runs that reached the step
 * (shared/diff-steps.ts); the simulated model's are labelled so.
 */
import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ComparisonDiff } from '../../../shared/comparison-diff.js';
import { directionOf, type DiffStep, type DiffStepSide } from '../../../shared/diff-steps.js';
import { fmtDateTime, fmtInt, fmtMean, fmtMs } from '../../lib/display-format.js';
import {
  ChartFrame,
  LegendItem,
  TITLE_ROOM,
  axisTick,
  fmtAxis,
  roundTicks,
  yAxisTitle,
} from '../charts/chart-parts.js';
import type { ChartTableData } from '../charts/chart-tables.js';
import { barShape } from '../charts/bar-shape.js';

type Side = 'baseline' | 'comparison';
/** Baseline muted, now in the accent: neither is a verdict, so neither is red or green. */
const SIDE_COLOUR: Record<Side, string> = { baseline: 'var(--diff-baseline)', comparison: 'var(--accent)' };
const num = (v: number) => (Number.isInteger(v) ? fmtInt(v) : fmtMean(v));

function bar(side: Side) {
  return barShape<{ step: number; baseline?: number; comparison?: number }>(
    (row) => row[side],
    (row, value) => ({
      style: { fill: SIDE_COLOUR[side] },
      data: { 'data-testid': 'diff-step-bar', 'data-step': row.step, 'data-side': side, 'data-value': value },
    }),
  );
}

function StepChart({ steps, simulated, label }: { steps: readonly DiffStep[]; simulated: boolean; label: string }) {
  const rows = steps.map((s) => ({ step: s.step, baseline: s.baseline?.total, comparison: s.comparison?.total }));
  const max = Math.max(1, ...rows.flatMap((r) => [r.baseline ?? 0, r.comparison ?? 0]));
  const ticks = roundTicks(max);
  const sim = simulated ? ' (simulated)' : '';
  const table: ChartTableData = {
    caption: `${label}: tokens per step, baseline and now${sim}`,
    columns: ['Step', `Baseline tokens${sim}`, `Now tokens${sim}`],
    rows: rows.map((r) => [
      `Step ${r.step}`,
      r.baseline === undefined ? null : num(r.baseline),
      r.comparison === undefined ? null : num(r.comparison),
    ]),
  };
  return (
    <ChartFrame
      title={`${label}: tokens per step`}
      subtitle="Prompt + completion tokens of each step, baseline beside now (the mean over the runs that reached the step)."
      simulated={simulated}
      testId="diff-step-chart"
      table={table}
      legend={
        <>
          <LegendItem color={SIDE_COLOUR.baseline} label="Baseline" />
          <LegendItem color={SIDE_COLOUR.comparison} label="Now" />
        </>
      }
    >
      <ResponsiveContainer width="100%" height={220}>
        <BarChart data={rows} margin={{ top: TITLE_ROOM, right: 8, bottom: 4, left: 4 }} barGap={2}>
          <CartesianGrid stroke="var(--chart-grid)" vertical={false} />
          <XAxis dataKey="step" tick={axisTick} tickLine={false} label={undefined} />
          <YAxis
            tick={axisTick}
            tickLine={false}
            axisLine={false}
            ticks={ticks}
            domain={[0, ticks[ticks.length - 1]!]}
            tickFormatter={fmtAxis}
            width={44}
            label={yAxisTitle(`tokens${sim}`)}
          />
          <Tooltip
            cursor={{ fill: 'var(--bg-hover)' }}
            formatter={(v, name) => [`${num(Number(v))}${sim}`, name === 'baseline' ? 'Baseline' : 'Now']}
            labelFormatter={(s) => `Step ${String(s)}`}
            contentStyle={{ background: 'var(--bg-raised)', border: '1px solid var(--border)', fontSize: 12 }}
            labelStyle={{ color: 'var(--text)' }}
            itemStyle={{ color: 'var(--text)' }}
          />
          <Bar dataKey="baseline" name="baseline" shape={bar('baseline')} isAnimationActive={false} />
          <Bar dataKey="comparison" name="comparison" shape={bar('comparison')} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}

function sideCells(s: DiffStepSide | null) {
  if (!s)
    return (
      <td colSpan={3} className="muted diff-no-step">
        no such step
      </td>
    );
  return (
    <>
      <td className="num">{num(s.total)}</td>
      <td className="num">{num(s.toolCalls)}</td>
      <td className="num">{fmtMs(s.latencyMs)}</td>
    </>
  );
}

function StepTable({ steps, simulated, trials }: { steps: readonly DiffStep[]; simulated: boolean; trials: boolean }) {
  const sim = simulated ? ' (simulated)' : '';
  return (
    <div className="diff-steps-scroll">
      <table className="data-table diff-steps-table" data-testid="diff-step-table">
        <caption className="small muted">
          The steps of both comparisons side by side
          {trials ? ': means over the runs that reached each step' : ''}.
        </caption>
        <thead>
          <tr>
            <th scope="col" rowSpan={2}>
              Step
            </th>
            <th scope="colgroup" colSpan={3} className="diff-side-head">
              Baseline
            </th>
            <th scope="colgroup" colSpan={3} className="diff-side-head">
              Now
            </th>
            <th scope="col" rowSpan={2}>
              Tokens, change{sim}
            </th>
          </tr>
          <tr>
            {['baseline', 'now'].map((k) => (
              <SideHeads key={k} sim={sim} />
            ))}
          </tr>
        </thead>
        <tbody>
          {steps.map((s) => {
            const d = s.baseline && s.comparison ? s.comparison.total - s.baseline.total : null;
            const way = directionOf('total', d);
            return (
              <tr key={s.step} data-testid="diff-step-row" data-step={s.step} data-direction={way ?? 'none'}>
                <th scope="row">{s.step}</th>
                {sideCells(s.baseline)}
                {sideCells(s.comparison)}
                <td className={`diff-change tone-${way === 'worse' ? 'warn' : 'neutral'}`}>
                  {d === null
                    ? s.baseline
                      ? 'only in the baseline'
                      : 'only now'
                    : way === 'same'
                      ? '= same'
                      : `${d > 0 ? '▲ +' : '▼ −'}${num(Math.abs(d))} ${way}`}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function SideHeads({ sim }: { sim: string }) {
  return (
    <>
      <th scope="col" className="num">
        Tokens{sim}
      </th>
      <th scope="col" className="num">
        Tool calls
      </th>
      <th scope="col" className="num">
        Latency
      </th>
    </>
  );
}

export function DiffStepsView({ diff }: { diff: ComparisonDiff }) {
  const withSteps = diff.columns.filter((c) => c.steps.length > 0);
  const first = withSteps.find((c) => c.flag === 'regressed') ?? withSteps[0];
  const [key, setKey] = useState(first?.key ?? '');
  const column = withSteps.find((c) => c.key === key) ?? first;
  if (!column) return null;
  const trials = diff.baseline.trials > 1 || diff.comparison.trials > 1;
  return (
    <section className="diff-steps" aria-labelledby="diff-steps-title" data-testid="diff-steps">
      <div className="diff-steps-head">
        <h3 id="diff-steps-title">Step by step</h3>
        <label className="diff-steps-pick">
          <span>Column</span>
          <select
            className="input"
            value={column.key}
            onChange={(e) => setKey(e.target.value)}
            data-testid="diff-steps-column"
          >
            {withSteps.map((c) => (
              <option key={c.key} value={c.key}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <span className="small muted">
          Baseline {fmtDateTime(diff.baseline.createdAt)} · now {fmtDateTime(diff.comparison.createdAt)}
        </span>
      </div>
      <StepChart steps={column.steps} simulated={diff.simulated} label={column.label} />
      <StepTable steps={column.steps} simulated={diff.simulated} trials={trials} />
    </section>
  );
}
