/**
 * The second line of defence for answers shown as Markdown: shared/markdown.ts already writes only its own
 * tags, and DOMPurify keeps exactly those (MARKDOWN_TAGS, MARKDOWN_ATTRS, http(s) links) before anything
 * reaches the page. Every link opens apart from the app: a new window is refused by the Electron shell and
 * handed to the system browser; in a browser it opens without an opener or a referrer.
 */
import DOMPurify from 'dompurify';
import { MARKDOWN_ATTRS, MARKDOWN_TAGS, renderMarkdown, type RenderedMarkdown } from '../../shared/markdown.js';

let hooked = false;

function purify(html: string): string {
  if (!hooked) {
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A') {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer nofollow');
      }
    });
    hooked = true;
  }
  return DOMPurify.sanitize(html, {
    ALLOWED_TAGS: [...MARKDOWN_TAGS],
    ALLOWED_ATTR: [...MARKDOWN_ATTRS],
    ALLOWED_URI_REGEXP: /^https?:\/\//i,
    ALLOW_DATA_ATTR: false,
  });
}

/** The answer as sanitized HTML, or why it is shown raw. */
export function answerHtml(text: string): RenderedMarkdown {
  const r = renderMarkdown(text);
  return r.ok ? { ok: true, html: purify(r.html) } : r;
}
