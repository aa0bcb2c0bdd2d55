/** The result statement (shared/result-statement.ts) as the HTML and Markdown reports open with it. */
import type { ResultStatement } from '../../../shared/result-statement.js';
import { html, type SafeHtml } from './html-escape.js';
import { mdText } from './markdown-table.js';

export function resultHtml(s: ResultStatement): SafeHtml {
  const list = (items: readonly string[], cls: string) =>
    items.length ? html`<ul class="${cls}">${items.map((t) => html`<li>${t}</li>`)}</ul>` : null;
  return html`<div class="statement" data-testid="result-statement" data-outcome="${s.outcome}" data-winner="${s.winner?.key ?? ''}"><p class="headline"><strong>${s.headline}</strong></p>${s.among ? html`<p class="among">${s.among}</p>` : null}${list(s.why, 'why')}${list(s.leftOut, 'left-out')}${list(s.notes, 'notes')}${s.evidence ? html`<p class="evidence">${s.evidence}</p>` : null}</div>`;
}

export function resultMarkdown(s: ResultStatement): string[] {
  const out = [`**${mdText(s.headline)}**`];
  if (s.among) out.push('', mdText(s.among));
  if (s.why.length) out.push('', ...s.why.map((w) => `- ${mdText(w)}`));
  if (s.leftOut.length) out.push('', ...s.leftOut.map((w) => `- ${mdText(w)}`));
  if (s.notes.length) out.push('', ...s.notes.map((w) => `- ${mdText(w)}`));
  if (s.evidence) out.push('', mdText(s.evidence));
  return out;
}
