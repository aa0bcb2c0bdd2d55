/**
 * Readable text from an HTML page: the title, and the visible text with markup, scripts and styles removed.
 * A regex pass is enough here: the model needs the words of a page, not a faithful DOM.
 */

/** Elements whose content is never visible text. */
const HIDDEN = ['head', 'script', 'style', 'noscript', 'template', 'svg', 'iframe', 'object'];
/** Elements that start a new line of text. */
const BLOCK =
  'address|article|aside|blockquote|br|caption|dd|div|dl|dt|fieldset|figcaption|figure|footer|form|h[1-6]|' +
  'header|hr|li|main|nav|ol|p|pre|section|table|tbody|td|tfoot|th|thead|tr|ul';

const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', shy: '', copy: '©', reg: '®', trade: '™',
  hellip: '…', mdash: '—', ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«', raquo: '»',
  middot: '·', bull: '•', deg: '°', euro: '€', pound: '£', yen: '¥', cent: '¢', times: '×', divide: '÷',
  plusmn: '±', para: '¶', sect: '§', zwj: '', zwnj: '', ensp: ' ', emsp: ' ', thinsp: ' ',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z][a-zA-Z0-9]{1,31});/g, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    return NAMED[body] ?? NAMED[body.toLowerCase()] ?? whole;
  });
}

/** The page's <title>, decoded and on one line; '' when it has none. */
export function htmlTitle(html: string): string {
  const match = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html);
  return match ? collapse(decodeEntities(match[1].replace(/<[^>]*>/g, ''))).replace(/\n/g, ' ') : '';
}

/** Visible text, one line per block, runs of spaces collapsed. */
export function htmlToText(html: string): string {
  let s = html.replace(/<!--[\s\S]*?-->/g, ' ');
  for (const tag of HIDDEN) {
    s = s.replace(new RegExp(`<${tag}\\b[^>]*>[\\s\\S]*?</${tag}\\s*>`, 'gi'), ' ');
  }
  s = s.replace(new RegExp(`</?(?:${BLOCK})\\b[^>]*>`, 'gi'), '\n');
  s = s.replace(/<\/?[a-zA-Z!?][^>]*>/g, ' ');
  return collapse(decodeEntities(s));
}

/** Collapse spaces and tabs inside lines, drop empty lines, trim. */
export function collapse(text: string): string {
  return text
    .split(/\r?\n|\r/)
    .map((line) => line.replace(/[\s\u00a0]+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}
