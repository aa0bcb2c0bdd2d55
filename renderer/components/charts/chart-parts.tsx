/** Pieces shared by the charts: mode colours, legend, tooltip, the chart frame with its simulated caption. */
import type { ColumnSlot } from '../../../shared/column-shades.js';
import { useId, useState, type ReactNode } from 'react';
import type { ModeId } from '../../../shared/run-spec.js';
import type { ColumnRef } from '../../../shared/variants.js';
import { useSlotOf } from '../common/column-swatch.js';
import { fmtInt } from '../../lib/display-format.js';
import { modeColor } from '../../lib/mode-palette.js';
import { SimBadge } from '../common/badges.js';
import { estimatedKey, type TokenKind } from './chart-data.js';
import { cellText, type ChartTableData } from './chart-tables.js';

export { modeColor, modeDash } from '../../lib/mode-palette.js';

/**
 * A chart with its text alternative: the drawing is one image named by the chart's title (its bars carry no
 * labels of their own), and `table` holds every figure it shows — read by screen readers, and shown in the
 * drawing's place by the "Show as table" switch.
 */
export function ChartFrame({
  title,
  subtitle,
  simulated,
  legend,
  children,
  testId,
  table,
}: {
  title: string;
  subtitle: string;
  simulated: boolean;
  legend?: ReactNode;
  children: ReactNode;
  testId: string;
  table?: ChartTableData;
}) {
  const [asTable, setAsTable] = useState(false);
  const id = useId();
  const name = `${title}${simulated ? ' (simulated)' : ''}`;
  return (
    <figure
      className="chart-frame"
      data-testid={testId}
      data-view={asTable ? 'table' : 'chart'}
      aria-labelledby={`${id}-title`}
    >
      <figcaption className="chart-caption">
        <div className="chart-title-row">
          <h3 className="chart-title" id={`${id}-title`}>
            {title}
          </h3>
          {simulated ? <SimBadge /> : null}
          <div className="chart-legend">
            {asTable ? null : legend}
            {table ? (
              <label className="chart-toggle" data-testid="show-as-table">
                <input type="checkbox" role="switch" checked={asTable} onChange={(e) => setAsTable(e.target.checked)} />{' '}
                Show as table
              </label>
            ) : null}
          </div>
        </div>
        <p className="chart-subtitle">
          {subtitle}
          {simulated ? ' Simulated model: scripted replies, tokens counted with a real tokenizer.' : ''}
        </p>
      </figcaption>
      {asTable ? null : (
        <div
          className="chart-graphic"
          role="img"
          aria-label={table ? `${name}. Its figures are in the table that follows.` : name}
        >
          {children}
        </div>
      )}
      {table ? <ChartTable data={table} shown={asTable} /> : null}
    </figure>
  );
}

