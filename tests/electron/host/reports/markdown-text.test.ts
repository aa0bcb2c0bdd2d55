/** Paragraph text in the Markdown report: reads as written in the raw file, and renders as the same text, never as markup. */
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { mdText } from '../../../../electron/host/reports/markdown-table.js';

const md = new MarkdownIt({ html: true });
/** What a reader sees: the rendered paragraph's text, with entities decoded. */
const shown = (src: string) => {
  const out = md.render(src);
  return {
    out,
    text: out
      .replace(/<[^>]+>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&')
      .trim(),
  };
};

describe('mdText', () => {
  it('leaves "p < 0.05" and "a & b" as written in the raw file', () => {
    expect(mdText('p < 0.05, a & b, 3 > 2')).toBe('p < 0.05, a & b, 3 > 2');
  });

  for (const hostile of [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '&lt;b&gt; &#60;',
    '> quoted?',
    '**bold** _it_ `code` [l](http://x) <http://x>',
    '<!-- c --> <?php ?>',
  ]) {
    it(`renders ${JSON.stringify(hostile)} as its own text, with no tag`, () => {
      const { out, text } = shown(mdText(hostile));
      expect(out).not.toMatch(/<(script|img|strong|em|code|a|blockquote)\b/);
      expect(out).not.toContain('<!--');
      expect(text).toBe(hostile);
    });
  }
});
