/**
 * A component rendered to markup (react-dom/server) and read back as a DOM tree (htmlparser2), so a unit test
 * can look at what a component shows for given data — its words, figures and data-* attributes — without a
 * browser. What needs one (layout, clicks, focus, colours) stays in the browser tests (tests/e2e).
 */
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { parseDocument } from 'htmlparser2';
import { findAll, getAttributeValue, textContent } from 'domutils';
import type { Document, Element } from 'domhandler';

export interface Rendered {
  readonly html: string;
  readonly doc: Document;
  /** Every element whose data-testid is `id`, in document order. */
  all(id: string): Element[];
  /** The one element whose data-testid is `id`; throws when there is none or more than one. */
  one(id: string): Element;
  /** The text of the one element whose data-testid is `id`. */
  text(id: string): string;
  /** An attribute of the one element whose data-testid is `id` (undefined when it has none). */
  attr(id: string, name: string): string | undefined;
}

export const textOf = (el: Element): string => textContent(el);
export const attrOf = (el: Element, name: string): string | undefined => getAttributeValue(el, name);

/** Elements under `root` that `match` accepts, in document order. */
export const select = (root: Document | Element, match: (el: Element) => boolean): Element[] => findAll(match, [root]);

export const byClass = (root: Document | Element, cls: string): Element[] =>
  select(root, (el) => (el.attribs.class ?? '').split(/\s+/).includes(cls));

export function render(node: ReactNode): Rendered {
  const html = renderToStaticMarkup(node);
  const doc = parseDocument(html);
  const all = (id: string) => select(doc, (el) => el.attribs['data-testid'] === id);
  const one = (id: string) => {
    const found = all(id);
    if (found.length !== 1)
      throw new Error(`${found.length} elements with data-testid=${id} in: ${html.slice(0, 400)}`);
    return found[0]!;
  };
  return {
    html,
    doc,
    all,
    one,
    text: (id) => textContent(one(id)),
    attr: (id, name) => getAttributeValue(one(id), name),
  };
}
