/**
 * What a suite run prints and exports: the CLI table, `--json`, and the Markdown, JSON and HTML reports, all
 * from openSuite's data and the cells of shared/suite-leaderboard.ts, so every surface shows the same figures.
 */
import {
  isSuiteReportFormat,
  REPORT_FORMAT_INFO,
  SUITE_REPORT_FORMATS,
  type SuiteReportFormat,
} from '../../shared/report-formats.js';
import { BOARD_NOTE, boardTables, type BoardTable } from '../../shared/suite-leaderboard.js';
import { FIGURES_NOTE } from '../../shared/summary.js';
import { formatUtc } from '../host/reports/report-text.js';
import { html, raw } from '../host/reports/html-escape.js';
import { REPORT_CSS } from '../host/reports/html-styles.js';
import { mdCell, table as mdTable } from '../host/reports/markdown-table.js';
import type { SuiteData } from './suite-data.js';
import { cellText, matrixMarkdownTable, matrixTextLines } from '../host/reports/matrix-report.js';
import { MATRIX_METRIC_INFO, MATRIX_METRICS } from '../../shared/matrix.js';
import { MODE_LABELS } from '../../shared/modes.js';
import { paperHtml, paperJson, paperMarkdown, paperText } from './paper-report.js';

const SIM_NOTE =
  'Token counts come from the simulated model: counted with a real tokenizer, not billed by any provider.';

function headLines(d: SuiteData): string[] {
  const r = d.record;
  const model = r.provider ? `${r.provider.model}${r.provider.simulated ? ' (simulated)' : ''}` : 'no model reached';
  return [
    `Suite ${r.name} · run ${r.id} · ${formatUtc(r.createdAt)}`,
    `${r.tasks.length} task${r.tasks.length === 1 ? '' : 's'} × ${r.modes.length} mode${r.modes.length === 1 ? '' : 's'} × ${r.trials} trial${r.trials === 1 ? '' : 's'} · ${model}`,
  ];
}

function problems(d: SuiteData): string[] {
  return d.tasks.filter((t) => t.problem).map((t) => `${t.task.taskId}: ${t.problem}`);
}

