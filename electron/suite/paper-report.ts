/**
 * The paper's table in a task set's suite reports (text, Markdown, HTML, JSON): per model and mode, success and
 * average turns beside tokens per task, per step and in all, each mode against the first in a sentence, and the
 * paper's own figures, the row of a model it ran first.
 */
import { PAPER_NOTE, paperBoard, paperSentences } from '../../shared/paper-table.js';
import {
  M3_PUBLISHED,
  PUBLISHED_NOTE,
  publishedBoard,
  publishedRowOf,
  type PublishedRow,
} from '../../shared/m3tooleval-paper.js';
import { modeLabel } from '../../shared/modes.js';
import { taskSetOf } from '../../shared/task-set-suites.js';
import type { BoardTable } from '../../shared/suite-leaderboard.js';
import { html } from '../host/reports/html-escape.js';
import { mdCell, table as mdTable } from '../host/reports/markdown-table.js';
import type { SuiteData } from './suite-data.js';

type Table = Pick<BoardTable, 'head' | 'align' | 'rows'>;

/** The published rows of the models this run ran (by name), else none. */
function published(d: SuiteData): { rows: readonly PublishedRow[]; matched: readonly PublishedRow[] } | null {
  if (d.record.taskSet !== 'm3tooleval' || !d.paper) return null;
  const matched = d.paper.rows.flatMap((r) => publishedRowOf(r.model) ?? []);
  return { rows: M3_PUBLISHED, matched };
}

const title = (d: SuiteData): string =>
  `The paper's table: ${taskSetOf(d.record.taskSet ?? '')?.label ?? d.record.taskSet}`;

function matchedLines(rows: readonly PublishedRow[]): string[] {
  return rows.map(
    (r) =>
      `The paper ran ${r.model}: text ${r.text.success} % in ${r.text.turns} turns, JSON ${r.json.success} % in ${r.json.turns}, code ${r.code.success} % in ${r.code.turns}.`,
  );
}

export function paperText(d: SuiteData, textTable: (t: Table) => string[]): string[] {
  if (!d.paper) return [];
  const pub = published(d);
  return [
    '',
    `${title(d)}${d.simulated ? ' (simulated)' : ''}`,
    ...textTable(paperBoard(d.paper, d.simulated, modeLabel)),
    ...paperSentences(d.paper),
    PAPER_NOTE,
    ...(pub
      ? [
          '',
          ...matchedLines(pub.matched),
          `${PUBLISHED_NOTE} See \`parallax suite report ${d.record.id} -f md\` for the paper's whole table.`,
        ]
      : []),
  ];
}

const md = (t: Table) =>
  mdTable(
    t.head.map(mdCell),
    t.align,
    t.rows.map((r) => r.map(mdCell)),
  );

export function paperMarkdown(d: SuiteData): string[] {
  if (!d.paper) return [];
  const pub = published(d);
  return [
    '',
    `## ${mdCell(title(d))}${d.simulated ? ' (simulated)' : ''}`,
    '',
    md(paperBoard(d.paper, d.simulated, modeLabel)),
    '',
    ...paperSentences(d.paper).map((s) => `- ${mdCell(s)}`),
    '',
    mdCell(PAPER_NOTE),
    ...(pub
      ? [
          '',
          "### The paper's figures",
          '',
          ...matchedLines(pub.matched).map(mdCell),
          ...(pub.matched.length ? [''] : []),
          md(publishedBoard()),
          '',
          mdCell(PUBLISHED_NOTE),
        ]
      : []),
  ];
}

export function paperHtml(d: SuiteData) {
  if (!d.paper) return '';
  const pub = published(d);
  const tbl = (
    t: Table,
    testId: string,
    mark?: (row: readonly string[]) => boolean,
  ) => html`<table data-testid="${testId}"><thead><tr>${t.head.map((h, i) => html`<th class="${t.align[i] === 'r' ? 'num' : ''}">${h}</th>`)}</tr></thead>
<tbody>${t.rows.map((r) => html`<tr class="${mark?.(r) ? 'matched' : ''}">${r.map((c, i) => html`<td class="${t.align[i] === 'r' ? 'num' : ''}">${c}</td>`)}</tr>`)}</tbody></table>`;
  const names = new Set(pub?.matched.map((r) => r.model) ?? []);
  return html`<h2>${title(d)}${d.simulated ? ' (simulated)' : ''}</h2>${tbl(paperBoard(d.paper, d.simulated, modeLabel), 'paper-table')}
<ul>${paperSentences(d.paper).map((s) => html`<li>${s}</li>`)}</ul><p class="muted">${PAPER_NOTE}</p>
${pub ? html`<h3>The paper's figures</h3>${matchedLines(pub.matched).map((l) => html`<p>${l}</p>`)}${tbl(publishedBoard(), 'paper-published', (r) => names.has(r[0]))}<p class="muted">${PUBLISHED_NOTE}</p>` : ''}`;
}

export function paperJson(d: SuiteData) {
  if (!d.paper) return {};
  const pub = published(d);
  return {
    paper: {
      ...d.paper,
      sentences: paperSentences(d.paper),
      note: PAPER_NOTE,
      ...(pub ? { published: pub.rows, publishedNote: PUBLISHED_NOTE } : {}),
    },
  };
}
