import { describe, expect, it } from 'vitest';
import { escapeHtml, html, raw, SafeHtml } from '../../../../electron/host/reports/html-escape.js';

describe('escapeHtml', () => {
  it('escapes the five characters that can open markup or leave an attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it('escapes an ampersand once, so existing entities stay visible as text', () => {
    expect(escapeHtml('&lt;')).toBe('&amp;lt;');
  });

  it('leaves other text, including non-ASCII, untouched', () => {
    const text = '日志 ERROR: 5 lines — ok ✓ `code` \\ /';
    expect(escapeHtml(text)).toBe(text);
  });
});

describe('html tag', () => {
  it('escapes interpolated strings and numbers but not the literal template', () => {
    const out = html`<p class="x">${'<script>alert(1)</script>'} ${42}</p>`;
    expect(out).toBeInstanceOf(SafeHtml);
    expect(out.value).toBe('<p class="x">&lt;script&gt;alert(1)&lt;/script&gt; 42</p>');
  });

  it('escapes inside attributes, so a quote cannot end the attribute', () => {
    expect(html`<td title="${'" onmouseover="alert(1)'}">`.value).toBe(
      '<td title="&quot; onmouseover=&quot;alert(1)">',
    );
  });

  it('nests SafeHtml unescaped, joins arrays and drops null, undefined and false', () => {
    const inner = html`<b>${'a&b'}</b>`;
    expect(html`${inner}${[html`<i>1</i>`, '<2>']}${null}${undefined}${false}`.value).toBe(
      '<b>a&amp;b</b><i>1</i>&lt;2&gt;',
    );
  });

  it('raw marks trusted markup only', () => {
    expect(html`${raw('<br>')}`.value).toBe('<br>');
  });
});