/** Aligned plain-text columns. */
function textTable(t: BoardTable): string[] {
  const w = t.head.map((h, i) => Math.max(h.length, ...t.rows.map((r) => r[i].length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (t.align[i] === 'r' ? c.padStart(w[i]) : c.padEnd(w[i])))
      .join('  ')
      .trimEnd();
  return [line(t.head), ...t.rows.map(line)];
}

export function suiteText(d: SuiteData, dataDir: string): string {
  const { overall, tasks } = boardTables(d.leaderboard, d.simulated);
  const out = [
    ...headLines(d),
    ...paperText(d, textTable),
    '',
    `Leaderboard${d.simulated ? ' (simulated)' : ''}`,
    ...textTable(overall),
    '',
    'Per task',
    ...textTable(tasks),
    '',
    BOARD_NOTE + FIGURES_NOTE,
  ];
  if (d.leaderboard.matrix)
    out.push(
      '',
      ...matrixTextLines(d.leaderboard.matrix, d.simulated ? ' (simulated)' : '').map((l, i) =>
        i === 0 ? `${l}, over all tasks` : l,
      ),
    );
  if (d.simulated) out.push(SIM_NOTE);
  for (const p of problems(d)) out.push(`problem: ${p}`);
  const ids = d.record.tasks.filter((t) => t.comparisonId).map((t) => `${t.taskId} ${t.comparisonId}`);
  if (ids.length) out.push('', `Comparisons (see \`parallax report <id>\`): ${ids.join(', ')}`);
  out.push(`Stored as ${d.record.id} in ${dataDir}/suites (see \`parallax suite show ${d.record.id}\`).`);
  return out.join('\n') + '\n';
}

/** `--json` and the JSON report: the record, the leaderboard objects (aggregateByColumn) and every run judged. */
export function suiteJson(d: SuiteData) {
  return {
    schema: 'parallax-suite',
    version: 1,
    id: d.record.id,
    name: d.record.name,
    source: d.record.source,
    createdAt: d.record.createdAt,
    modes: d.record.modes,
    ...(d.record.variants ? { variants: d.record.variants } : {}),
    trials: d.record.trials,
    provider: d.record.provider,
    simulated: d.simulated,
    figures: BOARD_NOTE + FIGURES_NOTE,
    ...(d.record.taskSet ? { taskSet: d.record.taskSet } : {}),
    ...paperJson(d),
    overall: d.leaderboard.overall,
    ...(d.leaderboard.matrix ? { matrix: d.leaderboard.matrix } : {}),
    tasks: d.tasks.map((t, i) => ({
      taskId: t.task.taskId,
      kind: t.task.kind,
      text: t.task.text,
      validator: t.task.validator,
      comparisonId: t.task.comparisonId,
      problem: t.problem,
      byMode: d.leaderboard.tasks[i].byMode,
      runs: t.runs.map((r) => ({
        runId: r.runId,
        mode: r.mode,
        trial: r.trial,
        status: r.status,
        answer: r.answer,
        validation: r.validation,
        totalTokens: r.totals.total,
        steps: r.totals.steps,
        wallMs: r.totals.wallMs,
        costUsd: r.cost.usd,
      })),
    })),
    warnings: d.warnings,
  };
}

export function suiteMarkdown(d: SuiteData): string {
  const { overall, tasks } = boardTables(d.leaderboard, d.simulated);
  const md = (t: BoardTable) =>
    mdTable(
      t.head.map(mdCell),
      t.align,
      t.rows.map((r) => r.map(mdCell)),
    );
  const [title, sub] = headLines(d);
  const out = [
    `# ${mdCell(title)}`,
    '',
    mdCell(sub),
    ...paperMarkdown(d),
    '',
    '## Leaderboard',
    '',
    md(overall),
    '',
    '## Per task',
    '',
    md(tasks),
    '',
    mdCell(BOARD_NOTE + FIGURES_NOTE),
  ];
  const metrics = MATRIX_METRICS.filter((m) => m !== 'cost' || !d.simulated);
  if (d.leaderboard.matrix)
    out.push('', '## Matrix over all tasks', '', matrixMarkdownTable(d.leaderboard.matrix, metrics));
  if (d.simulated) out.push('', SIM_NOTE);
  const probs = problems(d);
  if (probs.length) out.push('', '## Problems', '', ...probs.map((p) => `- ${mdCell(p)}`));
  out.push(
    '',
    '## Tasks',
    '',
    ...d.tasks.map(
      (t) =>
        `- **${mdCell(t.task.taskId)}** (${t.task.kind}${t.task.comparisonId ? `, comparison ${mdCell(t.task.comparisonId)}` : ''}): ${mdCell(t.task.text)}`,
    ),
  );
  return out.join('\n') + '\n';
}

export function suiteHtml(d: SuiteData): string {
  const { overall, tasks } = boardTables(d.leaderboard, d.simulated);
  const tbl = (
    t: BoardTable,
  ) => html`<table><thead><tr>${t.head.map((h, i) => html`<th class="${t.align[i] === 'r' ? 'num' : ''}">${h}</th>`)}</tr></thead>
<tbody>${t.rows.map((r) => html`<tr>${r.map((c, i) => html`<td class="${t.align[i] === 'r' ? 'num' : ''}">${c}</td>`)}</tr>`)}</tbody></table>`;
  const [title, sub] = headLines(d);
  const probs = problems(d);
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title><style>${raw(REPORT_CSS)} td.num, th.num { text-align: right; } tr.matched td { font-weight: 600; }</style></head>
<body><h1>${title}</h1><p class="muted">${sub}</p>
${paperHtml(d)}
<h2>Leaderboard</h2>${tbl(overall)}
<h2>Per task</h2>${tbl(tasks)}
<p class="muted">${BOARD_NOTE + FIGURES_NOTE}</p>${d.leaderboard.matrix ? matrixHtmlTable(d) : ''}${d.simulated ? html`<p class="muted">${SIM_NOTE}</p>` : ''}
${probs.length ? html`<h2>Problems</h2><ul>${probs.map((p) => html`<li>${p}</li>`)}</ul>` : ''}
<h2>Tasks</h2><ul>${d.tasks.map((t) => html`<li><b>${t.task.taskId}</b> (${t.task.kind}${t.task.comparisonId ? `, comparison ${t.task.comparisonId}` : ''}): ${t.task.text}</li>`)}</ul>
</body></html>
`.value;
}

/** The matrix over all tasks: each cell's figures in text, one per line (no colour: the figures are the point). */
function matrixHtmlTable(d: SuiteData) {
  const m = d.leaderboard.matrix!;
  const metrics = MATRIX_METRICS.filter((x) => x !== 'cost' || !d.simulated);
  return html`<h2>Matrix over all tasks</h2><table class="matrix"><thead><tr><th></th>${m.modes.map((x) => html`<th class="num">${MODE_LABELS[x] ?? x}</th>`)}</tr></thead><tbody>${m.rows.map(
    (row, i) =>
      html`<tr><th scope="row">${row}</th>${m.cells[i]!.map((c) => html`<td class="num" data-row="${row}">${c ? metrics.map((x, j) => html`${j ? html`<br>` : ''}${MATRIX_METRIC_INFO[x].label.toLowerCase()} ${cellText(c, x)}`) : '—'}</td>`)}</tr>`,
  )}</tbody></table>`;
}

/** Each suite report format's writer: a format of SUITE_REPORT_FORMATS left out does not compile. */
const SUITE_RENDERERS: Readonly<Record<SuiteReportFormat, (d: SuiteData) => string>> = {
  md: (d) => suiteMarkdown(d),
  json: (d) => JSON.stringify(suiteJson(d), null, 2) + '\n',
  html: (d) => suiteHtml(d),
};

export function suiteReport(d: SuiteData, format: SuiteReportFormat): string {
  return SUITE_RENDERERS[format](d);
}

/** A suite report as a file: its name (the suite's id) and media type, from the shared report formats. */
export function builtSuiteReport(
  d: SuiteData,
  format: string,
): { fileName: string; mimeType: string; content: string } {
  if (!isSuiteReportFormat(format))
    throw new Error(
      `A suite report comes as ${SUITE_REPORT_FORMATS.join(', ')}, not "${format}". Export one of those.`,
    );
  const info = REPORT_FORMAT_INFO[format];
  return {
    fileName: `parallax-suite-${d.record.id}.${info.extension}`,
    mimeType: info.mimeType,
    content: suiteReport(d, format),
  };
}
