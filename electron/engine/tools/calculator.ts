import { all, create, type MathJsInstance } from 'mathjs';
import { z } from 'zod';
import { DEFAULT_TOOL_LIMITS, limitsOf } from './limits.js';
import { defineTool, ToolError } from './tool.js';

/**
 * A mathjs instance for untrusted input, per the mathjs security guide: functions that alter the instance or
 * parse further input from inside an expression are replaced by ones that refuse.
 */
function restrictedMath(): MathJsInstance['evaluate'] {
  const math = create(all);
  const evaluate = math.evaluate;
  const disabled = (name: string) => () => {
    throw new Error(`Function ${name} is disabled in calculator`);
  };
  const blocked = ['import', 'createUnit', 'reviver', 'evaluate', 'parse', 'compile', 'simplify', 'simplifyConstant', 'simplifyCore', 'derivative', 'resolve', 'rationalize', 'parser', 'chain'];
  math.import(Object.fromEntries(blocked.map((name) => [name, disabled(name)])), { override: true });
  return evaluate;
}

const evaluate = restrictedMath();

export const calculator = defineTool({
  name: 'calculator',
  description:
    'Evaluate one arithmetic expression exactly and return the result as a number, e.g. "123 * 456 + 789" or ' +
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
