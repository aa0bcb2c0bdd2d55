/**
 * Why a mode's prompts are the size they are: each step's prompt tokens stacked by what the request carried
 * (shared/prompt-composition.ts), one panel per column on a shared scale. Every segment carries data-mode /
 * data-step / data-part / data-value, so a test reads the exact figures.
 */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { barShape } from './bar-shape.js';
import { PROMPT_PART_INFO, PROMPT_PARTS, type PromptPart } from '../../../shared/prompt-composition.js';
import type { ColumnRef } from '../../../shared/variants.js';
import { useSlotOf } from '../common/column-swatch.js';
import type { RunSummary } from '../../../shared/summary.js';
import { fmtInt } from '../../lib/display-format.js';
import { partColor } from '../../lib/mode-palette.js';
import { compositionTable } from './chart-tables.js';
import { compositionNotes } from './chart-data.js';
import {
  ChartFrame,
  LegendItem,
  axisTick,
  fmtAxis,
  modeColor,
  roundTicks,
  TITLE_ROOM,
  yAxisTitle,
} from './chart-parts.js';

type Row = { step: number; prompt: number } & Partial<Record<PromptPart, number>>;

function rowsOf(run: RunSummary): Row[] {
  return run.perStep.flatMap((s) =>
    s.promptComposition ? [{ step: s.step, prompt: s.prompt, ...s.promptComposition }] : [],
  );
}

function segment(column: ColumnRef, part: PromptPart) {
  return barShape<Row>(
    // A part the step's prompt did not have is no segment.
    (row) => row[part] || undefined,
    (row, value) => ({
      style: { fill: partColor(part) },
      data: {
        'data-testid': 'composition-bar',
        'data-mode': column.key,
        'data-step': row.step,
        'data-part': part,
        'data-value': value,
      },
    }),
    { rounded: false },
  );
}

function PartsTooltip({
  active,
  payload,
  simulated,
}: {
  active?: boolean;
  payload?: readonly { payload?: Row }[];
  simulated: boolean;
}) {
  const row = payload?.[0]?.payload;
  if (!active || !row) return null;
  return (
    <div className="chart-tooltip">
      <div className="chart-tooltip-title">
        Step {row.step}: {fmtInt(row.prompt)} prompt tokens{simulated ? ' (simulated)' : ''}
      </div>
      {[...PROMPT_PARTS].reverse().map((p) =>
        row[p] ? (
          <div key={p} className="chart-tooltip-row">
            <span className="legend-swatch" style={{ background: partColor(p) }} />
            <span>{PROMPT_PART_INFO[p].label}</span>
            <span className="num">
              {fmtInt(row[p]!)} · {Math.round((row[p]! / row.prompt) * 100)} %
            </span>
          </div>
        ) : null,
      )}
    </div>
  );
}

export function CompositionChart({
  runs,
  simulated,
  scope,
}: {
  runs: readonly RunSummary[];
  simulated: boolean;
  scope?: string;
}) {
  const panels = runs.map((run) => ({ run, rows: rowsOf(run) }));
  const slot = useSlotOf();
  if (!panels.some((p) => p.rows.length > 0)) return null;
  const ticks = roundTicks(Math.max(...panels.flatMap((p) => p.rows.map((r) => r.prompt))));
  const yMax = ticks[ticks.length - 1]!;
  const slots = Math.max(...panels.map((p) => p.rows.length));
  const legend = PROMPT_PARTS.map((p) => <LegendItem key={p} color={partColor(p)} label={PROMPT_PART_INFO[p].label} />);
  return (
    <ChartFrame
      title={scope ? `What each prompt carried · ${scope}` : 'What each prompt carried'}
      subtitle="Every request's prompt tokens split by part, counted with the tokenizer on the request as sent and fitted to the reported figure; Other is what no part explains (the provider's template)."
      simulated={simulated}
      legend={legend}
      testId="composition-chart"
      table={compositionTable(
        runs,
        scope ? `What each prompt carried, ${scope}` : 'What each prompt carried',
        simulated,
      )}
    >
      <div className="composition-grid">
        {panels.map(({ run, rows }) => (
          <div className="composition-panel" key={run.runId} data-testid="composition-panel" data-mode={run.column.key}>
            <div className="composition-title">
              <span className="legend-swatch" style={{ background: modeColor(slot(run)) }} />
              {run.column.label}
            </div>
            {compositionNotes(run, simulated).map((n) => (
              <p key={n} className="chart-note" data-testid="history-note">
                {n}
              </p>
            ))}
            {rows.length === 0 ? (
              <div className="chart-empty">No composition recorded for this run.</div>
            ) : (
              <div className="chart-box" style={{ height: 200 }}>
                <ResponsiveContainer width="100%" height="100%">
                  <BarChart
                    accessibilityLayer={false}
                    data={[...rows, ...Array.from({ length: slots - rows.length }, () => ({}))]}
                    margin={{ top: TITLE_ROOM, right: 8, bottom: 14, left: 6 }}
                    maxBarSize={36}
                  >
                    <CartesianGrid vertical={false} stroke="var(--chart-grid)" />
                    <XAxis
                      dataKey="step"
                      tick={axisTick}
                      tickLine={false}
                      axisLine={{ stroke: 'var(--chart-grid)' }}
                      label={{
                        value: 'step',
                        position: 'insideBottom',
                        offset: -8,
                        fill: 'var(--chart-axis)',
                        fontSize: 11,
                      }}
                    />
                    <YAxis
                      domain={[0, yMax]}
                      ticks={ticks}
                      tick={axisTick}
                      tickLine={false}
                      axisLine={false}
                      tickFormatter={fmtAxis}
                      width={44}
                      label={yAxisTitle('tokens')}
                    />
                    <Tooltip
                      cursor={{ fill: 'var(--bg-hover)' }}
                      content={(p) => <PartsTooltip {...(p as object)} simulated={simulated} />}
                      isAnimationActive={false}
                    />
                    {PROMPT_PARTS.map((p) => (
                      <Bar
                        key={p}
                        dataKey={p}
                        stackId="parts"
                        fill={partColor(p)}
                        shape={segment(run.column, p)}
                        isAnimationActive={false}
                      />
                    ))}
                  </BarChart>
                </ResponsiveContainer>
              </div>
            )}
          </div>
        ))}
      </div>
    </ChartFrame>
  );
}
