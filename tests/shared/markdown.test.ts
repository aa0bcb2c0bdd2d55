import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { MARKDOWN_ATTRS, MARKDOWN_MAX_CHARS, MARKDOWN_TAGS, renderMarkdown } from '../../shared/markdown.js';

function md(text: string): string {
  const r = renderMarkdown(text);
  if (!r.ok) throw new Error(r.reason);
  return r.html;
}

/** Every element and attribute of the output, as a browser's parser would see them. */
function elements(out: string): { name: string; attrs: Record<string, string> }[] {
  const found: { name: string; attrs: Record<string, string> }[] = [];
  const p = new Parser(
    {
      onopentag: (name, attrs) => found.push({ name, attrs }),
      oncomment: () => found.push({ name: '!--', attrs: {} }),
    },
    { decodeEntities: true },
  );
  p.write(out);
  p.end();
  return found;
}

function expectSafe(out: string): void {
  for (const el of elements(out)) {
    expect(MARKDOWN_TAGS as readonly string[]).toContain(el.name);
    for (const [k, v] of Object.entries(el.attrs)) {
      expect(MARKDOWN_ATTRS as readonly string[]).toContain(k);
      if (k === 'href') expect(v).toMatch(/^https?:\/\//);
      if (k === 'style') expect(v).toMatch(/^text-align:(left|right|center)$/);
    }
  }
}

const ATTACKS = [
  '<script>alert(1)</script>',
  'Hi <img src="http://evil.example/x.png" onerror="alert(1)"> there',
  '![tracker](http://evil.example/pixel.png)',
  '![x](data:image/png;base64,AAAA)',
  '[click](javascript:alert(1))',
  '[click](JaVaScRiPt:alert(1))',
  '[click](&#106;avascript:alert(1))',
  '[click](  javascript:alert(1)  )',
  '<javascript:alert(1)>',
  '[x](data:text/html,<script>alert(1)</script>)',
  '[x](vbscript:msgbox)',
  '[x](file:///etc/passwd)',
  '<!-- hidden --> visible',
  '<a href="http://x" onclick="alert(1)">a</a>',
  '<div onmouseover="alert(1)">hover</div>',
  '[a](http://x "t\\" onmouseover=\\"alert(1)")',
  '```html\n<script>alert(1)</script>\n```',
  '<svg/onload=alert(1)>',
  '<style>body{display:none}</style>',
  '<iframe src="http://evil.example"></iframe>',
  '| a | b |\n|--:|:-|\n| <b onclick=1>x</b> | y |',
];

describe('renderMarkdown', () => {
  it('renders the usual Markdown of answers', () => {
    const out = md(
      '# Title\n\nSome **bold** and *em* and `code`.\n\n- one\n- two\n\n1. a\n2. b\n\n```js\nconst x = 1;\n```\n\n> quoted\n\n| a | b |\n|---|---|\n| 1 | 2 |\n',
    );
    expect(out).toContain('<h1>Title</h1>');
    expect(out).toContain('<strong>bold</strong>');
    expect(out).toContain('<em>em</em>');
    expect(out).toContain('<code>code</code>');
    expect(out).toContain('<li>two</li>');
    expect(out).toContain('<pre><code class="language-js">const x = 1;');
    expect(out).toContain('<blockquote>');
    expect(out).toContain('<td>2</td>');
    expectSafe(out);
  });

  it('opens http(s) links apart from the page', () => {
    const out = md('See [the docs](https://example.com/a?b=1&c=2).');
    expect(out).toContain(
      '<a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer nofollow">the docs</a>',
    );
  });

  it('keeps the text of a relative link and drops the link', () => {
    const out = md('Open [notes](./notes.md) now.');
    expect(out).toContain('<span class="md-link-dropped">notes</span>');
    expect(out).not.toContain('<a');
  });

  it('never loads an image: it names it and its address', () => {
    const out = md('![a chart](http://evil.example/p.png)');
    expect(out).toContain('[image: a chart]');
    expect(out).toContain('title="Image not loaded: http://evil.example/p.png"');
    expectSafe(out);
  });

  it.each(ATTACKS)('leaves no markup of the answer in the output: %s', (attack) => {
    const out = md(attack);
    expectSafe(out);
  });

  it('shows raw HTML of the answer as text', () => {
    const out = md('<script>alert(1)</script>');
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('shows a markdown bomb nested past the cap as raw text, never cut', () => {
    const quotes = renderMarkdown('>'.repeat(5000) + ' deep');
    expect(quotes.ok).toBe(false);
    if (!quotes.ok) expect(quotes.reason).toMatch(/Nested more than 20 levels/);
    const lists = renderMarkdown(Array.from({ length: 3000 }, (_, i) => `${'  '.repeat(i)}- item ${i}`).join('\n'));
    expect(lists.ok).toBe(false);
    // Nesting under the cap renders.
    expect(md('>'.repeat(10) + ' deep')).toContain('deep');
  });

  it('renders inline bombs as text, linear enough to finish', () => {
    for (const b of [
      '['.repeat(50_000),
      '*a'.repeat(50_000),
      '_'.repeat(50_000) + 'x',
      '`a'.repeat(30_000),
      '[a]('.repeat(20_000),
      '**a'.repeat(40_000),
    ]) {
      const out = md(b);
      expectSafe(out);
      expect(out.length).toBeGreaterThan(b.length / 2);
    }
  });

  it('does not render an answer longer than the cap', () => {
    const r = renderMarkdown('a'.repeat(MARKDOWN_MAX_CHARS + 1));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/Too long/);
    expect(renderMarkdown('a'.repeat(MARKDOWN_MAX_CHARS)).ok).toBe(true);
  });
});
