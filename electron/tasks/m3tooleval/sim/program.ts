/**
 * A plan written out as a program for run_code, in JavaScript (Code Mode) or Python (Code Mode (Python)): each
 * tool step a call of the tool as a function, each of the model's own steps an expression of the language, and
 * the answer printed last. `upTo` cuts the program after that many tool steps and prints what they returned
 * (a model looking at the results before it writes the rest).
 */
import { PyDict, PyTuple, repr, type PyValue } from '../py-value.js';
import type { Expr, Op, Plan } from './plan.js';

export type Language = 'javascript' | 'python';

function jsLiteral(v: PyValue): string {
  if (v === null) return 'null';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : v > 0 ? 'Infinity' : '-Infinity';
  if (typeof v === 'string' || typeof v === 'boolean') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(jsLiteral).join(', ')}]`;
  if (v instanceof PyTuple) return `[${v.items.map(jsLiteral).join(', ')}]`;
  return `{ ${(v as PyDict).entries.map(([k, x]) => `${JSON.stringify(String(k))}: ${jsLiteral(x)}`).join(', ')} }`;
}

const JS_OPS: Readonly<Record<Op, (a: string[]) => string>> = {
  at: ([x, k]) => `${x}[${k}]`,
  minBy: ([l, k]) => `${l}.reduce((a, b) => (b[${k}] < a[${k}] ? b : a))`,
  maxBy: ([l, k]) => `${l}.reduce((a, b) => (b[${k}] > a[${k}] ? b : a))`,
  min: ([l]) => `Math.min(...${l})`,
  max: ([l]) => `Math.max(...${l})`,
  mul: ([a, b]) => `${a} * ${b}`,
  add: ([a, b]) => `${a} + ${b}`,
  sub: ([a, b]) => `${a} - ${b}`,
  repeat: ([s, n]) => `${s}.repeat(${n})`,
  list: (a) => `[${a.join(', ')}]`,
  len: ([x]) => `${x}.length`,
  int: ([x]) => `Number(${x})`,
  pairs: ([d]) => `Object.entries(${d}).flat()`,
  without: ([l, w]) => `${l}.filter((h) => !h.preferences.includes(${w}))`,
  pickWhere: ([items, values, t]) => `${items}[${values}.indexOf(${t})]`,
  longestWhere: ([items, flags]) =>
    `${items}.filter((_, i) => ${flags}[i]).reduce((a, b) => (b.length > a.length ? b : a))`,
  contains: ([a, b]) => `${a}.includes(${b})`,
  split: ([a, b]) => `${a}.split(${b})`,
  join: ([l]) => `${l}.join('')`,
  cond: ([c, a, b]) => `(${c} ? ${a} : ${b})`,
};

const PY_OPS: Readonly<Record<Op, (a: string[]) => string>> = {
  at: ([x, k]) => `${x}[${k}]`,
  minBy: ([l, k]) => `min(${l}, key=lambda x: x[${k}])`,
  maxBy: ([l, k]) => `max(${l}, key=lambda x: x[${k}])`,
  min: ([l]) => `min(${l})`,
  max: ([l]) => `max(${l})`,
  mul: ([a, b]) => `${a} * ${b}`,
  add: ([a, b]) => `${a} + ${b}`,
  sub: ([a, b]) => `${a} - ${b}`,
  repeat: ([s, n]) => `${s} * ${n}`,
  list: (a) => `[${a.join(', ')}]`,
  len: ([x]) => `len(${x})`,
  int: ([x]) => `int(${x})`,
  pairs: ([d]) => `[v for kv in ${d}.items() for v in kv]`,
  without: ([l, w]) => `[h for h in ${l} if ${w} not in h['preferences']]`,
  pickWhere: ([items, values, t]) => `${items}[${values}.index(${t})]`,
  longestWhere: ([items, flags]) => `max([s for s, ok in zip(${items}, ${flags}) if ok], key=len)`,
  contains: ([a, b]) => `${b} in ${a}`,
  split: ([a, b]) => `${a}.split(${b})`,
  join: ([l]) => `''.join(${l})`,
  cond: ([c, a, b]) => `(${a} if ${c} else ${b})`,
};

function expr(e: Expr, lang: Language): string {
  if (e.k === 'lit') return lang === 'python' ? repr(e.v) : jsLiteral(e.v);
  if (e.k === 'ref') return e.name;
  const args = e.args.map((a) => expr(a, lang));
  // Arithmetic nested in arithmetic keeps its order.
  const wrapped = ['mul', 'add', 'sub'].includes(e.op) ? args.map((a) => (/ [-+*] /.test(a) ? `(${a})` : a)) : args;
  return (lang === 'python' ? PY_OPS : JS_OPS)[e.op](wrapped);
}

/** How the program prints its answer: Python's print, or JavaScript's print of a string, else its JSON. */
function printLine(name: string, lang: Language): string {
  return lang === 'python'
    ? `print(${name})`
    : `print(typeof ${name} === 'string' ? ${name} : JSON.stringify(${name}))`;
}

export function programOf(plan: Plan, lang: Language, upTo?: number): string {
  const lines: string[] = [];
  const decl = lang === 'python' ? '' : 'const ';
  let toolSteps = 0;
  for (const s of plan.steps) {
    if (upTo !== undefined && s.tool && toolSteps >= upTo) break;
    let value: string;
    if (s.tool) {
      const args = s.args.map((a, i) => {
        const text = expr(a, lang);
        return s.spread && i === s.args.length - 1 ? (lang === 'python' ? `*${text}` : `...${text}`) : text;
      });
      value = `${s.tool}(${args.join(', ')})`;
      toolSteps++;
    } else {
      value = expr({ k: 'op', op: s.op!, args: s.args }, lang);
    }
    if (s.when) {
      const c = expr(s.when, lang);
      lines.push(
        lang === 'python' ? `${s.name} = ${value} if ${c} else None` : `const ${s.name} = ${c} ? ${value} : null;`,
      );
    } else lines.push(lang === 'python' ? `${s.name} = ${value}` : `${decl}${s.name} = ${value};`);
  }
  if (upTo !== undefined) {
    const shown = plan.steps
      .filter((s) => s.tool)
      .slice(0, upTo)
      .map((s) => s.name);
    for (const name of shown)
      lines.push(
        lang === 'python'
          ? `print(${JSON.stringify(`${name}:`)}, ${name})`
          : `print(${JSON.stringify(`${name}:`)}, JSON.stringify(${name}));`,
      );
    return lines.join('\n');
  }
  lines.push(lang === 'python' ? `answer = ${expr(plan.answer, lang)}` : `const answer = ${expr(plan.answer, lang)};`);
  lines.push(printLine('answer', lang) + (lang === 'python' ? '' : ';'));
  return lines.join('\n');
}
