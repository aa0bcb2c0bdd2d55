/**
 * The report's only stylesheet, inlined. System fonts only (nothing is fetched). Print rules keep table rows
 * and charts whole, repeat table headers across pages and start each mode's timeline on a new page.
 */
export const REPORT_CSS = `
:root { --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --soft: #f6f8fa; --accent: #0969da;
  --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; --sim: #8250df; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0 auto; max-width: 1180px; padding: 28px 32px 60px; color: var(--fg); background: #fff;
  font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif; }
h1 { font-size: 24px; margin: 0 0 6px; }
h2 { font-size: 19px; margin: 34px 0 10px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 16px; margin: 22px 0 8px; }
h4 { font-size: 14px; margin: 14px 0 6px; }
p { margin: 6px 0; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 12.5px; }
pre { background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; margin: 6px 0;
  white-space: pre-wrap; overflow-wrap: anywhere; }
.muted { color: var(--muted); }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600;
  border: 1px solid currentColor; vertical-align: middle; }
.badge.sim { color: var(--sim); }
.badge.ok, .status-answered { color: var(--ok); }
.badge.bad, .status-error, .status-crashed, .status-refused, .status-truncated, .status-empty, .status-failed-validation, .status-max-steps, .status-no-policy, .status-interrupted, .status-unfinished { color: var(--bad); }
.status-cancelled, .status-no-events-stored, .status-never-started { color: var(--warn); }
.sim-note { border-left: 4px solid var(--sim); background: #fbf8ff; padding: 8px 12px; margin: 10px 0; }
.notice { border-left: 4px solid var(--warn); background: #fff8e6; padding: 8px 12px; margin: 10px 0; }
.notice.bad { border-left-color: var(--bad); background: #fff0f0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 8px 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
dl.facts.settings { grid-template-columns: repeat(3, max-content minmax(110px, max-content)); gap: 2px 14px; }
@media (max-width: 900px) { dl.facts.settings { grid-template-columns: repeat(2, max-content minmax(110px, max-content)); } }
@media (max-width: 560px) { dl.facts.settings { grid-template-columns: max-content 1fr; } }
blockquote.task { margin: 8px 0 12px; padding: 8px 12px; border-left: 4px solid var(--accent); background: var(--soft);
  white-space: pre-wrap; overflow-wrap: anywhere; }
.sim-tag { font-size: 11px; color: var(--sim); }
table { border-collapse: collapse; margin: 8px 0; }
th, td { border: 1px solid var(--line); padding: 4px 8px; vertical-align: top; text-align: left; }
thead th { background: var(--soft); }
th[scope=row] { white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.first-request thead th, table.summary thead th { white-space: normal; vertical-align: bottom; }
.diff { display: block; font-size: 11.5px; color: var(--muted); }
/* A figure's note (tool calls inside programs, where a worker started) on its own line, wrapping: a table of many runs stays within the page. */
.where { display: block; font-size: 11.5px; color: var(--muted); white-space: normal; }
.diff.less { color: var(--ok); }
.diff.more { color: var(--bad); }
caption { caption-side: top; text-align: left; color: var(--muted); padding: 2px 0 4px; font-size: 12.5px; }
table.summary { width: 100%; table-layout: fixed; }
table.summary th:first-child { width: 170px; }
table.summary td.answer { white-space: pre-wrap; overflow-wrap: anywhere;
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 12px; }
code.args { background: var(--soft); padding: 0 4px; border-radius: 4px; }
.cheapest { font-weight: 600; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; }
figure { margin: 8px 0; }
figcaption { font-size: 12.5px; color: var(--muted); }
svg.chart { max-width: 100%; height: auto; font-family: system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; }
svg .grid { stroke: #eaeef2; }
svg .axis { stroke: #8c959f; }
svg .tick { font-size: 10.5px; fill: #57606a; }
svg .axis-title { font-size: 11px; fill: #57606a; }
svg .value { font-size: 10px; fill: #1b1f24; }
svg .legend text { font-size: 11.5px; fill: #1b1f24; }
svg .legend text.name { font-weight: 600; }
svg .empty { font-size: 12px; fill: #57606a; }
section.mode { margin-top: 36px; }
.step { border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; margin: 12px 0; }
.step > header { display: flex; flex-wrap: wrap; gap: 4px 14px; align-items: baseline; }
.step > header h4 { margin: 0; }
.event { margin: 8px 0 0; padding-left: 10px; border-left: 3px solid var(--line); }
.event.tool { border-left-color: var(--accent); }
.event.code { border-left-color: #8250df; }
.event.search { border-left-color: #1f883d; }
.event.error, .event.retry { border-left-color: var(--bad); }
.event.warning { border-left-color: var(--warn); }
.label { font-weight: 600; }
.err { color: var(--bad); }
details { margin: 4px 0; }
summary { cursor: pointer; color: var(--accent); }
ol.code { margin: 6px 0; padding: 6px 0; background: var(--soft); border: 1px solid var(--line); border-radius: 6px;
  list-style: none; counter-reset: ln; }
ol.code li { counter-increment: ln; white-space: pre-wrap; overflow-wrap: anywhere; padding: 0 10px 0 52px; position: relative; }
ol.code li::before { content: counter(ln); position: absolute; left: 0; width: 40px; text-align: right; color: #8c959f; }
ol.code li.error-line { background: #ffebe9; }
.final { border: 2px solid var(--line); border-radius: 8px; padding: 8px 12px; margin: 14px 0; }
.final.answered { border-color: #4ac26b; }
footer { margin-top: 40px; font-size: 12px; color: var(--muted); }
@media print {
  body { max-width: none; padding: 0; font-size: 11pt; }
  @page { margin: 14mm 12mm; }
  section.mode { break-before: page; }
  h2, h3, h4 { break-after: avoid; }
  tr, figure, svg, .final, ol.code li { break-inside: avoid; }
  thead { display: table-header-group; }
  .step { break-inside: auto; }
  .step > header { break-after: avoid; }
  pre { white-space: pre-wrap; }
  summary { color: var(--fg); }
}
`;

/** Only in reports that have approvals, so reports made before approvals existed keep their exact bytes. */
export const APPROVAL_CSS = `
.event.approval { border-left-color: var(--warn); }
.event.approval.bad { border-left-color: var(--bad); }
.composition-legend { display: flex; flex-wrap: wrap; gap: 4px 14px; font-size: 12px; color: var(--muted); }
.composition-legend svg { vertical-align: -1px; }
section.result { border: 1px solid var(--line); border-left: 4px solid var(--accent); border-radius: 6px; padding: 2px 16px 8px; margin: 18px 0; background: var(--soft); }
section.result h2 { margin-top: 12px; }
.statement .headline { font-size: 1.1em; margin: 8px 0; }
.statement ul { margin: 4px 0 8px; padding-left: 20px; }
.statement .left-out li { color: var(--bad, #b91c1c); }
.statement .notes li { color: var(--muted); }
.statement .evidence { font-style: italic; }
`;

/**
 * Five modes and more in one summary: a cell wraps between words ("1 + 2 inside programs", "vs first") and a
 * long word anywhere, so the table fits A4. Only in such reports, so the others stay byte for byte as they were.
 */
export const MANY_MODES_CSS = `table.summary td { overflow-wrap: anywhere; }
table.summary td.num { white-space: normal; }
@media print { table.summary th.num { white-space: normal; overflow-wrap: anywhere; } }
`;
