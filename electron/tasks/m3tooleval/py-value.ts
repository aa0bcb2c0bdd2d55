/**
 * Python values as M3ToolEval's tools make them, so their results read exactly as the original's: an int is a
 * bigint, a float a number (7500.0 stays "7500.0"), a tuple and a dict keep their kind and order. The harness
 * shows a direct call's result as `str(result)` and scores answers by comparing such strings, so `repr` here
 * writes what CPython writes.
 */

export class PyTuple {
  constructor(readonly items: readonly PyValue[]) {}
}

/** A dict: insertion-ordered entries (keys are str, int, float, bool or tuple). */
export class PyDict {
  readonly entries: [PyValue, PyValue][] = [];
  get(key: PyValue): PyValue | undefined {
    return this.entries.find(([k]) => pyEquals(k, key))?.[1];
  }
  set(key: PyValue, value: PyValue): void {
    const at = this.entries.findIndex(([k]) => pyEquals(k, key));
    if (at >= 0) this.entries[at][1] = value;
    else this.entries.push([key, value]);
  }
  get size(): number {
    return this.entries.length;
  }
}

export type PyValue = null | boolean | bigint | number | string | readonly PyValue[] | PyTuple | PyDict;

/** A Python exception raised by a ported function: its type name and message, as `Type: message` reads. */
export class PyError extends Error {
  constructor(
    readonly pyType: string,
    message: string,
  ) {
    super(message);
    this.name = 'PyError';
  }
}

export function typeName(v: PyValue): string {
  if (v === null) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'float';
  if (typeof v === 'string') return 'str';
  if (Array.isArray(v)) return 'list';
  return v instanceof PyTuple ? 'tuple' : 'dict';
}

/** float.__repr__: the shortest digits that round-trip (as JavaScript finds them), written Python's way. */
export function floatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa, expText] = x.toExponential().split('e');
  const exp = Number(expText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace(/^-/, '').replace('.', '');
  const sign = negative ? '-' : '';
  // CPython's repr switches to exponent notation below 1e-4 and from 1e16 on.
  if (exp < -4 || exp >= 16) {
    const frac = digits.slice(1);
    const e = `${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
    return `${sign}${digits[0]}${frac ? `.${frac}` : ''}e${e}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const whole = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return `${sign}${whole}.${frac || '0'}`;
}

/** str.__repr__: single quotes unless the text holds a single quote and no double quote. */
export function strRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (!isPrintable(ch))
      out +=
        code <= 0xff
          ? `\\x${code.toString(16).padStart(2, '0')}`
          : code <= 0xffff
            ? `\\u${code.toString(16).padStart(4, '0')}`
            : `\\U${code.toString(16).padStart(8, '0')}`;
    else out += ch;
  }
  return out + quote;
}

/** Python's str.isprintable for one character: not in the Other or Separator categories, a space excepted. */
function isPrintable(ch: string): boolean {
  return ch === ' ' || !/[\p{C}\p{Z}]/u.test(ch);
}

export function repr(v: PyValue): string {
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return floatRepr(v);
  if (typeof v === 'string') return strRepr(v);
  if (Array.isArray(v)) return `[${v.map(repr).join(', ')}]`;
  if (v instanceof PyTuple)
    return v.items.length === 1 ? `(${repr(v.items[0])},)` : `(${v.items.map(repr).join(', ')})`;
  return `{${(v as PyDict).entries.map(([k, x]) => `${repr(k)}: ${repr(x)}`).join(', ')}}`;
}

/** str(): a string is itself, everything else its repr. */
export function str(v: PyValue): string {
  return typeof v === 'string' ? v : repr(v);
}

/** ==, with Python's numeric tower (1 == 1.0 == True) and element-wise containers. */
export function pyEquals(a: PyValue, b: PyValue): boolean {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) {
    if (typeof na === 'bigint' && typeof nb === 'bigint') return na === nb;
    return numEq(na, nb);
  }
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (a === null || b === null) return a === b;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => pyEquals(x, b[i]));
  if (a instanceof PyTuple && b instanceof PyTuple)
    return a.items.length === b.items.length && a.items.every((x, i) => pyEquals(x, b.items[i]));
  if (a instanceof PyDict && b instanceof PyDict)
    return (
      a.size === b.size &&
      a.entries.every(([k, x]) => {
        const y = b.get(k);
        return y !== undefined && pyEquals(x, y);
      })
    );
  return false;
}

