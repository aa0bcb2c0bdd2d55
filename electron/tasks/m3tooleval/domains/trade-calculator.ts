/**
 * M3ToolEval's "Intergalactic Trade Calculator" tools (code-act, MIT; see ../LICENSE-m3tooleval.md), written
 * anew over Python values. Its calculator is `eval(expression)` in the original; here a parsed expression of
 * literals, arithmetic and pure built-ins (py-expr.ts), with the original's reply when it fails.
 */
import { add, mul, truediv } from '../py-arith.js';
import { evalExpression, pyMax, pyMin } from '../py-expr.js';
import { PyError, type PyValue } from '../py-value.js';
import type { M3Tool } from '../m3-tool.js';

export const convertCurrency = (basePrice: PyValue, conversionRate: PyValue): PyValue => mul(basePrice, conversionRate);
export const calculateTariff = (price: PyValue, tariffRate: PyValue): PyValue => truediv(mul(price, tariffRate), 100n);
export const estimateFinalValue = (price: PyValue, tariff: PyValue): PyValue => add(price, tariff);

/** eval(expression), or the original's "Failed to evaluate expression: …" text when anything goes wrong. */
export function calculator(expression: PyValue): PyValue {
  if (typeof expression !== 'string') return `Failed to evaluate expression: ${String(expression)}`;
  try {
    return evalExpression(expression);
  } catch (error) {
    if (error instanceof PyError) return `Failed to evaluate expression: ${expression}`;
    throw error;
  }
}

/** min(args) / max(args) over the arguments as a tuple (one argument comes back as it is). */
export const findMinimum = (args: readonly PyValue[]): PyValue =>
  args.length === 1 ? args[0] : pyMin(args.length === 0 ? [[]] : [...args]);
export const findMaximum = (args: readonly PyValue[]): PyValue =>
  args.length === 1 ? args[0] : pyMax(args.length === 0 ? [[]] : [...args]);

export const CALCULATOR_TOOL: M3Tool = {
  name: 'calculator',
  description:
    'Evaluates the given expression and returns the result. Accepts a calculation expression as input. For example, "2 + (3 * 4)" will return 14.',
  params: [{ name: 'expression', type: 'str' }],
  returns: 'number',
  pythonReturns: 'float',
  run: ([e]) => calculator(e),
};

export const TRADE_TOOLS: readonly M3Tool[] = [
  {
    name: 'convert_currency',
    description:
      'Converts the commodity price to local currency. Arguments: base_price (float), conversion_rate (float)',
    params: [
      { name: 'base_price', type: 'float' },
      { name: 'conversion_rate', type: 'float' },
    ],
    returns: 'number',
    pythonReturns: 'float',
    run: ([p, r]) => convertCurrency(p, r),
  },
  {
    name: 'calculate_tariff',
    description:
      'Calculates the trade tariff based on the converted price. Arguments: price (float), tariff_rate (float, in %)',
    params: [
      { name: 'price', type: 'float' },
      { name: 'tariff_rate', type: 'float' },
    ],
    returns: 'number',
    pythonReturns: 'float',
    run: ([p, r]) => calculateTariff(p, r),
  },
  {
    name: 'estimate_final_value',
    description: 'Estimates the final trade value including the tariff. Arguments: price (float), tariff (float)',
    params: [
      { name: 'price', type: 'float' },
      { name: 'tariff', type: 'float' },
    ],
    returns: 'number',
    pythonReturns: 'float',
    run: ([p, t]) => estimateFinalValue(p, t),
  },
  CALCULATOR_TOOL,
  {
    name: 'find_minimum',
    description: 'Finds the minimum value among the given arguments. Accepts variable number of float arguments.',
    params: [{ name: 'args', type: 'float', variadic: true }],
    returns: 'number',
    pythonReturns: 'float',
    run: (args) => findMinimum(args),
  },
  {
    name: 'find_maximum',
    description: 'Finds the maximum value among the given arguments. Accepts variable number of float arguments.',
    params: [{ name: 'args', type: 'float', variadic: true }],
    returns: 'number',
    pythonReturns: 'float',
    run: (args) => findMaximum(args),
  },
];
