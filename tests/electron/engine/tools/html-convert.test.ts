import { describe, expect, it } from 'vitest';
import { htmlTitle, htmlToText } from '../../../../electron/engine/tools/html-convert.js';

describe('html-convert', () => {
  it('takes the title on one line, decoded', () => {
    expect(htmlTitle('<head><TITLE lang="en">\n  A &lt;b&gt; &mdash;\n title </TITLE></head>')).toBe('A <b> — title');
    expect(htmlTitle('<p>no title</p>')).toBe('');
    // An unclosed title still yields its text, as browsers do.
    expect(htmlTitle('<html><head><title>Open ended')).toBe('Open ended');
  });

  it('drops head, scripts, styles, comments and images; one line per block', () => {
    const html =
      '<html><head><title>T</title><meta x></head><body><h1>Big <i>Title</i></h1><div>One <b>bold</b>\n\n word ' +
      '<a href="https://example.invalid/x">link</a></div><img src="a.png" alt="pic">' +
      '<script type="module">alert(1)</script><style>.a{}</style><noscript>enable js</noscript>' +
      '<!-- hidden --><ul><li>a</li><li>b</li></ul>x<br>y</body></html>';
    expect(htmlToText(html)).toBe('Big Title\nOne bold word link\n* a\n* b\nx\ny');
  });

  it('decodes named and numeric entities', () => {
    expect(htmlToText('<p>p&amp;q &quot;&#39;&#x1F600;&hellip;&eacute;</p>')).toBe('p&q "\'😀…é');
  });
});
