/**
 * Readable text from an HTML page: the title, and the visible text with markup, scripts and styles removed.
 * A regex pass is enough here: the model needs the words of a page, not a faithful DOM.
 */

/** Elements whose content is never visible text. */
const HIDDEN = ['head', 'title', 'script', 'style', 'noscript', 'template', 'svg', 'iframe', 'object'];
/** Elements that start a new line of text. */
const BLOCK =
  'address|article|aside|blockquote|br|caption|dd|div|dl|dt|fieldset|figcaption|figure|footer|form|h[1-6]|' +
  'header|hr|li|main|nav|ol|p|pre|section|table|tbody|td|tfoot|th|thead|tr|ul';

/** The Latin-1 entities, in code-point order from U+00A0 (nbsp) to U+00FF (yuml). */
const LATIN1 =
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute ' +
  'micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig ' +
  'Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash ' +
  'Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc ' +
  'euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml ' +
  'yacute thorn yuml';

const NAMED: Record<string, string> = {
  ...Object.fromEntries(LATIN1.split(' ').map((name, i) => [name, String.fromCodePoint(0xa0 + i)])),
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', shy: '', trade: '™', hellip: '…', mdash: '—',
  ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', bull: '•', euro: '€', zwj: '', zwnj: '',
  ensp: ' ', emsp: ' ', thinsp: ' ', larr: '←', rarr: '→', uarr: '↑', darr: '↓', hearts: '♥', check: '✓',
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
  // Line breaks in the source are plain spaces in HTML; only block elements start new lines.
  s = s.replace(/\s+/g, ' ');
  s = s.replace(new RegExp(`</?(?:${BLOCK})\\b[^>]*>`, 'gi'), '\n');
  s = s.replace(/<\/?[a-zA-Z!?][^>]*>/g, ''); // inline tags vanish: text on both sides joins as a browser shows it
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
