/**
 * Web browsing the ReAct way: look at the start page, then click towards what the instruction asks (the
 * products page, the item's category, the item; the teams page, every team, the person), several pages at once
 * when their links are known, scrolling a list that goes on below its first five lines, trying the other
 * spelling of a dead link ("_" for "-"), and answering once the page read holds the answer; a total is added
 * up with the calculator. Each click and scroll reads the real browser's text.
 */
import type { PlannedCall, SimReply } from '../../../sim/types.js';
import type { Conversation } from '../../../sim/policies/conversation.js';
import { m3Answer, m3Failure } from './answer.js';
import { readResult } from './react-policy.js';
import {
  emptyKnowledge,
  fullySeen,
  learn,
  slugOf,
  totalExpression,
  webAnswer,
  type SiteKnowledge,
  type WebGoal,
} from './web-site.js';

const WEB_TOOLS = new Set(['click_url', 'view', 'scroll_down', 'scroll_up', 'go_to_previous_page', 'calculator']);

const click = (url: string): PlannedCall => ({ name: 'click_url', arguments: JSON.stringify({ url }) });
const bare = (name: string): PlannedCall => ({ name, arguments: '{}' });

/** "/team/customer_support" ↔ "/team/customer-support": what a model tries after a dead link. */
const otherSpelling = (url: string): string => (url.includes('_') ? url.replace(/_/g, '-') : url.replace(/-/g, '_'));

/** The page a link opens, as known: itself, or its other spelling when the link was dead. */
function target(k: SiteKnowledge, url: string): { url: string; opened: boolean } | null {
  if (!k.dead.has(url)) return { url, opened: k.pages.has(url) };
  const other = otherSpelling(url);
  if (k.dead.has(other)) return null;
  return { url: other, opened: k.pages.has(other) };
}

interface Next {
  readonly clicks: string[];
  readonly scroll: string | null;
}

function productSteps(items: readonly string[], k: SiteKnowledge, current: string | null): Next {
  const clicks: string[] = [];
  let scroll: string | null = null;
  for (const item of items.filter((i) => !k.prices.has(i))) {
    const direct = [...k.links.keys()].find((u) => u.endsWith(`/${slugOf(item)}`));
    if (direct) {
      if (!k.pages.has(direct)) clicks.push(direct);
      continue;
    }
    const category = [...k.links.entries()]
      .filter(([, text]) => text !== '' && item.toLowerCase().endsWith(text.toLowerCase()))
      .sort((a, b) => b[1].length - a[1].length)[0]?.[0];
    const t = category ? target(k, category) : null;
    if (t && !t.opened) clicks.push(t.url);
    else if (t && !fullySeen(k.pages.get(t.url)) && (scroll === null || t.url === current)) scroll = t.url;
    else if (!category && !k.pages.has('/products') && k.links.has('/products')) clicks.push('/products');
  }
  return { clicks: [...new Set(clicks)], scroll };
}

function peopleSteps(goal: WebGoal, k: SiteKnowledge, current: string | null): Next {
  const personLinks = [...k.links.keys()].filter((u) => /^\/team\/[^/]+\/[^/]+$/.test(u));
  const people: string[] = [];
  if (goal.kind === 'person') {
    const link = personLinks.find((u) => u.endsWith(`/${slugOf(goal.person)}`));
    if (link) return { clicks: k.pages.has(link) ? [] : [link], scroll: null };
  } else if (goal.kind === 'owner') {
    people.push(...personLinks.filter((u) => !k.pages.has(u)));
  }
  const teams = [...k.links.entries()].filter(([u]) => /^\/team\/[^/]+$/.test(u)).map(([u, text]) => ({ u, text }));
  if (teams.length === 0)
    return { clicks: k.pages.has('/team') || !k.links.has('/team') ? [] : ['/team'], scroll: null };
  const relevant =
    goal.kind === 'count' ? teams.filter((t) => t.text.toLowerCase().startsWith(goal.department.toLowerCase())) : teams;
  const open: string[] = [];
  let scroll: string | null = null;
  for (const team of relevant) {
    const t = target(k, team.u);
    if (!t) continue;
    if (!t.opened) open.push(t.url);
    else if (!fullySeen(k.pages.get(t.url)) && (scroll === null || t.url === current)) scroll = t.url;
  }
  // People first, then the team pages: the last page opened is the one a scroll would read next.
  return { clicks: [...people, ...open], scroll };
}

export function reactWeb(conv: Conversation, goal: WebGoal): SimReply {
  const k = emptyKnowledge();
  const calls = conv.calls.filter((c) => WEB_TOOLS.has(c.name));
  if (calls.length === 0) return { kind: 'tools', text: '', calls: [bare('view')] };
  let current: string | null = '/';
  for (const c of calls) {
    const text = c.result ?? '';
    if (c.name === 'calculator') continue;
    if (/^\[Reached the bottom/.test(text.trim()) && current) {
      const page = k.pages.get(current);
      if (page) page.total = page.views.size;
      continue;
    }
    const shown = learn(k, text, c.name === 'click_url' ? String(c.args.url ?? '') : undefined);
    if (shown) current = shown;
  }
  let value = webAnswer(goal, k);
  if (value !== null && goal.kind === 'total') {
    const sum = [...calls].reverse().find((c) => c.name === 'calculator');
    if (!sum)
      return {
        kind: 'tools',
        text: '',
        calls: [{ name: 'calculator', arguments: JSON.stringify({ expression: totalExpression(goal, k) }) }],
      };
    value = readResult(sum.result ?? '');
  }
  if (value !== null) return m3Answer(value, goal.kind === 'total' || goal.kind === 'price' ? 'cents' : 'value', conv);

  const next =
    goal.kind === 'price'
      ? productSteps([goal.item], k, current)
      : goal.kind === 'total'
        ? productSteps(goal.items, k, current)
        : peopleSteps(goal, k, current);
  // A list the browser shows goes on below: read on first (the calls run in order), then open the rest; a list
  // elsewhere is opened again last, so that the next reply can read on.
  const out: PlannedCall[] = [];
  if (next.scroll !== null && next.scroll === current) out.push(bare('scroll_down'));
  out.push(...next.clicks.map(click));
  if (next.scroll !== null && next.scroll !== current && !next.clicks.includes(next.scroll))
    out.push(click(next.scroll));
  if (out.length > 0) return { kind: 'tools', text: '', calls: out };
  // Nothing to click towards the goal: read on where a page goes on below its view, the current one first.
  const unread =
    next.scroll ??
    [...k.pages.values()]
      .filter((p) => !fullySeen(p))
      .sort((a, b) => Number(b.name === current) - Number(a.name === current))[0]?.name ??
    null;
  if (unread) return { kind: 'tools', text: '', calls: [current === unread ? bare('scroll_down') : click(unread)] };
  return m3Failure('I browsed every page I could reach and did not find what the task asks for.');
}
