/**
 * Reads the stored site through the ported browser tools only, as an agent would: from "/", click every
 * [Clickable '…'] link, scroll each page to its bottom, and collect the products and people the pages show.
 * A dead link is tried once more with "_" and "-" swapped (the site links /team/customer_support, whose page
 * is /team/customer-support). Answers are then computed from what was read, the way the original computes
 * its expected outputs.
 */
import { WEB_TOOLS } from '../../../../electron/tasks/m3tooleval/domains/web-browser.js';
import type { M3Session } from '../../../../electron/tasks/m3tooleval/m3-tool.js';
import { mul } from '../../../../electron/tasks/m3tooleval/py-arith.js';
import { pySum } from '../../../../electron/tasks/m3tooleval/py-expr.js';
import type { PyValue } from '../../../../electron/tasks/m3tooleval/py-value.js';

interface Person {
  readonly name: string;
  readonly department: string;
  readonly expertise: string;
  readonly email: string;
  readonly phone: string;
}

export interface BrowsedSite {
  readonly prices: ReadonlyMap<string, number>;
  readonly people: readonly Person[];
  /** Pages opened (each once). */
  readonly visited: readonly string[];
  answer(instruction: string): PyValue;
}

const call = (name: string, session: M3Session, ...args: PyValue[]): string => {
  const tool = WEB_TOOLS.find((t) => t.name === name)!;
  return tool.run(args, session) as string;
};

/** The lines a view shows between its rules, without the name and pagination header. */
function viewLines(view: string): string[] {
  const body = view.split('-'.repeat(10));
  const inner = body.length >= 3 ? body[body.length - 2] : view;
  return inner.split('\n').filter((l) => !/^\[(Web Page Name|Viewing page|Opened page)/.test(l));
}

export function browseStoredSite(): BrowsedSite {
  const session: M3Session = {};
  const visited: string[] = [];
  const queue = ['/'];
  const seen = new Set<string>();
  const pageText = new Map<string, string[]>();
  while (queue.length > 0) {
    const url = queue.shift()!;
    if (seen.has(url)) continue;
    seen.add(url);
    let opened = url === '/' ? call('view', session) : call('click_url', session, url);
    if (opened === '[URL not found.]') {
      const other = url.includes('_') ? url.replace(/_/g, '-') : url.replace(/-/g, '_');
      if (seen.has(other)) continue;
      seen.add(other);
      opened = call('click_url', session, other);
      if (opened === '[URL not found.]') continue;
    }
    const name = /\[Web Page Name: ([^\]]*)\]/.exec(opened)?.[1] ?? url;
    visited.push(name);
    const lines = viewLines(opened);
    for (;;) {
      const more = call('scroll_down', session);
      if (more.startsWith('[Reached the bottom')) break;
      lines.push(...viewLines(more));
    }
    pageText.set(name, lines);
    for (const line of lines) for (const m of line.matchAll(/\[Clickable '([^']*)'\]/g)) queue.push(m[1]);
  }

  const prices = new Map<string, number>();
  const people: Person[] = [];
  for (const lines of pageText.values()) {
    const text = lines.join('\n');
    const item = /^Item: (.+)$/m.exec(text)?.[1];
    if (item) {
      const all = [...text.matchAll(/\$(\d+(?:\.\d+)?)/g)].map((m) => Number(m[1]));
      prices.set(item, all[all.length - 1]);
    }
    const person = /^(.+) of (.+) Department$/m.exec(text);
    if (person) {
      const field = (key: string) => new RegExp(`^${key}: (.+)$`, 'm').exec(text)?.[1] ?? '';
      people.push({
        name: person[1],
        department: person[2],
        expertise: field('Expertise'),
        email: field('Email'),
        phone: field('Phone'),
      });
    }
  }

  const personNamed = (name: string) => {
    const p = people.find((x) => x.name === name);
    if (!p) throw new Error(`No page shows ${name}.`);
    return p;
  };
  return {
    prices,
    people,
    visited,
    answer(instruction) {
      let m: RegExpExecArray | null;
      if ((m = /^Find the current price of (.+)\.\n/.exec(instruction))) return prices.get(m[1]) ?? null;
      if ((m = /^Find the (email|department|phone number|expertise) of (.+)\.\n/.exec(instruction))) {
        const p = personNamed(m[2]);
        return { email: p.email, department: p.department, 'phone number': p.phone, expertise: p.expertise }[m[1]]!;
      }
      if ((m = /^Find the total price of \[(.+)\]( after applying a 10% off discount)?/.exec(instruction))) {
        const total = pySum(m[1].split(', ').map((item) => prices.get(item) ?? null));
        return m[2] ? mul(total, 0.9) : total;
      }
      if ((m = /^How many people are in the (.+) Department\?/.exec(instruction)))
        return BigInt(people.filter((p) => p.department === m![1]).length);
      if ((m = /^Which person's phone number is (.+)\?\n/.exec(instruction)))
        return people.find((p) => p.phone === m![1])?.name ?? null;
      throw new Error(`No reading for: ${instruction}`);
    },
  };
}
