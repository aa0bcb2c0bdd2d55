/**
 * Readable text from an HTML page (loaded on demand: see html-text.ts): the title, and the visible text with markup, scripts and styles removed.
 * Parsing and entity decoding are htmlparser2's (through html-to-text), so real-world markup — unclosed
 * tags, every named entity, CDATA, comments — comes out as a browser would show it.
 */
import { DomUtils, parseDocument } from 'htmlparser2';
import { convert, type HtmlToTextOptions } from 'html-to-text';
import { collapse } from './html-text.js';

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } }));

const TEXT_OPTIONS: HtmlToTextOptions = {
  wordwrap: false,
  selectors: [
    // The model wants the words of the page; link targets and images would only add noise.
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    // Pages without <body> are converted whole: keep the head out of the text (the title is its own field).
    { selector: 'head', format: 'skip' },
    { selector: 'title', format: 'skip' },
    { selector: 'noscript', format: 'skip' },
    { selector: 'table', format: 'dataTable' },
    ...HEADINGS,
  ],
};

/** The page's <title>, decoded and on one line; '' when it has none. */
export function htmlTitle(html: string): string {
  const title = DomUtils.findOne((el) => el.name === 'title', parseDocument(html).children, true);
  return title ? collapse(DomUtils.textContent(title)).replace(/\n/g, ' ') : '';
}

/** Visible text, one line per block, runs of spaces collapsed. */
export function htmlToText(html: string): string {
  return collapse(convert(html, TEXT_OPTIONS));
}
