import type { MathJsInstance } from 'mathjs';
import { z } from 'zod';
import { DEFAULT_TOOL_LIMITS, limitsOf } from './limits.js';
import { defineTool, ToolError } from './tool.js';

type Evaluate = MathJsInstance['evaluate'];

/**
 * A mathjs instance for untrusted input, per the mathjs security guide: functions that alter the instance or
 * parse further input from inside an expression are replaced by ones that refuse. mathjs takes long to load
 * (hundreds of ms), so it is loaded on the first calculation rather than when a worker starts.
 */
let restricted: Promise<Evaluate> | undefined;
function restrictedEvaluate(): Promise<Evaluate> {
  restricted ??= import('mathjs').then(({ create, all }) => {
    const math = create(all);
    const evaluate = math.evaluate;
    const disabled = (name: string) => () => {
      throw new Error(`Function ${name} is disabled in calculator`);
    };
    const blocked = ['import', 'createUnit', 'reviver', 'evaluate', 'parse', 'compile', 'simplify', 'simplifyConstant', 'simplifyCore', 'derivative', 'resolve', 'rationalize', 'parser', 'chain'];
    math.import(Object.fromEntries(blocked.map((name) => [name, disabled(name)])), { override: true });
    capAllocations(math);
    return evaluate;
  });
  restricted.catch(() => {
    restricted = undefined; // let the next call retry the load
  });
  return restricted;
}

/** Load mathjs ahead of time (before a measured run starts), so no step pays for it. */
export async function warmUpCalculator(): Promise<void> {
  await restrictedEvaluate();
}

/** Most elements one range or matrix constructor may create: "sum(1:1e9)" would otherwise exhaust memory. */
const MAX_ELEMENTS = 1_000_000;

/**
 * Wrap the functions that allocate arrays from a size, in the instance and in its expression namespace
 * (which holds range's 1-based transform), so an expression cannot ask for billions of elements.
 */
function capAllocations(math: MathJsInstance): void {
  const num = (x: unknown): number => (typeof x === 'number' ? x : Number((x as { valueOf?(): unknown } | null)?.valueOf?.() ?? x));
  const dims = (args: unknown[]): unknown[] => {
    const sizes = args.filter((a) => typeof a !== 'string' && typeof a !== 'boolean');
    const only = sizes[0] as { toArray?(): unknown[] } | unknown[] | undefined;
    if (sizes.length === 1 && Array.isArray(only)) return only;
    if (sizes.length === 1 && typeof (only as { toArray?: unknown })?.toArray === 'function') return (only as { toArray(): unknown[] }).toArray();
    return sizes;
  };
  const product = (values: unknown[]): number => values.reduce<number>((p, x) => p * Math.max(0, num(x)), 1);
  const count: Record<string, (args: unknown[]) => number> = {
    range(args) {
      // "start:end" or "start:step:end" as a string, else (start, end, step?).
      const parts = typeof args[0] === 'string' ? args[0].split(':').map(Number) : args.map(num);
      const [start, end, step = 1] = parts.length === 3 && typeof args[0] === 'string' ? [parts[0], parts[2], parts[1]] : parts;
      return Math.abs((end - start) / step);
    },
    zeros: (args) => product(dims(args)),
    ones: (args) => product(dims(args)),
    identity: (args) => (dims(args).length === 1 ? product(dims(args)) ** 2 : product(dims(args))),
  };
  const namespaces = [math, (math as unknown as { expression: { mathWithTransform: object } }).expression.mathWithTransform];
  for (const [name, sizeOf] of Object.entries(count)) {
    for (const ns of namespaces as Record<string, (...args: unknown[]) => unknown>[]) {
      const original = ns[name];
      ns[name] = (...args: unknown[]) => {
        const n = sizeOf(args);
        if (n > MAX_ELEMENTS) {
          throw new Error(`${name}(...) would create ${n} elements, over calculator's limit of ${MAX_ELEMENTS}; use a closed formula instead (e.g. n*(n+1)/2 for 1+…+n)`);
        }
        return original(...args);
      };
    }
  }
}

export const calculator = defineTool({
  name: 'calculator',
  description:
    'Evaluate one arithmetic expression and return the result as a number, e.g. "123 * 456 + 789" or ' +
    '"20 * 9 / 5 + 32". Supports + - * / ^ %, parentheses and functions such as sqrt, round, log, sin; no variables or code.',
  args: z.object({
    expression: z
      .string()
      .describe(`One arithmetic expression (math.js syntax, up to ${DEFAULT_TOOL_LIMITS.calculatorMaxChars} characters), e.g. "(3 + 4) * 2".`),
  }),
  returns: 'number',
  async run({ expression }, ctx): Promise<number> {
    const max = limitsOf(ctx).calculatorMaxChars;
    if (expression.trim() === '') throw new ToolError('The expression is empty. Pass one arithmetic expression, e.g. "123 * 456 + 789".');
    if (expression.length > max) {
      throw new ToolError(`The expression is ${expression.length} characters; calculator accepts up to ${max}. Split it into smaller calculations.`);
    }
    const evaluate = await restrictedEvaluate();
    let value: unknown;
    try {
      value = evaluate(expression, {});
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ToolError(
        `calculator could not evaluate ${JSON.stringify(expression)}: ${reason}. ` +
          'Write one arithmetic expression with numbers, operators and math functions, e.g. "(3 + 4) * 2".',
      );
    }
    return toNumber(expression, value);
  },
});

function toNumber(expression: string, value: unknown): number {
  const type = (value as { type?: string } | null)?.type;
  // Exact numeric kinds become plain numbers; a complex value only when it is real.
  let n: unknown = value;
  if (type === 'BigNumber' || type === 'Fraction') n = Number((value as { valueOf(): unknown }).valueOf());
  if (type === 'Complex' && (value as { im: number }).im === 0) n = (value as { re: number }).re;
  if (typeof n === 'number') {
    if (Number.isFinite(n)) return n;
    throw new ToolError(`${JSON.stringify(expression)} has no finite result (${n}); check for division by zero or overflow.`);
  }
  throw new ToolError(`${JSON.stringify(expression)} evaluates to ${describeValue(value)}, not a single real number. ${hintFor(type, value)}`);
}

function hintFor(type: string | undefined, value: unknown): string {
  if (type === 'Unit') return 'To get a number in a unit, write e.g. number(2 inch, "cm").';
  if (type === 'ResultSet') return 'Pass one expression per call (no ";" or line breaks).';
  if (type === 'DenseMatrix' || type === 'SparseMatrix' || Array.isArray(value)) return 'Reduce the list to one number, e.g. with sum(...), max(...) or mean(...).';
  if (type === 'Complex') return 'The result is complex; calculator returns real numbers only.';
  return 'calculator returns numbers only: write one arithmetic expression, e.g. "(3 + 4) * 2".';
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'boolean') return `a boolean (${value})`;
  if (typeof value === 'function') return 'a function';
  const type = (value as { type?: string } | null)?.type;
  const text = typeof (value as { toString?: () => string })?.toString === 'function' ? String(value) : '';
  const shown = text.length > 80 ? `${text.slice(0, 80)}…` : text;
  return `${type ? `a ${type}` : `a ${typeof value}`}${shown ? ` (${shown})` : ''}`;
}
