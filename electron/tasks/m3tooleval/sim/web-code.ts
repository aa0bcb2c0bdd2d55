/**
 * Web browsing the Code Mode way: one look at the start page, then one program that follows the links the task
 * needs (products → category → item; teams → team → person) through click_url, reading each page whole with
 * scroll_down, trying the other spelling of a dead link, and prints the answer worked out from the pages.
 */
import type { SimReply } from '../../../sim/types.js';
import { callTools } from '../../../sim/types.js';
import { programOutput } from '../../../sim/policies/common.js';
import { lastCall, type Conversation } from '../../../sim/policies/conversation.js';
import { programLanguage } from '../../../sim/policies/programs.js';
import { m3Answer, m3Failure } from './answer.js';
import { slugOf, type WebGoal } from './web-site.js';
import type { Language } from './program.js';

const q = JSON.stringify;

/** Reads a page whole (a dead link tried once more with "_" and "-" swapped), and its "- text [Clickable 'url']" links. */
const JS_READ = `const body = (text) => text.split('\\n').filter((l) => !/^(-{10}|\\[(Web Page Name|Viewing page|Opened page)[^\\]]*\\])$/.test(l));
const read = (url) => {
  let text = click_url(url);
  if (text.startsWith('[URL not found')) {
    text = click_url(url.includes('_') ? url.replace(/_/g, '-') : url.replace(/-/g, '_'));
    if (text.startsWith('[URL not found')) return null;
  }
  let lines = body(text);
  const paging = /\\[Viewing page (\\d+) of (\\d+)\\]/.exec(text);
  for (let i = Number(paging[1]); i < Number(paging[2]); i++) {
    const more = scroll_down();
    if (more.startsWith('[Reached the bottom')) break;
    lines = lines.concat(body(more));
  }
  return lines.join('\\n').trim();
};
const links = (page) => [...page.matchAll(/^- (.*?) ?\\[Clickable '([^']*)'\\]/gm)].map((m) => ({ text: m[1], url: m[2] }));`;

const PY_READ = `import re
def body(text):
    return [l for l in text.split('\\n') if not re.match(r'^(-{10}|\\[(Web Page Name|Viewing page|Opened page)[^\\]]*\\])$', l)]
def read(url):
    text = click_url(url)
    if text.startswith('[URL not found'):
        text = click_url(url.replace('_', '-') if '_' in url else url.replace('-', '_'))
        if text.startswith('[URL not found'):
            return None
    lines = body(text)
    at, of = map(int, re.search(r'\\[Viewing page (\\d+) of (\\d+)\\]', text).groups())
    for _ in range(at, of):
        more = scroll_down()
        if more.startswith('[Reached the bottom'):
            break
        lines += body(more)
    return '\\n'.join(lines).strip()
def links(page):
    return [{'text': m[0], 'url': m[1]} for m in re.findall(r"^- (.*?) ?\\[Clickable '([^']*)'\\]", page, re.M)]`;

const JS_PRICE = `const products = read('/products');
const lists = {};
const priceOf = (item) => {
  const category = links(products).find((l) => item.toLowerCase().endsWith(l.text.toLowerCase()));
  lists[category.url] = lists[category.url] || read(category.url);
  const slug = item.toLowerCase().replace(/ /g, '_');
  const page = read(links(lists[category.url]).find((l) => l.url.endsWith('/' + slug)).url);
  const prices = [...page.matchAll(/\\$(\\d+(?:\\.\\d+)?)/g)];
  return Number(prices[prices.length - 1][1]);
};`;

const PY_PRICE = `products = read('/products')
lists = {}
def price_of(item):
    category = next(l for l in links(products) if item.lower().endswith(l['text'].lower()))
    if category['url'] not in lists:
        lists[category['url']] = read(category['url'])
    slug = item.lower().replace(' ', '_')
    page = read(next(l for l in links(lists[category['url']]) if l['url'].endswith('/' + slug))['url'])
    return float(re.findall(r'\\$(\\d+(?:\\.\\d+)?)', page)[-1])`;

const JS_TEAMS = `const teams = links(read('/team'));
const people = [];
for (const team of teams) {
  const list = read(team.url);
  if (list) people.push(...links(list).map((l) => l.url));
}`;

