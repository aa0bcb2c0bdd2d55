/** A stored suite run, read-only: the overall ranking of the modes and one row per task and mode. */
import type { ColumnSlot } from '../../../shared/column-shades.js';
import { exportSuiteReport, openComparison } from '../../app/actions.js';
import type { MatrixCell } from '../../../shared/matrix.js';
import type { SuiteRecord } from '../../../shared/suite.js';
import { MatrixView } from '../summary/matrix-view.js';
import { isSuiteReportFormat, REPORT_FORMAT_INFO, REPORT_FORMATS } from '../../../shared/report-formats.js';
import { BOARD_NOTE, boardTables, type BoardTable } from '../../../shared/suite-leaderboard.js';
import { FIGURES_NOTE } from '../../../shared/summary.js';
import { columnSlots } from '../../../shared/variants.js';
import type { SuiteView as SuiteViewData } from '../../../shared/suite-leaderboard.js';
import { fmtDateTime } from '../../lib/display-format.js';
import { appStore, useApp } from '../../store/app-store.js';
import { historySelectors } from '../../store/selectors.js';
import { runColumn } from '../../store/columns.js';
import { SimBadge } from '../common/badges.js';
import { PaperTableView } from './paper-table-view.js';
import { taskSetOf } from '../../../shared/task-set-suites.js';

/** The palette slot of the column a cell names (the cells are words; the swatch wants a slot). */
const slotOfLabel = (label: string, slots: ReadonlyMap<string, ColumnSlot>) => slots.get(label) ?? null;

/** Each column label's palette slot, the columns in suite order (as a comparison of them colours them). */
function labelSlots(view: SuiteViewData): ReadonlyMap<string, ColumnSlot> {
  const columns = [
    ...new Map(view.leaderboard.tasks.flatMap((t) => t.byMode).map((a) => [a.column.key, a] as const)).values(),
  ];
  const slots = columnSlots(columns.map((a) => ({ key: a.column.key, mode: a.mode })));
  return new Map(columns.map((a) => [a.column.label, slots.get(a.column.key) ?? a.mode]));
}

function Board({
  table,
  testId,
  slots,
  label,
}: {
  table: BoardTable;
  testId: string;
  slots: ReadonlyMap<string, ColumnSlot>;
  label: string;
}) {
  const modeCol = Math.max(table.head.indexOf('Mode'), table.head.indexOf('Column'));
  return (
    // Focusable: a table wider than the view scrolls, and a keyboard must reach it (WCAG 2.1.1).
    <div className="table-wrap" tabIndex={0} role="region" aria-label={label}>
      <table className="data-table suite-table" data-testid={testId}>
        <thead>
          <tr>
            {table.head.map((h, i) => (
              <th key={h} scope="col" className={table.align[i] === 'r' ? 'num' : undefined}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, r) => (
            <tr key={r} className={row[0] && testId === 'suite-tasks' && r > 0 ? 'suite-task-start' : undefined}>
              {row.map((cell, i) => (
                <td key={i} className={table.align[i] === 'r' ? 'num' : undefined}>
                  {i === modeCol && slotOfLabel(cell, slots) ? (
                    <span className={`mode-swatch mode-${slotOfLabel(cell, slots)}`} aria-hidden="true" />
                  ) : null}
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A suite matrix cell spans tasks: open the comparison of the first task it covers, on the cell's columns. */
async function openSuiteCell(record: SuiteRecord, cell: MatrixCell): Promise<void> {
  const task = record.tasks.find((t) => t.comparisonId && cell.runIds.some((id) => Object.hasOwn(t.validations, id)));
  if (!task?.comparisonId) return;
  await openComparison(task.comparisonId);
  const state = appStore.getState();
  const meta = state.active?.meta;
  if (meta?.id !== task.comparisonId) return;
  state.openColumns([
    ...new Set(
      meta.runs.filter((r) => cell.runIds.includes(r.runId)).map((r) => runColumn(meta, r, state.runs[r.runId]).key),
    ),
  ]);
}

export function SuiteView() {
  const view = useApp(historySelectors.activeSuite);
  if (!view) return null;
  const { record, simulated } = view;
  const tables = boardTables(view.leaderboard, simulated);
  const slots = labelSlots(view);
  return (
    <div className="suite-view" data-testid="suite-view">
      <figure className="summary">
        <figcaption className="chart-caption">
          <div className="chart-title-row">
            <h3 className="chart-title">
              Suite {record.name} · {record.tasks.length} tasks × {record.modes.length} mode
              {record.modes.length === 1 ? '' : 's'} × {record.trials} trial{record.trials === 1 ? '' : 's'}
            </h3>
            {simulated ? <SimBadge /> : null}
            <span className="suite-export" role="group" aria-label="Export the suite report">
              Export
              {REPORT_FORMATS.filter(isSuiteReportFormat).map((f) => (
                <button
                  key={f}
                  type="button"
                  className="btn btn-sm"
                  onClick={() => void exportSuiteReport(f, record.id)}
                  data-testid={`suite-export-${f}`}
                  title={`Export the leaderboard as ${REPORT_FORMAT_INFO[f].label}`}
                >
                  {f === 'md' ? 'Markdown' : f.toUpperCase()}
                </button>
              ))}
            </span>
            <button
              type="button"
              className="btn btn-sm suite-close"
              onClick={() => appStore.getState().setActiveSuite(null)}
              data-testid="suite-close"
            >
              Close
            </button>
          </div>
          <p className="chart-subtitle">
            Run {record.id} · {fmtDateTime(record.createdAt)} · {record.provider?.model ?? 'no model reached'}. Ranked
            by pass rate, then fewest mean tokens. {BOARD_NOTE}
            {FIGURES_NOTE}
          </p>
        </figcaption>
        <Board table={tables.overall} testId="suite-overall" slots={slots} label="Leaderboard" />
      </figure>
      {view.paper && record.taskSet ? (
        <PaperTableView
          paper={view.paper}
          simulated={simulated}
          label={taskSetOf(record.taskSet)?.label ?? record.taskSet}
          showPublished={record.taskSet === 'm3tooleval'}
        />
      ) : null}
      {view.leaderboard.matrix ? (
        <MatrixView
          matrix={view.leaderboard.matrix}
          simulated={simulated}
          scope="every run of that row and mode, over every task and trial"
          openHint="Click a cell to open the first task it covers in the timeline."
          onOpen={(cell) => void openSuiteCell(record, cell)}
        />
      ) : null}
      <figure className="summary">
        <figcaption className="chart-caption">
          <div className="chart-title-row">
            <h3 className="chart-title">Per task</h3>
          </div>
          <p className="chart-subtitle">
            Each task is a comparison in the history list; open it there for its steps and charts.
          </p>
        </figcaption>
        <Board table={tables.tasks} testId="suite-tasks" slots={slots} label="Per task" />
      </figure>
      {view.problems.length ? (
        <ul className="suite-problems" role="alert">
          {view.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
