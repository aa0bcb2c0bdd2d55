import { describe, expect, it } from 'vitest';
import { decodeEntities, htmlTitle, htmlToText } from '../../../../electron/engine/tools/html-text.js';

describe('html-text', () => {
  it('takes the title on one line, decoded', () => {
    expect(htmlTitle('<head><TITLE lang="en">\n  A &lt;b&gt;\n title </TITLE></head>')).toBe('A <b> title');
    expect(htmlTitle('<p>no title</p>')).toBe('');
  });

  it('drops head, scripts, styles and comments; one line per block', () => {
    const html =
      '<html><head><title>T</title><meta x></head><body><div>One <b>bold</b>\n\n word</div>' +
      '<script type="module">alert(1)</script><style>.a{}</style><noscript>enable js</noscript>' +
      '<!-- hidden --><ul><li>a</li><li>b</li></ul>x<br>y</body></html>';
    expect(htmlToText(html)).toBe('One bold word\na\nb\nx\ny');
  });

  it('decodes named and numeric entities and leaves unknown ones', () => {
    expect(decodeEntities('&amp;&quot;&#39;&#x1F600;&mdash;&bogus;&#0;')).toBe('&"\'😀—&bogus;&#0;');
  });
});
