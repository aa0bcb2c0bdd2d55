/**
 * Python's arithmetic on ints (bigint) and floats (number), written after CPython's rules: true division always
 * gives a float, floor division and modulo follow the divisor's sign, int ** int stays exact. Ints are capped
 * (MAX_INT_BITS) so a hostile expression such as 9**9**9 fails at once instead of filling the memory.
 */
import { numeric, PyError, PyTuple, typeName, type PyValue } from './py-value.js';

export const MAX_INT_BITS = 100_000;

type Num = bigint | number;

function num(v: PyValue, op: string, other: PyValue, left: boolean): Num {
  const n = numeric(v);
  if (n === undefined) {
    const [a, b] = left ? [v, other] : [other, v];
    throw new PyError('TypeError', `unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
  }
  return n;
}

export function toFloat(n: Num): number {
  if (typeof n === 'number') return n;
  const f = Number(n);
  if (!Number.isFinite(f)) throw new PyError('OverflowError', 'int too large to convert to float');
  return f;
}

function checked(n: bigint): bigint {
  const bits = (n < 0n ? -n : n).toString(2).length;
  if (bits > MAX_INT_BITS)
    throw new PyError('OverflowError', `the result has ${bits} bits, more than the ${MAX_INT_BITS} allowed here`);
  return n;
}

function both(a: PyValue, b: PyValue, op: string): [Num, Num] {
  return [num(a, op, b, true), num(b, op, a, false)];
}

/** a + b (str + str and list + list as well: concatenation). */
export function add(a: PyValue, b: PyValue): PyValue {
  if (typeof a === 'string' && typeof b === 'string') return a + b;
  if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  if (a instanceof PyTuple && b instanceof PyTuple) return new PyTuple([...a.items, ...b.items]);
  const [x, y] = both(a, b, '+');
  if (typeof x === 'bigint' && typeof y === 'bigint') return checked(x + y);
  return toFloat(x) + toFloat(y);
}

export function sub(a: PyValue, b: PyValue): PyValue {
  const [x, y] = both(a, b, '-');
  if (typeof x === 'bigint' && typeof y === 'bigint') return checked(x - y);
  return toFloat(x) - toFloat(y);
}

export function mul(a: PyValue, b: PyValue): PyValue {
  const [x, y] = both(a, b, '*');
  if (typeof x === 'bigint' && typeof y === 'bigint') return checked(x * y);
  return toFloat(x) * toFloat(y);
}

export function truediv(a: PyValue, b: PyValue): number {
  const [x, y] = both(a, b, '/');
  const d = toFloat(y);
  if (d === 0)
    throw new PyError(
      'ZeroDivisionError',
      typeof x === 'bigint' && typeof y === 'bigint' ? 'division by zero' : 'float division by zero',
    );
  return toFloat(x) / d;
}

/** CPython's float divmod: fmod, then moved to the divisor's sign; the quotient rounded to the nearest integer. */
function floatDivmod(vx: number, wx: number): [number, number] {
  if (wx === 0) throw new PyError('ZeroDivisionError', 'float floor division by zero');
  let mod = vx % wx;
  let div = (vx - mod) / wx;
  if (mod) {
    if (wx < 0 !== mod < 0) {
      mod += wx;
      div -= 1;
    }
  } else {
    mod = wx < 0 ? -0 : 0;
  }
  let floordiv: number;
  if (div) {
    floordiv = Math.floor(div);
    if (div - floordiv > 0.5) floordiv += 1;
  } else {
    floordiv = vx / wx < 0 || Object.is(vx / wx, -0) ? -0 : 0;
  }
  return [floordiv, mod];
}

function intDivmod(x: bigint, y: bigint): [bigint, bigint] {
  if (y === 0n) throw new PyError('ZeroDivisionError', 'integer division or modulo by zero');
  let q = x / y;
  let r = x % y;
  if (r !== 0n && r < 0n !== y < 0n) {
    q -= 1n;
    r += y;
  }
  return [q, r];
}

export function floordiv(a: PyValue, b: PyValue): PyValue {
  const [x, y] = both(a, b, '//');
  if (typeof x === 'bigint' && typeof y === 'bigint') return intDivmod(x, y)[0];
  return floatDivmod(toFloat(x), toFloat(y))[0];
}

export function mod(a: PyValue, b: PyValue): PyValue {
  const [x, y] = both(a, b, '%');
  if (typeof x === 'bigint' && typeof y === 'bigint') {
    if (y === 0n) throw new PyError('ZeroDivisionError', 'integer modulo by zero');
    return intDivmod(x, y)[1];
  }
  if (toFloat(y) === 0) throw new PyError('ZeroDivisionError', 'float modulo');
  return floatDivmod(toFloat(x), toFloat(y))[1];
}

export function pow(a: PyValue, b: PyValue): PyValue {
  const [x, y] = both(a, b, '** or pow()');
  if (typeof x === 'bigint' && typeof y === 'bigint') {
    if (y < 0n) {
      if (x === 0n) throw new PyError('ZeroDivisionError', '0.0 cannot be raised to a negative power');
      return toFloat(x) ** toFloat(y);
    }
    const bits = (x < 0n ? -x : x).toString(2).length;
    if (x !== 0n && x !== 1n && x !== -1n && BigInt(bits) * y > BigInt(MAX_INT_BITS) + 64n) {
      throw new PyError(
        'OverflowError',
        `the result would have about ${BigInt(bits) * y} bits, more than the ${MAX_INT_BITS} allowed here`,
      );
    }
    return checked(x ** y);
  }
  const fx = toFloat(x);
  const fy = toFloat(y);
  if (fx === 0 && fy < 0) throw new PyError('ZeroDivisionError', '0.0 cannot be raised to a negative power');
  if (fx < 0 && !Number.isInteger(fy))
    throw new PyError(
      'ValueError',
      'a negative number raised to a fractional power is complex, which is not supported here',
    );
  const r = fx ** fy;
  if (!Number.isFinite(r) && Number.isFinite(fx) && Number.isFinite(fy))
    throw new PyError('OverflowError', "(34, 'Numerical result out of range')");
  return r;
}

export function neg(a: PyValue): PyValue {
  const x = numeric(a);
  if (x === undefined) throw new PyError('TypeError', `bad operand type for unary -: '${typeName(a)}'`);
  return typeof x === 'bigint' ? -x : -x;
}

export function pos(a: PyValue): PyValue {
  const x = numeric(a);
  if (x === undefined) throw new PyError('TypeError', `bad operand type for unary +: '${typeName(a)}'`);
  return x;
}

/** round(x) and round(x, n) for numbers: a float to an int by halves to even; with n, a float of n decimals. */
export function pyRound(a: PyValue, digits?: PyValue): PyValue {
  const x = numeric(a);
  if (x === undefined) throw new PyError('TypeError', `type ${typeName(a)} doesn't define __round__ method`);
  if (digits === undefined || digits === null) {
    if (typeof x === 'bigint') return x;
    if (!Number.isFinite(x))
      throw new PyError(
        Number.isNaN(x) ? 'ValueError' : 'OverflowError',
        'cannot convert float NaN or infinity to integer',
      );
    const floor = Math.floor(x);
    const diff = x - floor;
    const r = diff > 0.5 ? floor + 1 : diff < 0.5 ? floor : floor % 2 === 0 ? floor : floor + 1;
    return BigInt(r);
  }
  const n = numeric(digits);
  if (typeof n !== 'bigint')
    throw new PyError('TypeError', `'${typeName(digits)}' object cannot be interpreted as an integer`);
  if (typeof x === 'bigint') {
    if (n >= 0n) return x;
    const p = 10n ** -n;
    const [q, r] = intDivmod(x, p);
    const twice = 2n * r;
    const up = twice > p || (twice === p && q % 2n !== 0n);
    return (up ? q + 1n : q) * p;
  }
  // toFixed takes at most 100 digits; past that a double's digits are already all there for these magnitudes.
  if (!Number.isFinite(x) || n > 100n) return x;
  if (n < -308n) return 0 * x;
  return n >= 0n ? Number(x.toFixed(Number(n))) : Math.round(x / 10 ** Number(-n)) * 10 ** Number(-n);
}
