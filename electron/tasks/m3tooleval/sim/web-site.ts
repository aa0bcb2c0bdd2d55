/**
 * What the simulated model knows of the stored site from the browser results it has read (view, click_url,
 * scroll_down, as their text reads), and what a web-browsing instruction asks of it. Shared by the ReAct
 * policy (web-react.ts), which decides where to click next from this, and the answer both modes give.
 */
import { pySum } from '../py-expr.js';
import { mul } from '../py-arith.js';
import type { PyValue } from '../py-value.js';

export type WebGoal =
  | { readonly kind: 'price'; readonly item: string }
  | { readonly kind: 'person'; readonly person: string; readonly field: 'email' | 'department' | 'phone' | 'expertise' }
  | { readonly kind: 'total'; readonly items: readonly string[]; readonly discount: boolean }
  | { readonly kind: 'count'; readonly department: string }
  | { readonly kind: 'owner'; readonly phone: string };

export function webGoal(text: string): WebGoal | null {
  let m: RegExpExecArray | null;
  if ((m = /Find the current price of (.+?)\.\s/.exec(text))) return { kind: 'price', item: m[1] };
  if ((m = /Find the (email|department|phone number|expertise) of (.+?)\.\s/.exec(text))) {
    return {
      kind: 'person',
      person: m[2],
      field: m[1] === 'phone number' ? 'phone' : (m[1] as 'email' | 'department' | 'expertise'),
    };
  }
  if ((m = /Find the total price of \[(.+?)\]( after applying a 10% off discount)?/.exec(text)))
    return { kind: 'total', items: m[1].split(/,\s*/), discount: Boolean(m[2]) };
  if ((m = /How many people are in the (.+?) Department\?/.exec(text))) return { kind: 'count', department: m[1] };
  if ((m = /Which person's phone number is (.+?)\?/.exec(text))) return { kind: 'owner', phone: m[1] };
  return null;
}

export interface PageSeen {
  readonly name: string;
  /** Lines per view number (1-based). */
  readonly views: Map<number, string[]>;
  total: number;
}

export interface Person {
  readonly name: string;
  readonly department: string;
  readonly expertise: string;
  readonly email: string;
  readonly phone: string;
}

export interface SiteKnowledge {
  readonly pages: Map<string, PageSeen>;
  /** Link target → the text before it on its line. */
  readonly links: Map<string, string>;
  /** URLs that answered "[URL not found.]". */
  readonly dead: Set<string>;
  readonly prices: Map<string, number>;
  readonly people: Map<string, Person>;
}

export function emptyKnowledge(): SiteKnowledge {
  return { pages: new Map(), links: new Map(), dead: new Set(), prices: new Map(), people: new Map() };
}

/** Reads one browser result into what is known; returns the page it shows, if any. */
export function learn(k: SiteKnowledge, text: string, clicked?: string): string | null {
  if (text.trim() === '[URL not found.]' || text.trim() === '[Page not found.]') {
    if (clicked) k.dead.add(clicked.replace(/'/g, ''));
    return null;
  }
  const name = /\[Web Page Name: ([^\]]*)\]/.exec(text)?.[1];
  const paging = /\[Viewing page (\d+) of (\d+)\]/.exec(text);
  if (!name || !paging) return null;
  const page = k.pages.get(name) ?? { name, views: new Map<number, string[]>(), total: 0 };
  page.total = Number(paging[2]);
  const body = text
    .slice(text.indexOf(paging[0]) + paging[0].length)
    .replace(/^\n\n?/, '')
    .replace(/\n-{10}\s*$/, '');
  const lines = body.split('\n');
  page.views.set(Number(paging[1]), lines);
  k.pages.set(name, page);
  for (const line of lines) {
    for (const m of line.matchAll(/\[Clickable '([^']*)'\]/g))
      k.links.set(m[1], line.slice(0, line.indexOf('[Clickable')).replace(/^-\s*/, '').trim());
  }
  const all = [...page.views.values()].flat().join('\n');
  const item = /^Item: (.+)$/m.exec(all)?.[1];
  const prices = [...all.matchAll(/\$(\d+(?:\.\d+)?)/g)];
  if (item && prices.length > 0) k.prices.set(item, Number(prices[prices.length - 1][1]));
  const person = /^(.+) of (.+) Department$/m.exec(all);
  if (person) {
    const field = (key: string) => new RegExp(`^${key}: (.+)$`, 'm').exec(all)?.[1] ?? '';
    k.people.set(person[1], {
      name: person[1],
      department: person[2],
      expertise: field('Expertise'),
      email: field('Email'),
      phone: field('Phone'),
    });
  }
  return name;
}

export const slugOf = (name: string): string => name.toLowerCase().replace(/\s+/g, '_');

/** A page all of whose views were read. */
export const fullySeen = (p: PageSeen | undefined): boolean => p !== undefined && p.views.size >= p.total;

/** The members a team page lists (its "- /team/…" lines), over the views read. */
export function membersOf(p: PageSeen): string[] {
  return [...p.views.values()].flat().flatMap((l) => /^- (\/team\/\S+)/.exec(l)?.[1] ?? []);
}

/**
 * The goal's answer from what is known, or null while something is missing. A total needs the calculator's
 * result (`sum`, passed in) before it is known.
 */
export function webAnswer(goal: WebGoal, k: SiteKnowledge): PyValue | null {
  switch (goal.kind) {
    case 'price':
      return k.prices.get(goal.item) ?? null;
    case 'person': {
      const p = k.people.get(goal.person);
      return p ? p[goal.field] : null;
    }
    case 'owner':
      return [...k.people.values()].find((p) => p.phone === goal.phone)?.name ?? null;
    case 'count': {
      const page = [...k.pages.values()].find((p) =>
        new RegExp(`^${goal.department} Team:`, 'i').test(p.views.get(1)?.[0] ?? ''),
      );
      return page && fullySeen(page) ? BigInt(membersOf(page).length) : null;
    }
    case 'total': {
      if (!goal.items.every((i) => k.prices.has(i))) return null;
      const sum = pySum(goal.items.map((i) => k.prices.get(i)!));
      return goal.discount ? mul(sum, 0.9) : sum;
    }
  }
}

/** The calculator expression a total is worked out with: the prices added, the discount applied. */
export function totalExpression(goal: Extract<WebGoal, { kind: 'total' }>, k: SiteKnowledge): string {
  const sum = goal.items.map((i) => String(k.prices.get(i))).join(' + ');
  return goal.discount ? `(${sum}) * 0.9` : sum;
}
