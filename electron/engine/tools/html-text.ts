/**
 * Light text helpers for HTML: collapsing whitespace and a small tag stripper. The full conversion (htmlparser2
 * through html-to-text) is in html-convert.ts, loaded only where a page is converted, because it is a tenth of a
 * worker's memory and most runs never fetch a page.
 */
/** Collapse spaces and tabs inside lines, drop empty lines, trim. */
export function collapse(text: string): string {
  return text
    .split(/\r?\n|\r/)
    .map((line) => line.replace(/[\s\u00a0]+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

const BLOCKS = new Set([
  'p',
  'div',
  'br',
  'li',
  'tr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'section',
  'article',
  'header',
  'footer',
  'table',
  'ul',
  'ol',
]);

/** The lower-case tag name starting at `from` ('' for a closing tag, a comment or a doctype). */
function tagName(lower: string, from: number): string {
  let end = from;
  while (end < lower.length && end - from < 10) {
    const c = lower.charCodeAt(end);
    if ((c < 97 || c > 122) && (c < 48 || c > 57 || end === from)) break;
    end++;
  }
  return lower.slice(from, end);
}

/**
 * The fallback when a page cannot be parsed in time: tags, comments, scripts and styles removed by one linear
 * scan (no regular expression that could backtrack, no tree that could nest without end), basic entities decoded.
 */
export function stripTags(html: string): { title: string; text: string } {
  const lower = html.toLowerCase();
  const titleStart = lower.indexOf('<title');
  const titleOpen = titleStart >= 0 ? lower.indexOf('>', titleStart) : -1;
  const titleEnd = titleOpen >= 0 ? lower.indexOf('</title', titleOpen) : -1;
  const title =
    titleEnd > titleOpen ? collapse(decodeEntities(html.slice(titleOpen + 1, titleEnd))).replace(/\n/g, ' ') : '';
  const parts: string[] = [];
  // Runs of tags without text between them (a page nested 200,000 deep) add nothing but one line break.
  const breakLine = (): void => {
    if (parts.length > 0 && parts[parts.length - 1] !== '\n') parts.push('\n');
  };
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      parts.push(html.slice(i));
      break;
    }
    if (lt > i) parts.push(html.slice(i, lt));
    let end: number;
    if (lower.startsWith('<!--', lt)) end = lower.indexOf('-->', lt + 4) + 3;
    else {
      const close = lower.indexOf('>', lt);
      end = close < 0 ? html.length : close + 1;
      const name = tagName(lower, lt + 1);
      // Whatever a script, style or the head says is not page text.
      if (name === 'script' || name === 'style' || name === 'title') {
        const closing = lower.indexOf(`</${name}`, end);
        end = closing < 0 ? html.length : lower.indexOf('>', closing) + 1 || html.length;
      }
      if (BLOCKS.has(name)) breakLine();
    }
    i = end <= lt ? html.length : end;
  }
  return { title, text: collapse(decodeEntities(parts.join(' '))) };
}
