/**
 * M3ToolEval's web browsing tools (code-act, MIT; see ../LICENSE-m3tooleval.md), written anew: a browser over
 * the stored pages (../data/web-pages.ts) that shows five lines at a time, with the original's page counts,
 * markers and messages (its "[Viewing page i of n]" counts one page too many when the lines divide evenly, as
 * the original does). Each run has its own browser, opened on "/".
 */
import { WEB_PAGES } from '../data/web-pages.js';
import { PyError, typeName, type PyValue } from '../py-value.js';
import type { M3Session, M3Tool } from '../m3-tool.js';
import { CALCULATOR_TOOL } from './trade-calculator.js';

interface Page {
  readonly name: string;
  readonly content: string;
}

const LINES_PER_VIEW = 5;
const RULE = '-'.repeat(10);

export class WebBrowser {
  private readonly byName: ReadonlyMap<string, Page>;
  private current: Page;
  private readonly history: Page[] = [];
  private lines: string[] = [];
  private scroll = 0;

  constructor(pages: readonly Page[] = WEB_PAGES, start = '/') {
    this.byName = new Map(pages.map((p) => [p.name, p]));
    const first = this.byName.get(start);
    if (!first) throw new Error(`The browser's start page ${start} is not among its pages.`);
    this.current = first;
    this.lines = first.content.split('\n');
  }

  private open(name: string): string {
    const page = this.byName.get(name);
    if (!page) return '[Page not found.]';
    this.history.push(this.current);
    this.show(page);
    return `[Opened page: ${name}]\n${this.view()}`;
  }

  private show(page: Page): void {
    this.current = page;
    this.lines = page.content.split('\n');
    this.scroll = 0;
  }

  clickUrl(url: PyValue): string {
    if (typeof url !== 'string')
      throw new PyError('AttributeError', `'${typeName(url)}' object has no attribute 'replace'`);
    const name = url.replace(/'/g, '');
    return this.byName.has(name) ? this.open(name) : '[URL not found.]';
  }

  goToPreviousPage(): string {
    const previous = this.history.pop();
    if (!previous) return '[No previous page.]';
    this.show(previous);
    return `[Opened page: ${previous.name}]\n${this.view()}`;
  }

  scrollDown(): string {
    if (this.scroll + LINES_PER_VIEW < this.lines.length) {
      this.scroll += LINES_PER_VIEW;
      return this.view();
    }
    return '[Reached the bottom of the page.]\n';
  }

  scrollUp(): string {
    if (this.scroll > 0) {
      this.scroll -= LINES_PER_VIEW;
      return this.view();
    }
    return '[Reached the top of the page.]\n';
  }

  view(): string {
    const total = this.lines.length;
    const many = total > LINES_PER_VIEW;
    const pageId = many ? Math.floor(this.scroll / LINES_PER_VIEW) + 1 : 1;
    const pages = many ? Math.floor(total / LINES_PER_VIEW) + 1 : 1;
    const name = this.current.name ? `[Web Page Name: ${this.current.name}]\n` : '';
    return `${RULE}\n${name}[Viewing page ${pageId} of ${pages}]\n\n${this.lines.slice(this.scroll, this.scroll + LINES_PER_VIEW).join('\n')}\n${RULE}`;
  }
}

const browserOf = (session: M3Session): WebBrowser => (session.browser ??= new WebBrowser());

export const WEB_TOOLS: readonly M3Tool[] = [
  {
    name: 'click_url',
    description:
      "Clicks on a URL. A clickable URL looks like [Clickable '<url_argument>'] in the webpage.\n" +
      'Arguments: url (str).\n' +
      'Returns the rendered content of the webpage after clicking the URL showing on the current rendered page.\n',
    params: [{ name: 'url', type: 'str' }],
    returns: 'string',
    pythonReturns: 'str',
    run: ([url], session) => browserOf(session).clickUrl(url),
  },
  {
    name: 'go_to_previous_page',
    description:
      'Goes back to the previous page. It has no arguments.\nAfter going back to the previous page, return the rendered content of the webpage.',
    params: [],
    returns: 'string',
    pythonReturns: 'str',
    run: (_args, session) => browserOf(session).goToPreviousPage(),
  },
  {
    name: 'scroll_down',
    description:
      'Scrolls down the view. It has no arguments.\nReturns the rendered content of the webpage after scrolling down.',
    params: [],
    returns: 'string',
    pythonReturns: 'str',
    run: (_args, session) => browserOf(session).scrollDown(),
  },
  {
    name: 'scroll_up',
    description:
      'Scrolls up the view. It has no arguments.\nReturns the rendered content of the webpage after scrolling up.',
    params: [],
    returns: 'string',
    pythonReturns: 'str',
    run: (_args, session) => browserOf(session).scrollUp(),
  },
  {
    name: 'view',
    description:
      'Return the current view in string format of the rendered webpage. It has no arguments.\n' +
      'Returns the rendered content of the webpage.\n' +
      'You should call this when you want to see the rendered content of the current webpage.',
    params: [],
    returns: 'string',
    pythonReturns: 'str',
    run: (_args, session) => browserOf(session).view(),
  },
  CALCULATOR_TOOL,
];