const PY_TEAMS = `teams = links(read('/team'))
people = []
for team in teams:
    found = read(team['url'])
    if found:
        people += [l['url'] for l in links(found)]`;

const FIELD = { email: 'Email', phone: 'Phone', expertise: 'Expertise' } as const;

function jsAnswer(goal: WebGoal): string {
  switch (goal.kind) {
    case 'price':
      return `${JS_PRICE}\nprint(priceOf(${q(goal.item)}));`;
    case 'total':
      return `${JS_PRICE}\nconst total = ${q(goal.items)}.reduce((sum, item) => sum + priceOf(item), 0);\nprint(${goal.discount ? 'total * 0.9' : 'total'});`;
    case 'person': {
      const pick =
        goal.field === 'department'
          ? `/ of (.+) Department/.exec(page)[1]`
          : `/^${FIELD[goal.field]}: (.+)$/m.exec(page)[1]`;
      return `${JS_TEAMS}\nconst page = read(people.find((url) => url.endsWith(${q(`/${slugOf(goal.person)}`)})));\nprint(${pick});`;
    }
    case 'count':
      return `const team = links(read('/team')).find((l) => l.text.toLowerCase().startsWith(${q(goal.department.toLowerCase())}));\nprint(links(read(team.url)).length);`;
    case 'owner':
      return `${JS_TEAMS}\nfor (const url of people) {
  const page = read(url);
  if (page.includes(${q(`Phone: ${goal.phone}`)})) {
    print(/^(.+) of .+ Department$/m.exec(page)[1]);
    break;
  }
}`;
  }
}

function pyAnswer(goal: WebGoal): string {
  switch (goal.kind) {
    case 'price':
      return `${PY_PRICE}\nprint(price_of(${q(goal.item)}))`;
    case 'total':
      return `${PY_PRICE}\ntotal = sum(price_of(item) for item in ${q(goal.items)})\nprint(${goal.discount ? 'total * 0.9' : 'total'})`;
    case 'person': {
      const pick =
        goal.field === 'department'
          ? `re.search(r' of (.+) Department', page).group(1)`
          : `re.search(r'^${FIELD[goal.field]}: (.+)$', page, re.M).group(1)`;
      return `${PY_TEAMS}\npage = read(next(url for url in people if url.endswith(${q(`/${slugOf(goal.person)}`)})))\nprint(${pick})`;
    }
    case 'count':
      return `team = next(l for l in links(read('/team')) if l['text'].lower().startswith(${q(goal.department.toLowerCase())}))\nprint(len(links(read(team['url']))))`;
    case 'owner':
      return `${PY_TEAMS}\nfor url in people:
    page = read(url)
    if ${q(`Phone: ${goal.phone}`)} in page:
        print(re.search(r'^(.+) of .+ Department$', page, re.M).group(1))
        break`;
  }
}

export function webProgram(goal: WebGoal, lang: Language): string {
  return lang === 'python' ? `${PY_READ}\n${pyAnswer(goal)}` : `${JS_READ}\n${jsAnswer(goal)}`;
}

export function codeWeb(conv: Conversation, goal: WebGoal): SimReply {
  const lang = programLanguage(conv);
  const programs = conv.calls.filter((c) => c.name === 'run_code');
  // The start page whole: its links to the products and the teams.
  const look = lang === 'python' ? 'print(view())\nprint(scroll_down())' : 'print(view());\nprint(scroll_down());';
  if (programs.length === 0) return callTools([{ name: 'run_code', args: { code: look } }]);
  const crawl = webProgram(goal, lang);
  const ran = lastCall(conv, 'run_code', (a) => a.code === crawl);
  if (!ran) return callTools([{ name: 'run_code', args: { code: crawl } }]);
  const out = programOutput(ran.result);
  const printed = out.printed.trim().split('\n').pop() ?? '';
  if (out.error || printed === '')
    return m3Failure(`My program did not find the answer: ${out.error ?? 'it printed nothing'}`);
  return m3Answer(printed, goal.kind === 'total' || goal.kind === 'price' ? 'cents' : 'value', conv);
}
