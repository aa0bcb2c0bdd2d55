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

function row(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

export function table(head: readonly string[], align: readonly ('l' | 'r')[], rows: readonly (readonly string[])[]): string {
  return [row(head), row(align.map((a) => (a === 'r' ? '---:' : '---'))), ...rows.map(row)].join('\n');
}
