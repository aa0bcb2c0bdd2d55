/**
 * The programs the scripted policies write, in the language the run_code tool asks for: JavaScript (Parallax's
 * Code Mode and Hybrid) or Python (when the tool's description says Python, as the reference tutorial's and
 * many other agents' sandboxes do). Both print the same lines (tab-separated rows, JSON objects, "title: …"),
 * so one parser reads either; the Python ones print objects with json.dumps, as print(dict) is not JSON.
 */
import type { Conversation } from './conversation.js';

import type { ProgramLanguage } from '../../../shared/modes.js';

export type { ProgramLanguage };

/** Python when the run_code description asks for it ("Run a Python program …"), else JavaScript. */
export function programLanguage(conv: Pick<Conversation, 'runCodeDescription'>): ProgramLanguage {
  return /\bpython\b/i.test(conv.runCodeDescription) && !/\bjavascript\b/i.test(conv.runCodeDescription)
    ? 'python'
    : 'javascript';
}

const q = JSON.stringify;

export const JS_PROGRAMS = {
  logStats: `const files = list_dir('.').filter((name) => name.endsWith('.txt')).sort();
if (files.length === 0) print('no .txt files');
const rows = files.map((name) => {
  const lines = read_file(name).split('\\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return { name, total: lines.length, errors: lines.filter((line) => line.includes('ERROR')).length };
});
for (const row of rows) print(row.name + '\\t' + row.total + '\\t' + row.errors);`,
  /** codeState 'persist': the count over the \`names\` the exploring program left stored. */
  logStatsReuse: `for (const name of names.filter((n) => n.endsWith('.txt')).sort()) {
  const lines = read_file(name).split('\\n');
  if (lines[lines.length - 1] === '') lines.pop();
  print(name + '\\t' + lines.length + '\\t' + lines.filter((line) => line.includes('ERROR')).length);
}`,
  /** The hasty count: split('\\n') leaves an empty piece after a final newline, one line too many. */
  logStatsSplit: `for (const name of list_dir('.').filter((n) => n.endsWith('.txt')).sort()) {
  const lines = read_file(name).split('\\n');
  print(name + '\\t' + lines.length + '\\t' + lines.filter((line) => line.includes('ERROR')).length);
}`,
  /** The first look on the tutorial profile: the listing alone (log-stats.ts says why). */
  exploreList: `const names = list_dir('.');
print(names.join('\\n'));`,
  explore: `const names = list_dir('.');
print(names.join('\\n'));
const sample = names.find((name) => name.endsWith('.txt'));
if (sample) print('first lines of ' + sample + ':\\n' + read_file(sample).split('\\n').slice(0, 3).join('\\n'));`,
  find: (variable: string, query: string) => `const ${variable} = search_tools(${q(query)})[0];`,
  printCall: (fn: string, arg: string) => `print(${fn}(${q(arg)}));`,
  guessTitle: (url: string) => `const html = fetchPage(${q(url)});
const title = html.match(/<title>([^<]*)<\\/title>/i)[1];
print('title: ' + title);`,
  inspectPage: (url: string) => `const page = fetchPage(${q(url)});
print('type: ' + typeof page + ', keys: ' + Object.keys(page).join(', '));
print('title: ' + page.title);`,
  describe: (variable: string) => `print(${variable}.describe());`,
  printTitle: (url: string) => `print('title: ' + fetchPage(${q(url)}).title);`,
  weatherF: (city: string) =>
    `const w = weather(${q(city)});\nprint(w);\nprint('fahrenheit: ' + (w.tempC * 9 / 5 + 32));`,
  printValue: (expression: string) => `print(${expression.replace(/\^/g, '**')});`,
  configPort: (file: string) => `print(JSON.parse(read_file(${q(file)})).server.port);`,
  writeErrors: (
    source: string,
    target: string,
  ) => `const lines = read_file(${q(source)}).split('\\n').filter((line) => line.includes('ERROR'));
write_file(${q(target)}, lines.map((line) => line + '\\n').join(''));
print('wrote ' + lines.length + ' ERROR lines to ' + ${q(target)});`,
  printFile: (file: string) => `print(read_file(${q(file)}));`,
  findAndRead: (stem: string) => `const walk = (folder) => list_dir(folder).flatMap((name) => {
  const path = folder === '.' ? name : folder + name;
  return name.endsWith('/') ? walk(path) : [path];
});
const found = walk('.').filter((path) => path.toLowerCase().split('/').pop().includes(${q(stem)}));
print('found: ' + found.join(', '));
if (found.length > 0) print(read_file(found[0]));`,
  ownerChain: `const counts = {};
for (const line of read_file('incidents.log').split('\\n')) {
  const m = /^\\S+\\s+ERROR\\s+\\[([\\w-]+)\\]/.exec(line);
  if (m) counts[m[1]] = (counts[m[1]] || 0) + 1;
}
const service = Object.keys(counts).sort((a, b) => counts[b] - counts[a])[0];
const config = JSON.parse(read_file('services/' + service + '.json'));
const person = JSON.parse(read_file('people/' + config.owner + '.json'));
print(JSON.stringify({ service, errors: counts[service], owner: config.owner, name: person.name }));`,
  catalogCalls: (calls: readonly { variable: string; query: string; args: readonly (string | number)[] }[]) =>
    [
      ...calls.map((c) => `const ${c.variable} = search_tools(${q(c.query)})[0];`),
      ...calls.map((c) => `print(JSON.stringify(${c.variable}(${c.args.map((a) => q(a)).join(', ')})));`),
    ].join('\n'),
  webLookup: (query: string, subject: string) => `const search = search_tools('search the web')[0];
const fetchPage = search_tools('download web page')[0];
const hits = search(${q(query)});
const hit = hits.find((h) => h.title.toLowerCase().includes(${q(subject.toLowerCase())})) || hits[0];
const page = fetchPage(hit.url);
const text = typeof page === 'string' ? page : page.text;
const m = /first lit in (\\d{4})/i.exec(text);
print(JSON.stringify({ title: hit.title, url: hit.url, year: m ? Number(m[1]) : null }));`,
};

