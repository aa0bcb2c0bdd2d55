/**
 * The calculator's evaluation, loaded only inside the compute thread. mathjs is loaded from its single-file
 * build (one file instead of the ~1,300 of its ESM entry: ~0.2 s instead of ~1 s), by the first calculator call
 * of a run, not when the thread starts: it adds ~50 MB to a worker, and most runs never call calculator. An expression is parsed,
 * then checked before anything runs: only numbers, strings, units, constants, operators, ranges, matrix
 * literals and conditionals, and only the functions on an allowlist; assignments, function definitions,
 * property access and indexing are refused. Functions that allocate or whose cost grows with their input are
 * wrapped with size caps, so `diag(1:1e6)` or `kron` of two large matrices is refused with a message instead of
 * exhausting memory; anything else that runs long is stopped by the thread's deadline.
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MathJsInstance, MathNode } from 'mathjs';
import { requireCached } from './cached-require.js';

type MathJsModule = typeof import('mathjs');

/** Functions an expression may call, by group (the message for a refused one lists them). */
const ALLOWED_FUNCTIONS = [
  // arithmetic
  'abs',
  'add',
  'cbrt',
  'ceil',
  'cube',
  'divide',
  'exp',
  'expm1',
  'fix',
  'floor',
  'gcd',
  'hypot',
  'lcm',
  'log',
  'log10',
  'log1p',
  'log2',
  'mod',
  'multiply',
  'nthRoot',
  'pow',
  'round',
  'sign',
  'sqrt',
  'square',
  'subtract',
  'unaryMinus',
  'unaryPlus',
  'dotMultiply',
  'dotDivide',
  'dotPow',
  'norm',
  // trigonometry
  'sin',
  'cos',
  'tan',
  'sec',
  'csc',
  'cot',
  'asin',
  'acos',
  'atan',
  'atan2',
  'asec',
  'acsc',
  'acot',
  'sinh',
  'cosh',
  'tanh',
  'sech',
  'csch',
  'coth',
  'asinh',
  'acosh',
  'atanh',
  // statistics
  'max',
  'min',
  'mean',
  'median',
  'mode',
  'sum',
  'prod',
  'std',
  'variance',
  'mad',
  'cumsum',
  // combinatorics, number theory
  'factorial',
  'gamma',
  'combinations',
  'permutations',
  'isPrime',
  'isInteger',
  // comparison and logic (also the operators)
  'equal',
  'unequal',
  'smaller',
  'smallerEq',
  'larger',
  'largerEq',
  'compare',
  'and',
  'or',
  'xor',
  'not',
  // units and numbers
  'number',
  'unit',
  'to',
  're',
  'im',
  'conj',
  'arg',
  // small matrices
  'det',
  'inv',
  'transpose',
  'dot',
  'cross',
  'size',
  'trace',
  'diag',
  'identity',
  'zeros',
  'ones',
  'range',
  'kron',
  'count',
  // exact numbers
  'fraction',
  'bignumber',
];
const ALLOWED = new Set(ALLOWED_FUNCTIONS);
const CONSTANTS = new Set([
  'pi',
  'e',
  'tau',
  'phi',
  'i',
  'LN2',
  'LN10',
  'LOG2E',
  'LOG10E',
  'SQRT1_2',
  'SQRT2',
  'Infinity',
  'NaN',
  'true',
  'false',
]);
const NODE_TYPES = new Set([
  'ConstantNode',
  'ParenthesisNode',
  'OperatorNode',
  'FunctionNode',
  'SymbolNode',
  'ArrayNode',
  'RangeNode',
  'ConditionalNode',
  'RelationalNode',
]);

/** Most elements one matrix or range may have. */
export const MAX_ELEMENTS = 1_000_000;
/** Largest square matrix for det and inv (their cost grows with n³). */
export const MAX_SQUARE = 100;
/** Most multiply-adds one matrix product may take. */
const MAX_PRODUCT_OPS = 20_000_000;
/** isPrime checks divisors up to √n: beyond this it would run for minutes. */
const MAX_PRIME = 1e14;

/** An error whose message is meant for the model as it is. */
export class CalcError extends Error {}

/** Set to true by the worker bundler; undefined when running from tsc's output or from source. */
declare const PARALLAX_BUNDLED: boolean | undefined;

let instance: { math: MathJsInstance; parse: MathJsInstance['parse']; afterUse(): void } | undefined;

function load(): { math: MathJsInstance; parse: MathJsInstance['parse']; afterUse(): void } {
  if (instance) return instance;
  // Built, the library's code cache is kept beside the bundle (the build's own runs write it); from source, none.
  const bundled = typeof PARALLAX_BUNDLED !== 'undefined' && PARALLAX_BUNDLED;
  const loaded = requireCached(
    createRequire(import.meta.url).resolve('mathjs/lib/browser/math.js'),
    bundled ? dirname(fileURLToPath(import.meta.url)) : null,
  );
  const mathjs = loaded.exports as MathJsModule;
  const math = mathjs.create(mathjs.all);
  const parse = math.parse;
  guardSizes(math);
  instance = { math, parse, afterUse: () => loaded.afterUse() };
  return instance;
}

