/**
 * One Python expression, read the way CPython reads it, for the two places M3ToolEval evaluates text:
 * `ast.literal_eval` (its scoring reads an answer as a literal when it can) and the `calculator` tool, which in
 * the original is `eval(expression)`. Here nothing is executed: the expression is parsed into a small tree and
 * only literals, arithmetic and a few pure built-ins (abs, round, min, max, sum, pow, int, float, len) are
 * evaluated, with caps on length, nesting and integer size.
 */
import { add, floordiv, mod, mul, neg, pos, pow, pyRound, sub, toFloat, truediv } from './py-arith.js';
import {
  iterate,
  numeric,
  PyDict,
  PyError,
  pyGreater,
  pyLen,
  pyLess,
  PyTuple,
  typeName,
  type PyValue,
} from './py-value.js';

export const MAX_EXPRESSION_CHARS = 10_000;
const MAX_DEPTH = 100;

type Node =
  | { readonly k: 'lit'; readonly v: PyValue }
  | { readonly k: 'list' | 'tuple' | 'set'; readonly items: readonly Node[] }
  | { readonly k: 'dict'; readonly pairs: readonly (readonly [Node, Node])[] }
  | { readonly k: 'unary'; readonly op: '-' | '+'; readonly x: Node }
  | { readonly k: 'bin'; readonly op: string; readonly a: Node; readonly b: Node }
  | { readonly k: 'name'; readonly id: string }
  | { readonly k: 'call'; readonly fn: Node; readonly args: readonly Node[] };

type Token = { readonly t: 'num' | 'str' | 'name' | 'op' | 'end'; readonly v: string; readonly value?: PyValue };

const syntax = (message: string) => new PyError('SyntaxError', message);

const DIGITS = String.raw`\d(?:_?\d)*`;
const NUMBER_RE = new RegExp(
  String.raw`^(?:0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|` +
    String.raw`(?:(?:${DIGITS})?\.${DIGITS}|${DIGITS}\.?)(?:[eE][+-]?${DIGITS})?)[jJ]?`,
);
const OPS = ['**', '//', '+', '-', '*', '/', '%', '(', ')', '[', ']', '{', '}', ',', ':'];

function numberToken(text: string): PyValue {
  if (/[jJ]$/.test(text)) throw new PyError('ValueError', 'complex numbers are not supported here');
  const clean = text.replace(/_/g, '');
  if (/^0[xXoObB]/.test(clean)) return BigInt(clean.toLowerCase());
  if (/[.eE]/.test(clean)) return Number(clean);
  if (/^0+[1-9]/.test(clean)) throw syntax('leading zeros in decimal integer literals are not permitted');
  return BigInt(clean);
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '\n': '',
};