/** The chart's figures; out of sight (still read aloud) until the chart's switch shows it. */
export function ChartTable({ data, shown }: { data: ChartTableData; shown: boolean }) {
  return (
    <div className={shown ? 'chart-table-wrap' : 'visually-hidden'} data-testid="chart-table-wrap">
      <table className="chart-table" data-testid="chart-table">
        <caption>{data.rows.length === 0 ? `${data.caption}: no figures yet` : data.caption}</caption>
        <thead>
          <tr>
            {data.columns.map((c, i) => (
              <th key={i} scope="col" className={i === 0 ? undefined : 'num'}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.rows.map((r, i) => (
            <tr key={i}>
              <th scope="row">{cellText(r[0])}</th>
              {r.slice(1).map((v, j) => (
                <td key={j} className="num">
                  {cellText(v)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function LegendItem({ color, label, dash }: { color: string; label: string; dash?: string }) {
  return (
    <span className="legend-item">
      {dash === undefined ? (
        <span className="legend-swatch" style={{ background: color }} />
      ) : (
        <svg className="legend-line" width="18" height="10" aria-hidden="true">
          <line x1="1" x2="17" y1="5" y2="5" stroke={color} strokeWidth="2" strokeDasharray={dash || undefined} />
        </svg>
      )}
      {label}
    </span>
  );
}

/** A chart's series: one per column (key, label) drawn in its column's palette slot. */
export interface ChartColumn {
  readonly key: string;
  readonly label: string;
  readonly slot: ColumnSlot;
}

/** The distinct columns of some runs, in order, with their slots in the active comparison. */
export function useChartColumns(runs: readonly { readonly mode: ModeId; readonly column: ColumnRef }[]): ChartColumn[] {
  const slot = useSlotOf();
  const seen = new Map<string, ChartColumn>();
  for (const r of runs)
    if (!seen.has(r.column.key)) seen.set(r.column.key, { key: r.column.key, label: r.column.label, slot: slot(r) });
  return [...seen.values()];
}

/** A series key (`<column>_<kind>`) in words: "Code Mode · no return types prompt". */
export const seriesLabel =
  (columns: readonly ChartColumn[]) =>
  (key: string): string => {
    const i = key.lastIndexOf('_');
    const [col, kind] = i < 0 ? [key, ''] : [key.slice(0, i), key.slice(i + 1)];
    const label = columns.find((c) => c.key === col)?.label ?? col;
    return kind ? `${label} ${kind}` : label;
  };

/**
 * One entry per column with its prompt and completion shades side by side, then a key saying which is which:
 * with four columns, eight "Mode kind" entries would crowd the title row.
 */
export function PairLegend({
  columns,
  note = 'each pair: prompt, then completion',
}: {
  columns: readonly ChartColumn[];
  note?: string;
}) {
  return (
    <>
      {columns.map((c) => (
        <span className="legend-item" key={c.key} data-testid="legend-mode" data-mode={c.key}>
          <span className="legend-pair" aria-hidden="true">
            <span className="legend-swatch" style={{ background: modeColor(c.slot, 'prompt') }} />
            <span
              className="legend-swatch is-completion"
              style={{ background: modeColor(c.slot, 'completion'), borderColor: modeColor(c.slot, 'prompt') }}
            />
          </span>
          {c.label}
        </span>
      ))}
      <span className="legend-item legend-key">{note}</span>
    </>
  );
}

interface TooltipEntry {
  readonly dataKey?: unknown;
  readonly value?: unknown;
  readonly color?: string;
  readonly name?: unknown;
  /** The chart row the value comes from: it flags estimated values (estimatedKey). */
  readonly payload?: Readonly<Record<string, unknown>>;
}

/** Lists every series at the hovered point; `simulated` marks the figures as the simulated model's. */
export function TokenTooltip({
  active,
  payload,
  label,
  labelOf,
  title,
  simulated,
}: {
  active?: boolean;
  payload?: readonly TooltipEntry[];
  label?: unknown;
  labelOf: (key: string) => string;
  title?: string;
  simulated?: boolean;
}) {
  if (!active || !payload || payload.length === 0) return null;
  const shown = payload.filter((p) => typeof p.value === 'number');
  const est = (p: TooltipEntry) => p.payload?.[estimatedKey(String(p.dataKey))] === 1;
  return (
    <div className="chart-tooltip">
      <div className="chart-tooltip-title">
        {title ?? `Step ${String(label)}`}
        {simulated ? ' · simulated' : ''}
      </div>
      {shown.map((p) => (
        <div key={String(p.dataKey)} className="chart-tooltip-row" data-estimated={est(p) || undefined}>
          <span className="legend-swatch" style={{ background: p.color }} />
          <span>{labelOf(String(p.dataKey))}</span>
          <span className="num">
            {est(p) ? '≈ ' : ''}
            {fmtInt(p.value as number)}
          </span>
        </div>
      ))}
      {shown.some(est) ? (
        <div className="chart-tooltip-note">
          ≈ estimated: the provider sent no usage, so Parallax counted these tokens.
        </div>
      ) : null}
    </div>
  );
}

/** A completion bar's hairline in its mode's prompt shade: pale shades of different modes look alike. */
export function outline(mode: ColumnSlot, kind: TokenKind, width: number): { stroke?: string; strokeWidth?: number } {
  return kind === 'completion' && width >= 4 ? { stroke: modeColor(mode, 'prompt'), strokeWidth: 1 } : {};
}

export const axisTick = { fill: 'var(--chart-axis)', fontSize: 11 };

/** Room above the plot for a y-axis title (yAxisTitle). */
export const TITLE_ROOM = 22;

/**
 * A y-axis title written across, above the axis's top tick: it never meets a tick label however wide ("600 ms")
 * and is never cut by a short panel, as a title turned along the axis was ("completion toker"). Needs the
 * chart's top margin at TITLE_ROOM.
 */
export function yAxisTitle(text: string) {
  return {
    value: text,
    content: (props: { viewBox?: unknown }) => {
      const box = (props.viewBox ?? {}) as { x?: number; y?: number };
      return (
        <text
          className="recharts-label axis-title"
          x={(box.x ?? 0) + 4}
          y={(box.y ?? 0) - 11}
          fill="var(--chart-axis)"
          fontSize={11}
          textAnchor="start"
        >
          {text}
        </text>
      );
    },
  };
}
/** 22500 → 22.5k, 30000 → 30k, 1200000 → 1.2M: short, and exact enough for tick labels. */
export const fmtAxis = (v: number) => {
  const a = Math.abs(v);
  if (a >= 1_000_000) return `${+(v / 1_000_000).toFixed(1)}M`;
  if (a >= 1000) return `${+(v / 1000).toFixed(1)}k`;
  return String(v);
};

/** 0 and round steps (1, 2, 2.5 or 5 × 10^k) up to at least `max`, about `count` of them: ticks a reader can add up. */
export function roundTicks(max: number, count = 4): number[] {
  const raw = Math.max(1, max) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
  const n = Math.ceil(Math.max(1, max) / step);
  return Array.from({ length: n + 1 }, (_, i) => i * step);
}

/** Powers of ten from 1 up to at least `max`, for a log scale. */
export function logTicks(max: number): number[] {
  const top = Math.max(1, Math.ceil(Math.log10(Math.max(1, max))));
  return Array.from({ length: top + 1 }, (_, i) => 10 ** i);
}
