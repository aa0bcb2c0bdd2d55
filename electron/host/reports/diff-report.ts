/**
 * A comparison against its baseline (shared/comparison-diff.ts) as a terminal text, Markdown or a
 * self-contained HTML page. Every surface prints the same sentences; tables only lay them out.
 */
import type { StoredComparison } from '../../../shared/ipc-contract.js';
import type { DiffFormat } from '../../../shared/report-formats.js';
import {
  diffComparisons,
  figureCell,
  TREND_WORDS,
  type ColumnDiff,
  type ComparisonDiff,
  type DiffInput,
} from '../../../shared/comparison-diff.js';
import { escapeHtml, html, type SafeHtml } from './html-escape.js';
import { REPORT_CSS } from './html-styles.js';
import { mdCell, mdText, table } from './markdown-table.js';
import { prepareReport } from './report-data.js';

/** The diff of two stored comparisons, read as every report reads them. Throws DiffError for another task. */
export function diffStored(baseline: StoredComparison, comparison: StoredComparison): ComparisonDiff {
  return diffComparisons(inputOf(baseline), inputOf(comparison));
}

function inputOf(stored: StoredComparison): DiffInput {
  const d = prepareReport(stored);
  return {
    id: d.meta.id,
    createdAt: d.meta.createdAt,
    task: d.meta.task,
    model: d.meta.provider.model,
    simulated: d.simulated,
    runs: d.runs,
  };
}

const when = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
const side = (c: ColumnDiff, which: 'baseline' | 'comparison') => {
  const s = c[which];
  return s ? `${s.passed} of ${s.runs} passed` : '—';
};
const SIM_NOTE = 'Token figures come from the simulated model (simulated), counted with a real tokenizer.';

export function diffText(d: ComparisonDiff): string {
  const out = [
    `Comparison ${d.comparison.id} (${when(d.comparison.createdAt)}, ${d.comparison.trials} trial${d.comparison.trials === 1 ? '' : 's'}) against baseline ${d.baseline.id} (${when(d.baseline.createdAt)}, ${d.baseline.trials} trial${d.baseline.trials === 1 ? '' : 's'})`,
    `Task: ${d.task.id ?? d.task.text}`,
    '',
    ...d.headline,
  ];
  if (d.simulated) out.push(SIM_NOTE);
  for (const c of d.columns) {
    out.push(
      '',
      `${c.label} — ${c.flag === 'baseline-only' ? 'only in the baseline' : c.flag === 'comparison-only' ? 'only in this comparison' : `baseline ${side(c, 'baseline')}, now ${side(c, 'comparison')}`}${c.matchedBy === 'label' ? ' (matched by label)' : ''}`,
    );
    for (const f of c.figures) out.push(`  ${TREND_WORDS[f.trend].padEnd(20)} ${f.sentence}`);
  }
  return `${out.join('\n')}\n`;
}

export function diffMarkdown(d: ComparisonDiff): string {
  const parts = [
    `# Comparison ${d.comparison.id} against baseline ${d.baseline.id}`,
    '',
    `Task: ${mdText(d.task.id ?? d.task.text)} · baseline ${when(d.baseline.createdAt)} (${d.baseline.trials} trials, model ${mdText(d.baseline.model)}) · now ${when(d.comparison.createdAt)} (${d.comparison.trials} trials, model ${mdText(d.comparison.model)})`,
    '',
    ...d.headline.map((l) => `- ${mdText(l)}`),
    '',
    ...(d.simulated ? [`> ${SIM_NOTE}`, ''] : []),
  ];
  for (const c of d.columns) {
    parts.push(`## ${mdText(c.label)}`, '', mdText(c.summary), '');
    if (c.figures.length === 0) continue;
    parts.push(
      table(
        ['Figure', 'Baseline', 'Now', 'Change', 'What changed'],
        ['l', 'r', 'r', 'l', 'l'],
        c.figures.map((f) => [
          mdCell(f.label),
          mdCell(figureCell(f, 'baseline', d.simulated)),
          mdCell(figureCell(f, 'comparison', d.simulated)),
          mdCell(TREND_WORDS[f.trend]),
          mdCell(f.sentence),
        ]),
      ),
      '',
    );
  }
  return `${parts.join('\n')}\n`;
}

const TREND_CLASS: Record<string, string> = { regressed: 'bad', 'now-fails': 'bad', improved: 'ok' };

function columnHtml(c: ColumnDiff, simulated: boolean): SafeHtml {
  const flagClass = c.flag === 'regressed' ? 'bad' : c.flag === 'improved' ? 'ok' : '';
  return html`<section class="diff-column" aria-labelledby="col-${c.key}">
<h2 id="col-${c.key}">${c.label} <span class="badge ${flagClass}">${c.flag === 'no-verdict' ? 'No verdict' : c.flag === 'baseline-only' ? 'Only in the baseline' : c.flag === 'comparison-only' ? 'Only in this comparison' : c.flag[0]!.toUpperCase() + c.flag.slice(1)}</span></h2>
<p>${c.summary}${c.matchedBy === 'label' ? ' Matched by label.' : ''}</p>
${
  c.figures.length
    ? html`<table><thead><tr><th scope="col">Figure</th><th scope="col">Baseline</th><th scope="col">Now</th><th scope="col">Change</th><th scope="col">What changed</th></tr></thead><tbody>
${c.figures.map((f) => html`<tr><th scope="row">${f.label}</th><td class="num">${figureCell(f, 'baseline', simulated)}</td><td class="num">${figureCell(f, 'comparison', simulated)}</td><td class="${TREND_CLASS[f.trend] ?? ''}">${TREND_WORDS[f.trend]}</td><td>${f.sentence}</td></tr>`)}
</tbody></table>`
    : ''
}
</section>`;
}

export function diffHtml(d: ComparisonDiff): string {
  const title = `Comparison ${d.comparison.id} against baseline ${d.baseline.id}`;
  const body = html`<main>
<h1>${title}</h1>
<p class="muted">Task ${d.task.id ?? d.task.text} · baseline ${when(d.baseline.createdAt)}, ${d.baseline.trials} trials, model ${d.baseline.model} · now ${when(d.comparison.createdAt)}, ${d.comparison.trials} trials, model ${d.comparison.model}</p>
<section class="result" aria-label="What changed">${d.headline.map((l) => html`<p>${l}</p>`)}</section>
${d.simulated ? html`<p class="sim-note">${SIM_NOTE}</p>` : ''}
${d.columns.map((c) => columnHtml(c, d.simulated))}
</main>`;
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${REPORT_CSS}
td.ok { color: var(--ok); font-weight: 600; } td.bad { color: var(--bad); font-weight: 600; } td.num { text-align: right; white-space: nowrap; }</style></head><body>${body.value}</body></html>\n`;
}

/** Each diff format's writer: a format of DIFF_FORMATS left out does not compile. */
export const DIFF_RENDERERS: Readonly<Record<DiffFormat, (d: ComparisonDiff) => string>> = {
  text: diffText,
  md: diffMarkdown,
  html: diffHtml,
  json: (d) => `${JSON.stringify(d, null, 2)}\n`,
};