export const PY_PROGRAMS: typeof JS_PROGRAMS = {
  logStats: `files = sorted(name for name in list_dir('.') if name.endswith('.txt'))
if not files:
    print('no .txt files')
for name in files:
    lines = read_file(name).splitlines()
    errors = sum(1 for line in lines if 'ERROR' in line)
    print(f"{name}\\t{len(lines)}\\t{errors}")`,
  logStatsReuse: `for name in sorted(n for n in names if n.endswith('.txt')):
    lines = read_file(name).splitlines()
    print(f"{name}\\t{len(lines)}\\t{sum(1 for line in lines if 'ERROR' in line)}")`,
  logStatsSplit: `for name in sorted(n for n in list_dir('.') if n.endswith('.txt')):
    lines = read_file(name).split('\\n')
    print(f"{name}\\t{len(lines)}\\t{sum(1 for line in lines if 'ERROR' in line)}")`,
  exploreList: `names = list_dir('.')
print('\\n'.join(names))`,
  explore: `names = list_dir('.')
print('\\n'.join(names))
sample = next((name for name in names if name.endswith('.txt')), None)
if sample:
    print('first lines of ' + sample + ':\\n' + '\\n'.join(read_file(sample).splitlines()[:3]))`,
  find: (variable: string, query: string) => `${snake(variable)} = search_tools(${q(query)})[0]`,
  printCall: (fn: string, arg: string) => `import json\nprint(json.dumps(${snake(fn)}(${q(arg)})))`,
  guessTitle: (url: string) => `import re
html = fetch_page(${q(url)})
title = re.search(r'<title>([^<]*)</title>', html, re.I).group(1)
print('title: ' + title)`,
  inspectPage: (url: string) => `page = fetch_page(${q(url)})
print('type: ' + type(page).__name__ + ', keys: ' + ', '.join(page))
print('title: ' + str(page.get('title')))`,
  describe: (variable: string) => `print(${snake(variable)}.describe())`,
  printTitle: (url: string) => `print('title: ' + fetch_page(${q(url)})['title'])`,
  weatherF: (city: string) =>
    `import json\nw = weather(${q(city)})\nprint(json.dumps(w))\nprint('fahrenheit: ' + str(w['tempC'] * 9 / 5 + 32))`,
  printValue: (expression: string) => `print(${expression.replace(/\^/g, '**')})`,
  configPort: (file: string) => `import json\nprint(json.loads(read_file(${q(file)}))['server']['port'])`,
  writeErrors: (
    source: string,
    target: string,
  ) => `lines = [line for line in read_file(${q(source)}).splitlines() if 'ERROR' in line]
write_file(${q(target)}, ''.join(line + '\\n' for line in lines))
print(f"wrote {len(lines)} ERROR lines to " + ${q(target)})`,
  printFile: (file: string) => `print(read_file(${q(file)}))`,
  findAndRead: (stem: string) => `def walk(folder):
    for name in list_dir(folder):
        path = name if folder == '.' else folder + name
        if name.endswith('/'):
            yield from walk(path)
        else:
            yield path
found = [path for path in walk('.') if ${q(stem)} in path.lower().split('/')[-1]]
print('found: ' + ', '.join(found))
if found:
    print(read_file(found[0]))`,
  ownerChain: `import json, re
counts = {}
for line in read_file('incidents.log').splitlines():
    m = re.match(r'^\\S+\\s+ERROR\\s+\\[([\\w-]+)\\]', line)
    if m:
        counts[m.group(1)] = counts.get(m.group(1), 0) + 1
service = max(counts, key=counts.get)
config = json.loads(read_file('services/' + service + '.json'))
person = json.loads(read_file('people/' + config['owner'] + '.json'))
print(json.dumps({'service': service, 'errors': counts[service], 'owner': config['owner'], 'name': person['name']}))`,
  catalogCalls: (calls: readonly { variable: string; query: string; args: readonly (string | number)[] }[]) =>
    [
      'import json',
      ...calls.map((c) => `${snake(c.variable)} = search_tools(${q(c.query)})[0]`),
      ...calls.map((c) => `print(json.dumps(${snake(c.variable)}(${c.args.map((a) => q(a)).join(', ')})))`),
    ].join('\n'),
  webLookup: (query: string, subject: string) => `import json, re
search = search_tools('search the web')[0]
fetch_page = search_tools('download web page')[0]
hits = search(${q(query)})
hit = next((h for h in hits if ${q(subject.toLowerCase())} in h['title'].lower()), hits[0])
page = fetch_page(hit['url'])
text = page if isinstance(page, str) else page['text']
m = re.search(r'first lit in (\\d{4})', text, re.I)
print(json.dumps({'title': hit['title'], 'url': hit['url'], 'year': int(m.group(1)) if m else None}))`,
};

/** fetchPage → fetch_page: each language's own naming. */
function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

export type Programs = typeof JS_PROGRAMS;

export function programsFor(conv: Pick<Conversation, 'runCodeDescription'>): Programs {
  return programLanguage(conv) === 'python' ? PY_PROGRAMS : JS_PROGRAMS;
}

/** Joins program lines; JavaScript and Python both take one statement per line. */
export const lines = (...parts: readonly string[]): string => parts.join('\n');
