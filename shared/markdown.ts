/**
 * A model's answer as Markdown: the one renderer for the app and the HTML report (markdown-it).
 *
 * Answers are untrusted. markdown-it with `html: false` never passes markup through: every character of the
 * answer reaches the output escaped, and only the tags its own rules write can appear. On top of that:
 * links only to http(s) (anything else stays text), opened apart from the page (target=_blank, rel
 * noopener noreferrer); images are never loaded (shown as text naming the image and its address); nesting
 * is capped (an answer nested deeper, a "markdown bomb" of 10,000 `>`, is shown as raw text rather than cut),
 * and an answer longer than MARKDOWN_MAX_CHARS is not rendered at all (raw text only). No DOM is needed, so the report renders in Node
 * at build time; the app still passes the output through DOMPurify before it touches the page.
 */
import MarkdownIt from 'markdown-it';

/** Longer answers are shown as raw text only: rendering a huge answer is slow and reads no better. */
export const MARKDOWN_MAX_CHARS = 200_000;

/** The tags the rules below can write; the app's sanitizer allows these and nothing else. */
export const MARKDOWN_TAGS = [
  'p',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'em',
  'strong',
  's',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'span',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
] as const;
/** The attributes those tags carry (`start` of an ordered list, a code block's language class, a table cell's alignment). */
export const MARKDOWN_ATTRS = ['href', 'title', 'target', 'rel', 'class', 'start', 'style'] as const;

/** Deeper quotes or lists (block or inline) are not rendered; markdown-it's own default is 100. */
const MAX_NESTING = 20;
const SAFE_LINK = /^https?:\/\/[^\s]+$/i;

export function isSafeLink(url: string): boolean {
  return SAFE_LINK.test(url.trim());
}

function createRenderer(): MarkdownIt {
  // maxNesting is a markdown-it option its type declarations leave out.
  const options = { html: false, linkify: false, typographer: false, breaks: false, maxNesting: MAX_NESTING };
  const md = new MarkdownIt('default', options);
  const escape = md.utils.escapeHtml;
  // Images pass validation too, so their address can be shown; the image rule below never loads it.
  md.validateLink = (url) => isSafeLink(url) || /^[^:]*$/.test(url.trim());
  md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
    const t = tokens[idx]!;
    const href = t.attrGet('href') ?? '';
    if (!isSafeLink(href)) {
      // A relative link means nothing outside the model's workspace: keep its text, drop the link.
      t.meta = { ...(t.meta as object | null), dropped: true };
      return '<span class="md-link-dropped">';
    }
    t.attrSet('target', '_blank');
    t.attrSet('rel', 'noopener noreferrer nofollow');
    return self.renderToken(tokens, idx, options);
  };
  md.renderer.rules.link_close = (tokens, idx, options, _env, self) => {
    // The matching open is the nearest unclosed link_open before this close.
    let depth = 0;
    for (let i = idx - 1; i >= 0; i--) {
      const t = tokens[i]!;
      if (t.type === 'link_close') depth++;
      else if (t.type === 'link_open' && depth-- === 0)
        return (t.meta as { dropped?: boolean } | null)?.dropped ? '</span>' : self.renderToken(tokens, idx, options);
    }
    return self.renderToken(tokens, idx, options);
  };
  md.renderer.rules.image = (tokens, idx) => {
    const t = tokens[idx]!;
    const src = t.attrGet('src') ?? '';
    const alt = t.children ? md.renderer.renderInlineAsText(t.children, md.options, {}) : t.content;
    return `<span class="md-image" title="${escape(`Image not loaded: ${src}`)}">[image: ${escape(alt || 'no description')}]</span>`;
  };
  return md;
}

let renderer: MarkdownIt | null = null;

export type RenderedMarkdown =
  | { readonly ok: true; readonly html: string }
  | { readonly ok: false; readonly reason: string };

/** The answer as HTML made only of MARKDOWN_TAGS, or why it is shown as raw text instead. */
export function renderMarkdown(text: string): RenderedMarkdown {
  if (text.length > MARKDOWN_MAX_CHARS)
    return {
      ok: false,
      reason: `Too long to render as Markdown (over ${MARKDOWN_MAX_CHARS.toLocaleString('en-US')} characters): shown as raw text.`,
    };
  renderer ??= createRenderer();
  const env = {};
  const tokens = renderer.parse(text, env);
  // markdown-it skips what lies past its nesting cap; rather than lose part of an answer, show it raw.
  if (tokens.some((t) => t.level >= MAX_NESTING - 1))
    return { ok: false, reason: `Nested more than ${MAX_NESTING} levels deep (quotes or lists): shown as raw text.` };
  return { ok: true, html: renderer.renderer.render(tokens, renderer.options, env) };
}