function unescape(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const next = body[++i];
    if (next === undefined) throw syntax('unterminated string literal');
    if (next in SIMPLE_ESCAPES) out += SIMPLE_ESCAPES[next];
    else if (/[0-7]/.test(next)) {
      const oct = /^[0-7]{1,3}/.exec(body.slice(i))![0];
      out += String.fromCodePoint(parseInt(oct, 8));
      i += oct.length - 1;
    } else if (next === 'x' || next === 'u' || next === 'U') {
      const len = next === 'x' ? 2 : next === 'u' ? 4 : 8;
      const hex = body.slice(i + 1, i + 1 + len);
      if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) throw syntax(`truncated \\${next} escape`);
      const code = parseInt(hex, 16);
      if (code > 0x10ffff) throw syntax('illegal Unicode character');
      out += String.fromCodePoint(code);
      i += len;
    } else if (next === 'N') throw new PyError('ValueError', '\\N{...} escapes are not supported here');
    else out += `\\${next}`;
  }
  return out;
}

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let depth = 0;
  while (i < src.length) {
    const ch = src[i];
    if (ch === ' ' || ch === '\t' || ch === '\f' || (ch === '\n' && depth > 0) || (ch === '\r' && depth > 0)) {
      i++;
      continue;
    }
    if (ch === '\\' && src[i + 1] === '\n') {
      i += 2;
      continue;
    }
    if (ch === '#') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (ch === '\n' || ch === '\r') {
      if (src.slice(i).trim() === '') break;
      throw syntax('invalid syntax: more than one line');
    }
    const str = /^([rRuUbBfF]{0,2})('''|"""|'|")/.exec(src.slice(i));
    if (str && (str[1] === '' || /^(r|u|b|f|rb|br|fr|rf)$/i.test(str[1])) && !/[\w]/.test(src[i - 1] ?? ' ')) {
      const prefix = str[1].toLowerCase();
      if (prefix.includes('b')) throw new PyError('ValueError', 'bytes literals are not supported here');
      if (prefix.includes('f')) throw new PyError('ValueError', 'f-strings are not literals');
      const quote = str[2];
      let j = i + str[0].length;
      let body = '';
      for (;;) {
        if (j >= src.length) throw syntax('unterminated string literal');
        if (src.startsWith(quote, j)) break;
        if (quote.length === 1 && src[j] === '\n') throw syntax('unterminated string literal');
        if (src[j] === '\\' && j + 1 < src.length) {
          body += src[j] + src[j + 1];
          j += 2;
          continue;
        }
        body += src[j++];
      }
      tokens.push({ t: 'str', v: body, value: prefix.includes('r') ? body : unescape(body) });
      i = j + quote.length;
      continue;
    }
    const numMatch = /^[0-9.]/.test(ch) ? NUMBER_RE.exec(src.slice(i)) : null;
    if (numMatch && numMatch[0] !== '.') {
      if (/^[A-Za-z_0-9]/.test(src.slice(i + numMatch[0].length))) throw syntax('invalid decimal literal');
      tokens.push({ t: 'num', v: numMatch[0], value: numberToken(numMatch[0]) });
      i += numMatch[0].length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i));
    if (name) {
      tokens.push({ t: 'name', v: name[0] });
      i += name[0].length;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw syntax(`invalid character '${ch}'`);
    if ('([{'.includes(op)) depth++;
    if (')]}'.includes(op)) depth--;
    tokens.push({ t: 'op', v: op });
    i += op.length;
  }
  tokens.push({ t: 'end', v: '' });
  return tokens;
}

class Parser {
  private at = 0;
  private depth = 0;
  constructor(private readonly tokens: readonly Token[]) {}

  private peek(): Token {
    return this.tokens[this.at];
  }
  private isOp(v: string): boolean {
    const t = this.peek();
    return t.t === 'op' && t.v === v;
  }
  private expect(v: string): void {
    if (!this.isOp(v)) throw syntax(`expected '${v}'${this.peek().t === 'end' ? ' before the end' : ''}`);
    this.at++;
  }
  private nest<T>(f: () => T): T {
    if (++this.depth > MAX_DEPTH) throw syntax('too many nested parentheses');
    try {
      return f();
    } finally {
      this.depth--;
    }
  }

  /** The whole input: an expression, or a bare tuple "1, 2". */
  top(): Node {
    const node = this.exprList(() => this.peek().t === 'end');
    if (this.peek().t !== 'end') throw syntax('invalid syntax');
    return node;
  }

  private exprList(atEnd: () => boolean): Node {
    const first = this.expr();
    if (!this.isOp(',')) return first;
    const items = [first];
    while (this.isOp(',')) {
      this.at++;
      if (atEnd()) break;
      items.push(this.expr());
    }
    return { k: 'tuple', items };
  }

  expr(): Node {
    return this.nest(() => this.binary(0));
  }

  private static LEVELS: readonly (readonly string[])[] = [
    ['+', '-'],
    ['*', '/', '//', '%'],
  ];

  private binary(level: number): Node {
    if (level >= Parser.LEVELS.length) return this.unary();
    let left = this.binary(level + 1);
    for (;;) {
      const t = this.peek();
      if (t.t !== 'op' || !Parser.LEVELS[level].includes(t.v)) return left;
      this.at++;
      left = { k: 'bin', op: t.v, a: left, b: this.binary(level + 1) };
    }
  }

  private unary(): Node {
    if (this.isOp('-') || this.isOp('+')) {
      const op = this.peek().v as '-' | '+';
      this.at++;
      return this.nest(() => ({ k: 'unary', op, x: this.unary() }));
    }
    return this.power();
  }

  private power(): Node {
    const base = this.postfix();
    if (!this.isOp('**')) return base;
    this.at++;
    return { k: 'bin', op: '**', a: base, b: this.nest(() => this.unary()) };
  }

  private postfix(): Node {
    let node = this.atom();
    while (this.isOp('(')) {
      this.at++;
      const args: Node[] = [];
      while (!this.isOp(')')) {
        args.push(this.expr());
        if (!this.isOp(',')) break;
        this.at++;
      }
      this.expect(')');
      node = { k: 'call', fn: node, args };
    }
    return node;
  }

  private atom(): Node {
    const t = this.peek();
    if (t.t === 'num') {
      this.at++;
      return { k: 'lit', v: t.value! };
    }
    if (t.t === 'str') {
      // Adjacent literals join: 'a' 'b' is 'ab'.
      let text = '';
      while (this.peek().t === 'str') text += this.tokens[this.at++].value as string;
      return { k: 'lit', v: text };
    }
    if (t.t === 'name') {
      this.at++;
      if (t.v === 'True') return { k: 'lit', v: true };
      if (t.v === 'False') return { k: 'lit', v: false };
      if (t.v === 'None') return { k: 'lit', v: null };
      return { k: 'name', id: t.v };
    }
    if (t.t === 'op' && t.v === '(') {
      this.at++;
      if (this.isOp(')')) {
        this.at++;
        return { k: 'tuple', items: [] };
      }
      const inner = this.nest(() => this.exprList(() => this.isOp(')')));
      this.expect(')');
      return inner;
    }
    if (t.t === 'op' && t.v === '[') {
      this.at++;
      const items = this.items(']');
      return { k: 'list', items };
    }
    if (t.t === 'op' && t.v === '{') {
      this.at++;
      if (this.isOp('}')) {
        this.at++;
        return { k: 'dict', pairs: [] };
      }
      const first = this.expr();
      if (!this.isOp(':')) {
        const rest = this.isOp(',') ? (this.at++, this.items('}')) : (this.expect('}'), []);
        return { k: 'set', items: [first, ...rest] };
      }
      const pairs: [Node, Node][] = [];
      let key = first;
      for (;;) {
        this.expect(':');
        pairs.push([key, this.expr()]);
        if (!this.isOp(',')) break;
        this.at++;
        if (this.isOp('}')) break;
        key = this.expr();
      }
      this.expect('}');
      return { k: 'dict', pairs };
    }
    throw syntax(t.t === 'end' ? 'unexpected end of the expression' : `invalid syntax at '${t.v}'`);
  }

  private items(close: string): Node[] {
    const items: Node[] = [];
    while (!this.isOp(close)) {
      items.push(this.expr());
      if (!this.isOp(',')) break;
      this.at++;
    }
    this.expect(close);
    return items;
  }
}

export function parseExpression(src: string): Node {
  if (src.length > MAX_EXPRESSION_CHARS)
    throw new PyError('ValueError', `the expression is longer than ${MAX_EXPRESSION_CHARS} characters`);
  // ast.literal_eval and eval both strip leading spaces and tabs of a string.
  return new Parser(tokenize(src.replace(/^[ \t]+/, ''))).top();
}

function hashable(v: PyValue): PyValue {
  if (Array.isArray(v) || v instanceof PyDict) throw new PyError('TypeError', `unhashable type: '${typeName(v)}'`);
  if (v instanceof PyTuple) v.items.forEach(hashable);
  return v;
}

/** ast.literal_eval: literals, containers and a sign on a number; anything else raises. Sets are refused too. */
export function literalEval(src: string): PyValue {
  const walk = (n: Node): PyValue => {
    switch (n.k) {
      case 'lit':
        return n.v;
      case 'list':
        return n.items.map(walk);
      case 'tuple':
        return new PyTuple(n.items.map(walk));
      case 'dict': {
        const d = new PyDict();
        for (const [k, v] of n.pairs) d.set(hashable(walk(k)), walk(v));
        return d;
      }
      case 'unary': {
        if (n.x.k !== 'lit' || (typeof n.x.v !== 'bigint' && typeof n.x.v !== 'number'))
          throw new PyError('ValueError', 'malformed node or string');
        return n.op === '-' ? neg(n.x.v) : n.x.v;
      }
      case 'bin':
      case 'call':
      case 'name':
      case 'set':
      default:
        // Sets print in hash order, which this port cannot reproduce; no expected output is a set.
        throw new PyError('ValueError', 'malformed node or string');
    }
  };
  return walk(parseExpression(src));
}

const BINARY: Readonly<Record<string, (a: PyValue, b: PyValue) => PyValue>> = {
  '+': add,
  '-': sub,
  '*': mul,
  '/': truediv,
  '//': floordiv,
  '%': mod,
  '**': pow,
};

function extremum(name: 'min' | 'max', args: PyValue[]): PyValue {
  if (args.length === 0) throw new PyError('TypeError', `${name} expected at least 1 argument, got 0`);
  const items = args.length === 1 ? iterate(args[0]) : args;
  if (items.length === 0) throw new PyError('ValueError', `${name}() arg is an empty sequence`);
  return items.reduce((best, x) => ((name === 'max' ? pyGreater(x, best) : pyLess(x, best)) ? x : best));
}

/** max(*args) / min(*args) as the built-ins behave (one argument: its items), for tools that are the built-ins. */
export const pyMax = (args: PyValue[]): PyValue => extremum('max', args);
export const pyMin = (args: PyValue[]): PyValue => extremum('min', args);

export function pySum(items: PyValue[], start: PyValue = 0n): PyValue {
  return items.reduce((acc, x) => add(acc, x), start);
}

function toInt(v: PyValue): PyValue {
  if (typeof v === 'string') {
    const t = v.trim().replace(/_/g, '');
    if (!/^[+-]?\d+$/.test(t))
      throw new PyError('ValueError', `invalid literal for int() with base 10: ${JSON.stringify(v)}`);
    return BigInt(t);
  }
  const n = numeric(v);
  if (n === undefined)
    throw new PyError(
      'TypeError',
      `int() argument must be a string, a bytes-like object or a real number, not '${typeName(v)}'`,
    );
  if (typeof n === 'bigint') return n;
  if (!Number.isFinite(n))
    throw new PyError(Number.isNaN(n) ? 'ValueError' : 'OverflowError', 'cannot convert float to integer');
  return BigInt(Math.trunc(n));
}

const BUILTINS: Readonly<Record<string, (args: PyValue[]) => PyValue>> = {
  abs: ([x]) => {
    const n = numeric(x);
    if (n === undefined) throw new PyError('TypeError', `bad operand type for abs(): '${typeName(x)}'`);
    return typeof n === 'bigint' ? (n < 0n ? -n : n) : Math.abs(n);
  },
  round: ([x, d]) => pyRound(x, d),
  min: pyMin,
  max: pyMax,
  sum: ([items, start]) => pySum(iterate(items), start ?? 0n),
  pow: ([a, b]) => pow(a, b),
  int: ([x]) => (x === undefined ? 0n : toInt(x)),
  float: ([x]) =>
    x === undefined
      ? 0
      : typeof x === 'string'
        ? parseFloatText(x)
        : toFloat(
            numeric(x) ??
              (() => {
                throw new PyError(
                  'TypeError',
                  `float() argument must be a string or a real number, not '${typeName(x)}'`,
                );
              })(),
          ),
  len: ([x]) => pyLen(x),
};

function parseFloatText(text: string): number {
  const t = text.trim().replace(/(\d)_(?=\d)/g, '$1');
  if (/^[+-]?(inf|infinity)$/i.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
  if (/^[+-]?nan$/i.test(t)) return NaN;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t))
    throw new PyError('ValueError', `could not convert string to float: ${JSON.stringify(text)}`);
  return Number(t);
}

/** The calculator's eval: arithmetic on literals and the built-ins above; a name it does not know raises NameError. */
export function evalExpression(src: string): PyValue {
  const walk = (n: Node): PyValue => {
    switch (n.k) {
      case 'lit':
        return n.v;
      case 'list':
        return n.items.map(walk);
      case 'tuple':
        return new PyTuple(n.items.map(walk));
      case 'set':
        throw new PyError('ValueError', 'sets are not supported here');
      case 'dict': {
        const d = new PyDict();
        for (const [k, v] of n.pairs) d.set(hashable(walk(k)), walk(v));
        return d;
      }
      case 'unary':
        return n.op === '-' ? neg(walk(n.x)) : pos(walk(n.x));
      case 'bin':
        return BINARY[n.op](walk(n.a), walk(n.b));
      case 'name':
        throw new PyError('NameError', `name '${n.id}' is not defined`);
      case 'call': {
        if (n.fn.k !== 'name' || !Object.hasOwn(BUILTINS, n.fn.id)) {
          throw new PyError(
            'NameError',
            n.fn.k === 'name' ? `name '${n.fn.id}' is not defined` : 'only built-in functions can be called',
          );
        }
        return BUILTINS[n.fn.id](n.args.map(walk));
      }
    }
  };
  return walk(parseExpression(src));
}
