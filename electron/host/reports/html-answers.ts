/**
 * Answers in the HTML report: rendered as Markdown at build time (shared/markdown.ts: nothing of the answer
 * becomes markup, no link but http(s), no image loaded) with a Raw / Rendered switch made of two radio
 * buttons and CSS, since the report runs no script; and the first two answers side by side, word by word.
 */
import { diffAnswers, defaultDiffPair, type DiffPart } from '../../../shared/answer-diff.js';
import { renderMarkdown } from '../../../shared/markdown.js';
import { formatInt } from './report-text.js';
import { html, raw, type SafeHtml } from './html-escape.js';
import type { ReportData, ReportRun } from './report-data.js';
import { modeSwatch } from './report-palette.js';
import { byTrial } from './trial-figures.js';

export const ANSWER_CSS = `
.answer-view { position: relative; }
.answer-view > input { position: absolute; left: 0; top: 0; width: 1px; height: 1px; margin: 0; opacity: 0; pointer-events: none; }
.answer-view > label { display: inline-block; font-size: 11.5px; padding: 0 8px; border: 1px solid var(--line); color: var(--muted); cursor: pointer; font-family: system-ui, sans-serif; }
.answer-view > label.first { border-radius: 10px 0 0 10px; }
.answer-view > label.last { border-radius: 0 10px 10px 0; border-left: 0; }
.answer-view > input:checked + label { background: var(--soft); color: var(--fg); font-weight: 600; }
.answer-view > input:focus-visible + label { outline: 2px solid var(--accent); }
.answer-view > .raw { display: none; }
.answer-view > input.to-raw:checked ~ .raw { display: block; }
.answer-view > input.to-raw:checked ~ .md { display: none; }
.md { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; font-size: 13.5px; white-space: normal; overflow-wrap: anywhere; }
.md > :first-child { margin-top: 4px; }
.md h1, .md h2, .md h3, .md h4 { font-size: 15px; border: 0; margin: 10px 0 4px; padding: 0; }
.md ul, .md ol { padding-left: 22px; margin: 4px 0; }
.md blockquote { margin: 6px 0; padding: 2px 10px; border-left: 3px solid var(--line); color: var(--muted); }
.md code { background: var(--soft); padding: 0 3px; border-radius: 3px; }
.md pre code { background: none; padding: 0; }
.md .md-image, .md .md-link-dropped { color: var(--muted); }
.answer-diff { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
.answer-diff pre { margin: 4px 0; }
.answer-diff del { background: #ffebe9; color: #82071e; text-decoration: line-through; }
.answer-diff ins { background: #dafbe1; color: #116329; text-decoration: underline; }
`;

/** One answer: rendered Markdown with its raw text one click away, or raw text with the reason. */
export function answerView(text: string, id: string): SafeHtml {
  const md = renderMarkdown(text);
  if (!md.ok) return html`<p class="muted">${md.reason}</p><pre>${text}</pre>`;
  const name = `answer-${id}`;
  // renderMarkdown escapes every character of the answer and writes only its own tags (see shared/markdown.ts).
  return html`<div class="answer-view"><input type="radio" name="${name}" id="${name}-md" checked><label class="first" for="${name}-md">Rendered</label><input type="radio" class="to-raw" name="${name}" id="${name}-raw"><label class="last" for="${name}-raw">Raw</label><div class="md">${raw(md.html)}</div><pre class="raw">${text}</pre></div>`;
}

/** An answer, folded behind a summary line when it is long (as other long texts of the report are). */
export function foldedAnswer(
  text: string,
  id: string,
  { open = false, foldChars = 1200, label = false } = {},
): SafeHtml {
  if (text.length <= foldChars && text.split('\n').length <= 20)
    return html`${label ? html`<div class="label muted">Answer</div>` : null}${answerView(text, id)}`;
  return html`<details${open ? html` open` : null}><summary>Answer — ${formatInt(text.length)} chars, ${formatInt(text.split('\n').length)} lines</summary>${answerView(text, id)}</details>`;
}

function parts(list: readonly DiffPart[]): SafeHtml[] {
  return list.map((p) =>
    p.kind === 'removed'
      ? html`<del>${p.text}</del>`
      : p.kind === 'added'
        ? html`<ins>${p.text}</ins>`
        : html`${p.text}`,
  );
}

/** The first two runs that answered (trial 1 when there are several), side by side, word by word. */
export function answersDiffSection(d: ReportData): SafeHtml | null {
  const runs = d.trials > 1 ? (byTrial(d.runs)[0]?.runs ?? []) : d.runs;
  const pair = defaultDiffPair(
    runs.map((r) => ({ run: r, answer: r.summary.answer, answered: r.summary.status === 'answered' })),
  );
  if (!pair) return null;
  const [a, b] = pair.map((p) => p.run) as [ReportRun, ReportRun];
  const r = diffAnswers(a.summary.answer, b.summary.answer);
  const head = (run: ReportRun) =>
    html`<h4>${modeSwatch(run.slot)}${run.label}${d.trials > 1 ? ' (trial 1)' : ''}</h4>`;
  const intro = html`<p class="muted">The answers of ${a.label} and ${b.label}, the first two modes that answered${d.trials > 1 ? ' in trial 1' : ''}: struck words only ${a.label} wrote, underlined words only ${b.label} wrote. The app compares any two.</p>`;
  const title = html`<h2>Answers compared${d.simulated ? ' (simulated)' : ''}</h2>`;
  if (!r.ok)
    return html`${title}${intro}<p class="muted">${r.reason}</p><div class="answer-diff"><div>${head(a)}<pre>${a.summary.answer}</pre></div><div>${head(b)}<pre>${b.summary.answer}</pre></div></div>`;
  const same = r.diff.identical
    ? html`<p><strong>The two answers are identical.</strong></p>`
    : html`<p class="muted">${formatInt(r.diff.changed.removed)} words and spaces only on the left, ${formatInt(r.diff.changed.added)} only on the right.</p>`;
  return html`${title}${intro}${same}<div class="answer-diff" data-left="${a.runId}" data-right="${b.runId}"><div>${head(a)}<pre>${parts(r.diff.left)}</pre></div><div>${head(b)}<pre>${parts(r.diff.right)}</pre></div></div>`;
}
