/**
 * M3ToolEval's "Alien Message Decoder" tools (code-act, MIT; see ../LICENSE-m3tooleval.md), written anew over
 * Python values.
 */
import { pyMax, pyMin } from '../py-expr.js';
import { PyError, pyLen, repr, str, typeName, type PyValue } from '../py-value.js';
import type { M3Tool } from '../m3-tool.js';

/** bytes.fromhex(str(hex_string)).decode('utf-8'): whitespace between bytes allowed, strict UTF-8. */
export function convertHexToAscii(hexString: PyValue): string {
  const text = str(hexString);
  const bytes: number[] = [];
  let i = 0;
  while (i < text.length) {
    if (/[ \t\n\r\f\v]/.test(text[i])) {
      i++;
      continue;
    }
    const pair = text.slice(i, i + 2);
    if (!/^[0-9a-fA-F]{2}$/.test(pair)) {
      const at = /^[0-9a-fA-F]$/.test(text[i]) ? i + 1 : i;
      throw new PyError('ValueError', `non-hexadecimal number found in fromhex() arg at position ${at}`);
    }
    bytes.push(parseInt(pair, 16));
    i += 2;
  }
  const bad = utf8Problem(bytes);
  if (bad) throw new PyError('UnicodeDecodeError', `'utf-8' codec can't decode ${bad}`);
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(new Uint8Array(bytes));
}

/** Where strict UTF-8 decoding fails, in CPython's words ("byte 0xff in position 0: invalid start byte"), or null. */
function utf8Problem(bytes: readonly number[]): string | null {
  const hex = (b: number) => `0x${b.toString(16).padStart(2, '0')}`;
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    const need =
      b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0) return `byte ${hex(b)} in position ${i}: invalid start byte`;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined)
        return `${k === 1 ? `byte ${hex(b)} in position ${i}` : `bytes in position ${i}-${i + k - 1}`}: unexpected end of data`;
      const lo = k === 1 && b === 0xe0 ? 0xa0 : k === 1 && b === 0xf0 ? 0x90 : 0x80;
      const hi = k === 1 && b === 0xed ? 0x9f : k === 1 && b === 0xf4 ? 0x8f : 0xbf;
      if (c < lo || c > hi)
        return `${k === 1 ? `byte ${hex(b)} in position ${i}` : `bytes in position ${i}-${i + k - 1}`}: invalid continuation byte`;
    }
    i += need + 1;
  }
  return null;
}

/** s[::-1] by code point (a list reversed too). */
export function reverseString(s: PyValue): PyValue {
  if (typeof s === 'string') return [...s].reverse().join('');
  if (Array.isArray(s)) return [...s].reverse();
  throw new PyError('TypeError', `'${typeName(s)}' object is not subscriptable`);
}

function intOf(v: PyValue): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new PyError('ValueError', 'cannot convert float to integer');
    return BigInt(Math.trunc(v));
  }
  if (typeof v === 'string' && /^\s*[+-]?\d(?:_?\d)*\s*$/.test(v)) return BigInt(v.trim().replace(/_/g, ''));
  throw new PyError('ValueError', `invalid literal for int() with base 10: ${repr(v)}`);
}

const floorMod = (a: bigint, n: bigint): bigint => ((a % n) + n) % n;

/** Upper- and lower-case letters (as Python's isupper/islower see them) shifted back within A–Z / a–z. */
export function caesarDecode(message: PyValue, shift: PyValue): string {
  const k = intOf(shift);
  if (typeof message !== 'string')
    throw new PyError('TypeError', `'${typeName(message)}' object is not iterable as text`);
  return [...message]
    .map((ch) => {
      const code = BigInt(ch.codePointAt(0)!);
      if (/\p{Uppercase}/u.test(ch)) return String.fromCodePoint(Number(floorMod(code - k - 65n, 26n) + 65n));
      if (/\p{Lowercase}/u.test(ch)) return String.fromCodePoint(Number(floorMod(code - k - 97n, 26n) + 97n));
      return ch;
    })
    .join('');
}

export const stringLength = (s: PyValue): bigint => pyLen(s);

/** min(args) / max(args) over the arguments as a tuple: one argument is returned as it is. */
const overArgs = (name: string, args: readonly PyValue[], f: (items: PyValue[]) => PyValue): PyValue => {
  if (args.length === 0) throw new PyError('ValueError', `${name}() arg is an empty sequence`);
  return args.length === 1 ? args[0] : f([...args]);
};
export const minimumValue = (args: readonly PyValue[]): PyValue => overArgs('min', args, pyMin);
export const maximumValue = (args: readonly PyValue[]): PyValue => overArgs('max', args, pyMax);

export const DECODER_TOOLS: readonly M3Tool[] = [
  {
    name: 'convert_hex_to_ascii',
    description: 'Converts a hexadecimal string to ASCII. Arguments: hex_string (str)',
    params: [{ name: 'hex_string', type: 'str' }],
    returns: 'string',
    pythonReturns: 'str',
    run: ([s]) => convertHexToAscii(s),
  },
  {
    name: 'reverse_string',
    description: 'Reverses a string. Arguments: string (str)',
    params: [{ name: 'string', type: 'str' }],
    returns: 'string',
    pythonReturns: 'str',
    run: ([s]) => reverseString(s),
  },
  {
    name: 'caesar_decode',
    description: 'Decodes a string using the Caesar cipher. Arguments: message (str), shift (int)',
    params: [
      { name: 'message', type: 'str' },
      { name: 'shift', type: 'int' },
    ],
    returns: 'string',
    pythonReturns: 'str',
    run: ([m, k]) => caesarDecode(m, k),
  },
  {
    name: 'string_length',
    description: 'Finds the length of a string. Arguments: string (str)',
    params: [{ name: 'string', type: 'str' }],
    returns: 'number',
    pythonReturns: 'int',
    run: ([s]) => stringLength(s),
  },
  {
    name: 'minimum_value',
    description: 'Finds the minimum value from given arguments. Arguments: *args (variable number of arguments)',
    params: [{ name: 'args', type: 'any', variadic: true }],
    returns: 'number',
    pythonReturns: 'int/float',
    run: (args) => minimumValue(args),
  },
  {
    name: 'maximum_value',
    description: 'Finds the maximum value from given arguments. Arguments: *args (variable number of arguments)',
    params: [{ name: 'args', type: 'any', variadic: true }],
    returns: 'number',
    pythonReturns: 'int/float',
    run: (args) => maximumValue(args),
  },
];
