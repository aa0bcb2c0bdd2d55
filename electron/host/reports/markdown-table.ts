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
 * Escape text for a paragraph or list item outside a table: every Markdown- and HTML-significant character
 * gets a backslash (CommonMark shows `\<` as "<" and never opens a tag with it), so the raw file reads as
 * written ("p < 0.05", not "p &lt; 0.05"); line breaks become hard breaks.
 */
export function mdText(text: string): string {
  return text.replace(/([\\`*_[\]#~|<>&])/g, '\\$1').replace(/\r\n|\r|\n/g, '  \n');
}

function row(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

export function table(head: readonly string[], align: readonly ('l' | 'r')[], rows: readonly (readonly string[])[]): string {
  return [row(head), row(align.map((a) => (a === 'r' ? '---:' : '---'))), ...rows.map(row)].join('\n');
}
