/**
 * The models × modes matrix (shared/matrix.ts): one cell per row (a model, or a setting set) and mode, with its
 * runs' mean tokens, cost, pass rate and steps over every trial. The chosen metric shades the cells on one
 * sequential scale (better = more saturated, cellShade); the value is always written, so colour is only a hint. A cell
 * is a button: it opens its runs' columns in the timeline.
 */
import { ranOfAggregate } from '../../../shared/summary.js';
import { useState } from 'react';
import { formatUsd } from '../../../shared/cost.js';
import {
  MATRIX_METRIC_INFO,
  MATRIX_METRICS,
  cellFailing,
  cellShade,
  cellValue,
  type Matrix,
  type MatrixCell,
  type MatrixMetric,
} from '../../../shared/matrix.js';
import { MODE_LABELS } from '../../../shared/modes.js';
import { fmtMean } from '../../lib/display-format.js';
import { SimBadge } from '../common/badges.js';

/** A metric's figure as the rest of the app writes it; "—" where the cell has none (a cost without a price). */
export function matrixText(cell: MatrixCell | null, metric: MatrixMetric): string {
  const v = cellValue(cell, metric);
  if (v === null || !cell) return '—';
  if (metric === 'passRate')
    return `${Math.round(v * 100)} % (${cell.figures.passed} of ${ranOfAggregate(cell.figures)})`;
  if (metric === 'cost') return formatUsd(v);
  return fmtMean(v);
}

export function MatrixView({
  matrix,
  simulated,
  onOpen,
  scope = 'every run of that row and mode, over all trials',
  openHint = 'Click a cell to open its runs in the timeline.',
}: {
  matrix: Matrix;
  simulated: boolean;
  onOpen: (cell: MatrixCell) => void;
  scope?: string;
  openHint?: string;
}) {
  const [metric, setMetric] = useState<MatrixMetric>('total');
  const info = MATRIX_METRIC_INFO[metric];
  const sim = simulated && metric !== 'passRate' ? ' (simulated)' : '';
  return (
    <figure className="summary matrix" data-testid="matrix-view" data-metric={metric}>
      <figcaption className="chart-caption">
        <div className="chart-title-row">
          <h3 className="chart-title">Matrix · {info.label}</h3>
          {simulated ? <SimBadge /> : null}
          <span className="segmented matrix-metrics" role="group" aria-label="Figure shown in the cells">
            {MATRIX_METRICS.map((m) => (
              <button
                key={m}
                type="button"
                className={`segment ${m === metric ? 'is-active' : ''}`}
                aria-pressed={m === metric}
                onClick={() => setMetric(m)}
                data-testid={`matrix-metric-${m}`}
              >
                {MATRIX_METRIC_INFO[m].label}
              </button>
            ))}
          </span>
        </div>
        <p className="chart-subtitle">
          Each cell: {scope}. The stronger the blue, the better ({info.better} is better); the figure is in every cell.{' '}
          {openHint}
          {simulated
            ? ' Simulated model: scripted replies, tokens counted with a real tokenizer; not what a real provider would bill.'
            : ''}
        </p>
      </figcaption>
      <div className="table-wrap">
        <table className="data-table matrix-table">
          <thead>
            <tr>
              <th scope="col">Model / setting</th>
              {matrix.modes.map((m) => (
                <th scope="col" key={m} className="num">
                  <span className={`mode-swatch mode-${m}`} aria-hidden="true" /> {MODE_LABELS[m]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {matrix.rows.map((row, r) => (
              <tr key={row} data-row={row}>
                <th scope="row" className="mono">
                  {row}
                </th>
                {matrix.cells[r]!.map((cell, c) => {
                  const mode = matrix.modes[c]!;
                  if (!cell)
                    return (
                      <td
                        key={mode}
                        className="matrix-cell is-empty muted"
                        data-testid="matrix-cell"
                        data-mode={mode}
                        data-row={row}
                      >
                        not run
                      </td>
                    );
                  const shade = cellShade(matrix, cell, metric);
                  const text = matrixText(cell, metric);
                  const f = cell.figures;
                  return (
                    <td key={mode} className={`matrix-cell${cellFailing(cell) ? ' is-failing' : ''}`}>
                      <button
                        type="button"
                        className="matrix-btn"
                        style={shade === null ? undefined : { ['--shade' as string]: `${Math.round(shade * 100)}%` }}
                        onClick={() => onOpen(cell)}
                        data-testid="matrix-cell"
                        data-mode={mode}
                        data-row={row}
                        data-value={cellValue(cell, metric) ?? ''}
                        data-shade={shade ?? ''}
                        data-failing={cellFailing(cell) || undefined}
                      >
                        {/* The name is the text shown, with its row and column around it for a screen reader. */}
                        <span className="visually-hidden">{`${row}, ${MODE_LABELS[mode]}: ${info.label}`}</span>
                        <span className="matrix-value num">{text}</span>
                        {cellFailing(cell) ? (
                          <span className="matrix-fail" data-testid="matrix-fail">
                            none passed{metric === 'passRate' ? '' : ': not ranked'}
                          </span>
                        ) : null}
                        <span className="matrix-sub num">
                          {metric !== 'total' && f.total ? `${fmtMean(f.total.mean)} tok · ` : ''}
                          {metric !== 'steps' && f.steps ? `${fmtMean(f.steps.mean)} steps · ` : ''}
                          {metric !== 'passRate' && f.passRate ? `${f.passed}/${ranOfAggregate(f)} passed · ` : ''}
                          {cell.runIds.length} run{cell.runIds.length === 1 ? '' : 's'}
                        </span>
                        <span className="visually-hidden">{`${sim}. Open in the timeline.`}</span>
                      </button>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
