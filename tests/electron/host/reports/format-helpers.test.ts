import { describe, expect, it } from 'vitest';
import { mdCell } from '../../../../electron/host/reports/markdown-report.js';

describe('mdCell', () => {
  it('escapes pipes so a cell cannot split a table row', () => {
    expect(mdCell('a | b')).toBe('a \\| b');
  });

  it('turns every kind of line break into <br>, keeping the row on one line', () => {
    const out = mdCell('one\ntwo\r\nthree\rfour');
    expect(out).toBe('one<br>two<br>three<br>four');
    expect(out).not.toMatch(/[\r\n]/);
  });

  it('turns markup into entities so GitHub shows it as text', () => {
    expect(mdCell('<script>alert(1)</script> & <img src=x onerror=alert(1)>')).toBe(
      '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;img src=x onerror=alert(1)&gt;',
    );
  });

  it('escapes Markdown punctuation that would format or link the text', () => {
    expect(mdCell('*bold* _it_ `code` [link](u) # ~x~ \\')).toBe(
      '\\*bold\\* \\_it\\_ \\`code\\` \\[link\\](u) \\# \\~x\\~ \\\\',
    );
  });
});

describe('displayUrl', () => {
  it('drops a user:password part of a base URL and says so', async () => {
    const { displayUrl } = await import('../../../../electron/host/reports/report-text.js');
    expect(displayUrl('https://me:sk-secret@api.example.com/v1')).toBe(
      'https://api.example.com/v1 (credentials removed)',
    );
    expect(displayUrl('http://127.0.0.1:8000/v1')).toBe('http://127.0.0.1:8000/v1');
    expect(displayUrl('not a url')).toBe('not a url');
  });
});