/** Check what an expression may do, before it runs. Throws CalcError naming the first thing refused. */
function checkTree(root: MathNode): void {
  root.traverse((node, _path, parent) => {
    if (!NODE_TYPES.has(node.type)) throw new CalcError(refusedNode(node.type));
    if (node.type === 'FunctionNode') {
      const fn = (node as unknown as { fn: MathNode & { name?: string } }).fn;
      if (fn.type !== 'SymbolNode' || !ALLOWED.has(fn.name ?? '')) {
        throw new CalcError(
          `the function ${fn.type === 'SymbolNode' ? `"${fn.name}"` : 'called here'} is not available in calculator. Available functions: ${ALLOWED_FUNCTIONS.join(', ')}`,
        );
      }
    } else if (node.type === 'OperatorNode') {
      const fn = (node as unknown as { fn: string }).fn;
      if (!ALLOWED.has(fn))
        throw new CalcError(`the operator "${(node as unknown as { op: string }).op}" is not available in calculator`);
    } else if (node.type === 'SymbolNode') {
      const isCallee = parent?.type === 'FunctionNode' && (parent as unknown as { fn: MathNode }).fn === node;
      const name = (node as unknown as { name: string }).name;
      if (!isCallee && !CONSTANTS.has(name) && !load().math.Unit.isValuelessUnit(name)) {
        throw new CalcError(`"${name}" is not a number, a constant (pi, e, …) or a unit; calculator has no variables`);
      }
    } else if (node.type === 'ArrayNode') {
      const items = (node as unknown as { items: unknown[] }).items.length;
      if (items > MAX_ELEMENTS)
        throw new CalcError(`a matrix literal of ${items} elements is over calculator's limit of ${MAX_ELEMENTS}`);
    }
  });
}

function refusedNode(type: string): string {
  const what: Record<string, string> = {
    AssignmentNode: 'assignments (x = …)',
    FunctionAssignmentNode: 'function definitions (f(x) = …)',
    AccessorNode: 'property access and indexing',
    IndexNode: 'indexing',
    ObjectNode: 'objects',
    BlockNode: 'several expressions (; or new lines)',
  };
  return `${what[type] ?? type} are not available in calculator; write one arithmetic expression`;
}

/** Evaluate one expression; the value is returned as mathjs gives it (the caller turns it into a number). */
/** Load the math library now (the first calculator call of a run pays it, outside its expression's time limit). */
export function loadCalculator(): true {
  load();
  return true;
}

export function evaluateExpression(expression: string): unknown {
  const { parse, afterUse } = load();
  let tree: MathNode;
  try {
    tree = parse(expression);
  } catch (error) {
    throw new CalcError((error as Error).message);
  }
  checkTree(tree);
  const value: unknown = tree.compile().evaluate({});
  // The code cache, when it is written, holds what a whole calculation compiled.
  afterUse();
  return value;
}

// --- size guards ---------------------------------------------------------------------------------------

type Fn = (...args: unknown[]) => unknown;

interface Sized {
  size?: () => number[];
}

/** Dimensions of a matrix or nested array argument; null for a scalar. */
function dimsOf(value: unknown): number[] | null {
  if (Array.isArray(value)) {
    const dims: number[] = [];
    let level: unknown = value;
    while (Array.isArray(level)) {
      dims.push(level.length);
      level = level[0];
    }
    return dims;
  }
  if (value && typeof (value as Sized).size === 'function' && (value as { isMatrix?: boolean }).isMatrix)
    return (value as Sized).size!();
  return null;
}

const count = (dims: number[] | null): number => (dims ? dims.reduce((p, d) => p * d, 1) : 1);
const num = (x: unknown): number =>
  typeof x === 'number' ? x : Number((x as { valueOf?(): unknown } | null)?.valueOf?.() ?? x);

/** Sizes of the shape arguments of zeros/ones/identity: (m, n, …), ([m, n]) or a matrix holding them. */
function shape(args: unknown[]): number[] {
  const sizes = args.filter((a) => typeof a !== 'string' && typeof a !== 'boolean');
  if (sizes.length === 1 && dimsOf(sizes[0])) {
    const list = Array.isArray(sizes[0]) ? sizes[0] : (sizes[0] as { toArray(): unknown[] }).toArray();
    return list.map((x) => Math.max(0, num(x)));
  }
  return sizes.map((x) => Math.max(0, num(x)));
}