/** The number a value is in arithmetic: bool and int as bigint, float as number; undefined otherwise. */
export function numeric(v: PyValue): bigint | number | undefined {
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  return undefined;
}

function numEq(a: bigint | number, b: bigint | number): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  const [i, f] = typeof a === 'bigint' ? [a, b as number] : [b as bigint, a as number];
  return Number.isInteger(f) && BigInt(f) === i;
}

/** <, for what Python orders: numbers with numbers, str with str, lists and tuples element-wise. */
export function pyLess(a: PyValue, b: PyValue): boolean {
  return ordered(a, b, '<');
}

/** >, as max() compares: the error names the operands in this order. */
export function pyGreater(a: PyValue, b: PyValue): boolean {
  return ordered(b, a, '>', [a, b]);
}

function ordered(a: PyValue, b: PyValue, op: '<' | '>', named: readonly [PyValue, PyValue] = [a, b]): boolean {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) return numLess(na, nb);
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b) < 0;
  const seqA = Array.isArray(a) ? a : a instanceof PyTuple && b instanceof PyTuple ? a.items : null;
  const seqB = Array.isArray(b) ? b : b instanceof PyTuple && a instanceof PyTuple ? b.items : null;
  if (seqA && seqB && Array.isArray(a) === Array.isArray(b)) {
    for (let i = 0; i < Math.min(seqA.length, seqB.length); i++) {
      if (!pyEquals(seqA[i], seqB[i])) return pyLess(seqA[i], seqB[i]);
    }
    return seqA.length < seqB.length;
  }
  throw new PyError(
    'TypeError',
    `'${op}' not supported between instances of '${typeName(named[0])}' and '${typeName(named[1])}'`,
  );
}

function numLess(a: bigint | number, b: bigint | number): boolean {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b;
  if (typeof a === 'number' && typeof b === 'number') return a < b;
  // Mixed: compare exactly (a float far beyond 2^53 must not be rounded into the int).
  if (typeof a === 'bigint') {
    const f = b as number;
    if (!Number.isFinite(f)) return f > 0;
    return Number.isInteger(f) ? a < BigInt(f) : a < BigInt(Math.floor(f)) + 1n;
  }
  const f = a;
  const i = b as bigint;
  if (!Number.isFinite(f)) return f < 0;
  return Number.isInteger(f) ? BigInt(f) < i : BigInt(Math.floor(f)) < i;
}

function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/**
 * A JSON value (a model's tool arguments) as Python's json.loads reads it, except that a whole number written
 * "150.0" arrives here as 150 and becomes an int: JSON.parse keeps no trace of the ".0".
 */
export function fromJson(v: unknown): PyValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (typeof v === 'bigint') return v;
  if (Array.isArray(v)) return v.map(fromJson);
  if (v instanceof PyTuple || v instanceof PyDict) return v;
  const d = new PyDict();
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) d.set(k, fromJson(x));
  return d;
}

/** The value as plain JSON for a JavaScript program: ints as numbers, tuples as arrays, dicts as objects. */
export function toJson(v: PyValue): unknown {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (Array.isArray(v)) return v.map(toJson);
  if (v instanceof PyTuple) return v.items.map(toJson);
  return Object.fromEntries((v as PyDict).entries.map(([k, x]) => [str(k), toJson(x)]));
}

/** for x in v: the items Python iterates (a str by code point, a dict by key). */
export function iterate(v: PyValue): PyValue[] {
  if (typeof v === 'string') return [...v];
  if (Array.isArray(v)) return [...v];
  if (v instanceof PyTuple) return [...v.items];
  if (v instanceof PyDict) return v.entries.map(([k]) => k);
  throw new PyError('TypeError', `'${typeName(v)}' object is not iterable`);
}

export function pyLen(v: PyValue): bigint {
  if (typeof v === 'string') return BigInt([...v].length);
  if (Array.isArray(v)) return BigInt(v.length);
  if (v instanceof PyTuple) return BigInt(v.items.length);
  if (v instanceof PyDict) return BigInt(v.size);
  throw new PyError('TypeError', `object of type '${typeName(v)}' has no len()`);
}
