/**
 * A task set's suite as its paper tables it (shared/paper-table.ts): per model and mode, success and average
 * turns beside tokens per task, per step and in all; each mode against the first in a sentence; the paper's
 * own figures below, the rows of the models this run ran in bold.
 */
import { PAPER_NOTE, paperBoard, paperSentences, type PaperTable } from '../../../shared/paper-table.js';
import { PUBLISHED_NOTE, publishedBoard, publishedRowOf } from '../../../shared/m3tooleval-paper.js';
import { modeLabel } from '../../../shared/modes.js';
import type { BoardTable } from '../../../shared/suite-leaderboard.js';
import { SimBadge } from '../common/badges.js';

function Table({
  table,
  testId,
  label,
  bold,
}: {
  table: Pick<BoardTable, 'head' | 'align' | 'rows'>;
  testId: string;
  label: string;
  bold?: (row: readonly string[]) => boolean;
}) {
  return (
    // Focusable: a table wider than the view scrolls, and a keyboard must reach it (WCAG 2.1.1).
    <div className="table-wrap" tabIndex={0} role="region" aria-label={label}>
      <table className="data-table suite-table" data-testid={testId}>
        <thead>
          <tr>
            {table.head.map((h, i) => (
              <th key={`${h}-${i}`} scope="col" className={table.align[i] === 'r' ? 'num' : undefined}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, r) => (
            <tr
              key={r}
              className={
                [
                  row[0] && r > 0 && testId === 'paper-table' ? 'suite-task-start' : '',
                  bold?.(row) ? 'paper-matched' : '',
                ]
                  .filter(Boolean)
                  .join(' ') || undefined
              }
            >
              {row.map((cell, i) =>
                i === 0 && cell ? (
                  <th key={i} scope="row">
                    {cell}
                  </th>
                ) : (
                  <td key={i} className={table.align[i] === 'r' ? 'num' : undefined}>
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function PaperTableView({
  paper,
  simulated,
  label,
  showPublished,
}: {
  paper: PaperTable;
  simulated: boolean;
  label: string;
  showPublished: boolean;
}) {
  const ran = new Set(paper.rows.flatMap((r) => publishedRowOf(r.model)?.model ?? []));
  const sentences = paperSentences(paper);
  return (
    <figure className="summary" data-testid="paper-table-view">
      <figcaption className="chart-caption">
        <div className="chart-title-row">
          <h3 className="chart-title">The paper&apos;s table: {label}</h3>
          {simulated ? <SimBadge /> : null}
        </div>
        <p className="chart-subtitle">{PAPER_NOTE}</p>
      </figcaption>
      <Table table={paperBoard(paper, simulated, modeLabel)} testId="paper-table" label="The paper's table" />
      {sentences.length ? (
        <ul className="paper-sentences" data-testid="paper-sentences">
          {sentences.map((s) => (
            <li key={s}>{s}</li>
          ))}
        </ul>
      ) : null}
      {showPublished ? (
        <details className="paper-published" open={ran.size > 0}>
          <summary>The paper&apos;s own figures{ran.size ? ` (${[...ran].join(', ')} in bold)` : ''}</summary>
          <Table
            table={publishedBoard()}
            testId="paper-published"
            label="The paper's own figures"
            bold={(row) => ran.has(row[0])}
          />
          <p className="chart-subtitle">{PUBLISHED_NOTE}</p>
        </details>
      ) : null}
    </figure>
  );
}