/** What a call would cost: elements it creates, multiply-adds, rows of a square matrix, or its argument. */
interface Estimate {
  readonly n: number;
  readonly cap: number;
  /** `would create 1000000 elements`, `has 300 rows`: completes "name(...) …". */
  readonly says: (n: string) => string;
}

const elements = (n: number): Estimate => ({ n, cap: MAX_ELEMENTS, says: (x) => `would create ${x} elements` });
const rows = (a: unknown[]): Estimate => ({
  n: Math.max(0, ...(dimsOf(a[0]) ?? [0])),
  cap: MAX_SQUARE,
  says: (x) => `gets a matrix of ${x} rows`,
});

/** Estimates of the costly functions; over the cap a call is refused before it runs. */
const ESTIMATES: Record<string, (args: unknown[]) => Estimate> = {
  zeros: (a) => elements(count(shape(a))),
  ones: (a) => elements(count(shape(a))),
  identity: (a) => {
    const dims = shape(a);
    return elements(dims.length === 1 ? dims[0] ** 2 : count(dims));
  },
  range: (a) => {
    // "start:end" or "start:step:end" as a string, else (start, end, step?).
    const parts = typeof a[0] === 'string' ? a[0].split(':').map(Number) : a.map(num);
    const [start, end, step = 1] =
      parts.length === 3 && typeof a[0] === 'string' ? [parts[0], parts[2], parts[1]] : parts;
    return elements(Math.abs((end - start) / step));
  },
  diag: (a) => {
    const dims = dimsOf(a[0]);
    return elements(dims && dims.length === 1 ? dims[0] ** 2 : count(dims));
  },
  kron: (a) => elements(count(dimsOf(a[0])) * count(dimsOf(a[1]))),
  multiply: (a) => {
    const [x, y] = [dimsOf(a[0]), dimsOf(a[1])];
    const n = x && y ? count(x) * (y.length > 1 ? y[1] : 1) : 0;
    return { n, cap: MAX_PRODUCT_OPS, says: (v) => `would take ${v} multiply-adds` };
  },
  det: rows,
  inv: rows,
  isPrime: (a) => ({
    n: Math.abs(num(a[0])),
    cap: MAX_PRIME,
    says: () => 'gets a number too large to test in reasonable time',
  }),
};

/**
 * Every allowed function checks its matrix arguments' sizes, and the costly ones their estimated output.
 * Expressions resolve functions (and operators) in `mathWithTransform` only, so the wrappers go there; the
 * instance itself stays as mathjs built it (its functions are each other's typed dependencies).
 * mathjs builds a function (and what it depends on) the first time it is read: each wrapper is made the same way,
 * when an expression first reads it, so loading the library does not build all of the allowed functions (reading
 * them all took ~0.3 s of the first calculation's ~0.5 s).
 */
function guardSizes(math: MathJsInstance): void {
  const ns = (math as unknown as { expression: { mathWithTransform: Record<string, Fn> } }).expression
    .mathWithTransform;
  for (const name of ALLOWED_FUNCTIONS) {
    const own = Object.getOwnPropertyDescriptor(ns, name);
    if (!own) continue;
    const read = (): unknown => (own.get ? own.get.call(ns) : own.value);
    Object.defineProperty(ns, name, {
      configurable: true,
      enumerable: own.enumerable ?? true,
      get() {
        const original = read();
        const value = typeof original === 'function' ? guarded(name, original as Fn) : original;
        Object.defineProperty(ns, name, {
          configurable: true,
          enumerable: own.enumerable ?? true,
          writable: true,
          value,
        });
        return value;
      },
    });
  }
}

/** `original` behind the size checks of `name`. */
function guarded(name: string, original: Fn): Fn {
  const estimate = ESTIMATES[name];
  const wrapper = (...args: unknown[]) => {
    for (const arg of args) {
      const n = count(dimsOf(arg));
      if (n > MAX_ELEMENTS)
        throw new CalcError(`${name}(...) got a matrix of ${n} elements, over calculator's limit of ${MAX_ELEMENTS}`);
    }
    if (estimate) {
      const { n, cap, says } = estimate(args);
      if (!(n <= cap)) {
        const hint = name === 'range' ? '; use a closed formula instead (e.g. n*(n+1)/2 for 1+…+n)' : '';
        throw new CalcError(
          `${name}(...) ${says(Number.isFinite(n) ? String(n) : 'unbounded')}, over calculator's limit of ${cap}${hint}`,
        );
      }
    }
    return original(...args);
  };
  // `and` and `or` get their arguments unevaluated (to stop at the first that decides), which mathjs reads off
  // this flag: without it, `true and false` failed with a TypeError.
  if ((original as { rawArgs?: boolean }).rawArgs) Object.assign(wrapper, { rawArgs: true });
  return wrapper;
}
