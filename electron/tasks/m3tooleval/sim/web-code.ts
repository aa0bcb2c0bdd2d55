/**
 * Web browsing the Code Mode way: one look at the start page (print(view())), then one program that walks the
 * part of the site the task is about (the products or the teams) through click_url and scroll_down, collecting
 * every line, trying the other spelling of a dead link, and prints the answer worked out from the lines.
 */
import type { SimReply } from '../../../sim/types.js';
import { callTools } from '../../../sim/types.js';
import { programOutput } from '../../../sim/policies/common.js';
import { lastCall, type Conversation } from '../../../sim/policies/conversation.js';
import { programLanguage } from '../../../sim/policies/programs.js';
import { m3Answer, m3Failure } from './answer.js';
import type { WebGoal } from './web-site.js';
import type { Language } from './program.js';

const q = JSON.stringify;

const JS_CRAWL = (root: string) => `const pages = {};
const queue = ['/'];
const seen = new Set();
const body = (text) => text.split('\\n').filter((l) => !/^(-{10}|\\[(Web Page Name|Viewing page|Opened page)[^\\]]*\\])$/.test(l));
while (queue.length > 0) {
  const url = queue.shift();
  if (seen.has(url) || !(url === '/' || url.startsWith(${q(root)}))) continue;
  seen.add(url);
  let text = url === '/' ? view() : click_url(url);
  if (text.startsWith('[URL not found')) {
    const other = url.includes('_') ? url.replace(/_/g, '-') : url.replace(/-/g, '_');
    if (seen.has(other)) continue;
    seen.add(other);
    text = click_url(other);
    if (text.startsWith('[URL not found')) continue;
  }
  const name = /\\[Web Page Name: ([^\\]]*)\\]/.exec(text)[1];
  let lines = body(text);
  for (;;) {
    const more = scroll_down();
    if (more.startsWith('[Reached the bottom')) break;
    lines = lines.concat(body(more));
  }
  pages[name] = lines.join('\\n').trim();
  for (const m of pages[name].matchAll(/\\[Clickable '([^']*)'\\]/g)) queue.push(m[1]);
}
const texts = Object.values(pages);`;

const PY_CRAWL = (root: string) => `import re
pages = {}
queue = ['/']
seen = set()
def body(text):
    return [l for l in text.split('\\n') if not re.match(r'^(-{10}|\\[(Web Page Name|Viewing page|Opened page)[^\\]]*\\])$', l)]
while queue:
    url = queue.pop(0)
    if url in seen or not (url == '/' or url.startswith(${q(root)})):
        continue
    seen.add(url)
    text = view() if url == '/' else click_url(url)
    if text.startswith('[URL not found'):
        other = url.replace('_', '-') if '_' in url else url.replace('-', '_')
        if other in seen:
            continue
        seen.add(other)
        text = click_url(other)
        if text.startswith('[URL not found'):
            continue
    name = re.search(r'\\[Web Page Name: ([^\\]]*)\\]', text).group(1)
    lines = body(text)
    while True:
        more = scroll_down()
        if more.startswith('[Reached the bottom'):
            break
        lines += body(more)
    pages[name] = '\\n'.join(lines).strip()
    queue += re.findall(r"\\[Clickable '([^']*)'\\]", pages[name])
texts = list(pages.values())`;

function jsAnswer(goal: WebGoal): string {
  switch (goal.kind) {
    case 'price':
      return `const page = texts.find((t) => t.includes(${q(`Item: ${goal.item}\n`)}));
const prices = [...page.matchAll(/\\$(\\d+(?:\\.\\d+)?)/g)];
print(Number(prices[prices.length - 1][1]));`;
    case 'total':
      return `const priceOf = (item) => {
  const page = texts.find((t) => t.includes('Item: ' + item + '\\n'));
  const prices = [...page.matchAll(/\\$(\\d+(?:\\.\\d+)?)/g)];
  return Number(prices[prices.length - 1][1]);
};
const total = ${q(goal.items)}.reduce((sum, item) => sum + priceOf(item), 0);
print(${goal.discount ? 'total * 0.9' : 'total'});`;
    case 'person':
      return `const page = texts.find((t) => t.startsWith(${q(`${goal.person} of `)}));
print(${goal.field === 'department' ? `/ of (.+) Department/.exec(page)[1]` : `new RegExp('^${{ email: 'Email', phone: 'Phone', expertise: 'Expertise' }[goal.field]}: (.+)$', 'm').exec(page)[1]`});`;
    case 'count':
      return `const team = texts.find((t) => t.startsWith(${q(`${goal.department} Team:`)}));
print(team.split('\\n').filter((l) => l.startsWith('- /team/')).length);`;
    case 'owner':
      return `const page = texts.find((t) => t.includes(${q(`Phone: ${goal.phone}`)}));
print(/^(.+) of .+ Department$/m.exec(page)[1]);`;
  }
}

function pyAnswer(goal: WebGoal): string {
  switch (goal.kind) {
    case 'price':
      return `page = next(t for t in texts if ${q(`Item: ${goal.item}\n`)} in t)
print(float(re.findall(r'\\$(\\d+(?:\\.\\d+)?)', page)[-1]))`;
    case 'total':
      return `def price_of(item):
    page = next(t for t in texts if 'Item: ' + item + '\\n' in t)
    return float(re.findall(r'\\$(\\d+(?:\\.\\d+)?)', page)[-1])
total = sum(price_of(item) for item in ${q(goal.items)})
print(${goal.discount ? 'total * 0.9' : 'total'})`;
    case 'person':
      return `page = next(t for t in texts if t.startswith(${q(`${goal.person} of `)}))
print(${goal.field === 'department' ? `re.search(r' of (.+) Department', page).group(1)` : `re.search(r'^${{ email: 'Email', phone: 'Phone', expertise: 'Expertise' }[goal.field]}: (.+)$', page, re.M).group(1)`})`;
    case 'count':
      return `team = next(t for t in texts if t.startswith(${q(`${goal.department} Team:`)}))
print(len([l for l in team.split('\\n') if l.startswith('- /team/')]))`;
    case 'owner':
      return `page = next(t for t in texts if ${q(`Phone: ${goal.phone}`)} in t)
print(re.search(r'^(.+) of .+ Department$', page, re.M).group(1))`;
  }
}

export function webProgram(goal: WebGoal, lang: Language): string {
  const root = goal.kind === 'price' || goal.kind === 'total' ? '/products' : '/team';
  return lang === 'python' ? `${PY_CRAWL(root)}\n${pyAnswer(goal)}` : `${JS_CRAWL(root)}\n${jsAnswer(goal)}`;
}

export function codeWeb(conv: Conversation, goal: WebGoal): SimReply {
  const lang = programLanguage(conv);
  const programs = conv.calls.filter((c) => c.name === 'run_code');
  const look = lang === 'python' ? 'print(view())' : 'print(view());';
  if (programs.length === 0) return callTools([{ name: 'run_code', args: { code: look } }]);
  const crawl = webProgram(goal, lang);
  const ran = lastCall(conv, 'run_code', (a) => a.code === crawl);
  if (!ran) return callTools([{ name: 'run_code', args: { code: crawl } }]);
  const out = programOutput(ran.result);
  const printed = out.printed.trim().split('\n').pop() ?? '';
  if (out.error || printed === '') return m3Failure(`My program did not find the answer: ${out.error ?? 'it printed nothing'}`);
  return m3Answer(printed, goal.kind === 'total' || goal.kind === 'price' ? 'cents' : 'value');
}
