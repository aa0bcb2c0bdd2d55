/**
 * JavaScript highlighting for Code Mode programs, split into lines so one line can be marked as the one that
 * failed. hljs spans can cross newlines (template strings, block comments), so each line closes the spans
 * still open at its end and the next line reopens them.
 */
import hljs from 'highlight.js/lib/core';
import javascript from 'highlight.js/lib/languages/javascript';

hljs.registerLanguage('javascript', javascript);

export function highlightLines(code: string): string[] {
  const html = hljs.highlight(code, { language: 'javascript', ignoreIllegals: true }).value;
  const lines: string[] = [];
  const open: string[] = [];
  let current = '';
  const tag = /<span[^>]*>|<\/span>|\n/g;
  let last = 0;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    current += html.slice(last, m.index);
    last = m.index + m[0].length;
    if (m[0] === '\n') {
      lines.push(current + '</span>'.repeat(open.length));
      current = open.join('');
    } else if (m[0] === '</span>') {
      open.pop();
      current += m[0];
    } else {
      open.push(m[0]);
      current += m[0];
    }
  }
  current += html.slice(last);
  lines.push(current);
  return lines;
}
