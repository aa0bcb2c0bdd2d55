/** Pieces shared by the charts: mode colours, legend, tooltip, the chart frame with its simulated caption. */
import type { ReactNode } from 'react';
import { MODE_LABELS, type ModeId } from '../../../shared/run-spec.js';
import { fmtInt } from '../../lib/format.js';
import { SimBadge } from '../common/badges.js';
import type { TokenKind } from './chart-data.js';

export const modeColor = (mode: ModeId, kind: TokenKind = 'prompt') => `var(--mode-${mode}${kind === 'completion' ? '-2' : ''})`;

export function ChartFrame({ title, subtitle, simulated, legend, children, testId }: { title: string; subtitle: string; simulated: boolean; legend?: ReactNode; children: ReactNode; testId: string }) {
  return (
    <figure className="chart-frame" data-testid={testId}>
      <figcaption className="chart-caption">
        <div className="chart-title-row">
          <h3 className="chart-title">{title}</h3>
          {simulated ? <SimBadge /> : null}
          <div className="chart-legend">{legend}</div>
        </div>
        <p className="chart-subtitle">
          {subtitle}
          {simulated ? ' Simulated model: scripted replies, tokens counted with a real tokenizer.' : ''}
        </p>
      </figcaption>
      {children}
    </figure>
  );
}

export function LegendItem({ color, label }: { color: string; label: string }) {
  return (
    <span className="legend-item">
      <span className="legend-swatch" style={{ background: color }} />
      {label}
    </span>
  );
}

interface TooltipEntry {
  readonly dataKey?: unknown;
  readonly value?: unknown;
  readonly color?: string;
  readonly name?: unknown;
}

export function TokenTooltip({ active, payload, label, labelOf, title }: { active?: boolean; payload?: readonly TooltipEntry[]; label?: unknown; labelOf: (key: string) => string; title?: string }) {
  if (!active || !payload || payload.length === 0) return null;
  return (
    <div className="chart-tooltip">
      <div className="chart-tooltip-title">{title ?? `Step ${String(label)}`}</div>
      {payload
        .filter((p) => typeof p.value === 'number')
        .map((p) => (
          <div key={String(p.dataKey)} className="chart-tooltip-row">
            <span className="legend-swatch" style={{ background: p.color }} />
            <span>{labelOf(String(p.dataKey))}</span>
            <span className="num">{fmtInt(p.value as number)}</span>
          </div>
        ))}
    </div>
  );
}

export function modeKindLabel(key: string): string {
  const [mode, kind] = key.split('_') as [ModeId, TokenKind | undefined];
  return kind ? `${MODE_LABELS[mode] ?? mode} ${kind}` : (MODE_LABELS[mode] ?? mode);
}

export const axisTick = { fill: 'var(--chart-axis)', fontSize: 11 };
/** 22500 → 22.5k, 30000 → 30k, 1200000 → 1.2M: short, and exact enough for tick labels. */
export const fmtAxis = (v: number) => {
  const a = Math.abs(v);
  if (a >= 1_000_000) return `${+(v / 1_000_000).toFixed(1)}M`;
  if (a >= 1000) return `${+(v / 1000).toFixed(1)}k`;
  return String(v);
};
