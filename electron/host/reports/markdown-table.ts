/** GFM table building blocks for the Markdown report. */

/**
 * Escape text for one GFM table cell: HTML-significant characters become entities (GitHub shows them as
 * text), Markdown punctuation gets a backslash, pipes are escaped and line breaks become <br>.
 */
export function mdCell(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]#~|])/g, '\\$1')
    .replace(/\r\n|\r|\n/g, '<br>');
}

/**
 * Escape text for a paragraph or list item outside a table, so the raw file reads as written ("p < 0.05", not
 * "p &lt; 0.05"): Markdown punctuation gets a backslash; "<" only where it could open a tag or an autolink
 * (before a letter, "/", "!" or "?"), "&" only where it could start an entity, ">" only at a line's start
 * (a quote). CommonMark shows a backslashed "<" as "<" and never opens a tag with it. Line breaks become hard breaks.
 */
export function mdText(text: string): string {
  return text
    .replace(/([\\`*_[\]#~|])/g, '\\$1')
    .replace(/<(?=[A-Za-z/!?])/g, '\\<')
    .replace(/&(?=[A-Za-z#])/g, '\\&')
    .replace(/^>/gm, '\\>')
    .replace(/\r\n|\r|\n/g, '  \n');
}

function row(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

export function table(
  head: readonly string[],
  align: readonly ('l' | 'r')[],
  rows: readonly (readonly string[])[],
): string {
  return [row(head), row(align.map((a) => (a === 'r' ? '---:' : '---'))), ...rows.map(row)].join('\n');
}
