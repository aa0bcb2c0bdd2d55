/**
 * The calculator's functions are wrapped with size checks as an expression first reads them (calc.ts). Every
 * function it offers, and every operator, must still give what mathjs itself gives: each is evaluated here both
 * ways, by the calculator's evaluation and by a plain mathjs instance of the same build.
 */
import { createRequire } from 'node:module';
import type { MathJsInstance } from 'mathjs';
import { describe, expect, it } from 'vitest';
import { CalcError, evaluateExpression } from '../../../../../electron/engine/tools/compute/calc.js';

const mathjs = createRequire(import.meta.url)('mathjs/lib/browser/math.js') as { create(): MathJsInstance };
const reference = mathjs.create();

/** At least one expression per function the calculator offers, and one per operator and node kind. */
const CASES: readonly string[] = [
  // arithmetic
  'abs(-3.5)',
  'add(2, 3)',
  'cbrt(27)',
  'ceil(2.1)',
  'cube(3)',
  'divide(7, 2)',
  'exp(1)',
  'expm1(1e-5)',
  'fix(-2.7)',
  'floor(2.7)',
  'gcd(12, 18)',
  'hypot(3, 4)',
  'lcm(4, 6)',
  'log(100, 10)',
  'log10(1000)',
  'log1p(1)',
  'log2(8)',
  'mod(17, 5)',
  'multiply([[1, 2], [3, 4]], [[5], [6]])',
  'nthRoot(27, 3)',
  'pow(2, 10)',
  'round(2.567, 2)',
  'sign(-4)',
  'sqrt(2)',
  'square(9)',
  'subtract(10, 4)',
  'unaryMinus(3)',
  'unaryPlus(-2)',
  'dotMultiply([1, 2], [3, 4])',
  'dotDivide([4, 6], [2, 3])',
  'dotPow([2, 3], 2)',
  'norm([3, 4])',
  // trigonometry
  'sin(pi / 6)',
  'cos(0)',
  'tan(pi / 4)',
  'sec(0)',
  'csc(pi / 2)',
  'cot(pi / 4)',
  'asin(1)',
  'acos(0)',
  'atan(1)',
  'atan2(1, 1)',
  'asec(2)',
  'acsc(2)',
  'acot(1)',
  'sinh(1)',
  'cosh(1)',
  'tanh(1)',
  'sech(1)',
  'csch(1)',
  'coth(1)',
  'asinh(1)',
  'acosh(2)',
  'atanh(0.5)',
  // statistics, with the expression parser's one-based dimensions
  'max(1, 5, 3)',
  'max([[1, 2], [3, 4]], 1)',
  'min([4, 2, 8])',
  'min([[1, 2], [3, 4]], 2)',
  'mean([1, 2, 3, 4])',
  'mean([[1, 2], [3, 4]], 1)',
  'median([3, 1, 2])',
  'mode([1, 2, 2, 3])',
  'sum([1, 2, 3])',
  'sum([[1, 2], [3, 4]], 2)',
  'prod([2, 3, 4])',
  'std([2, 4, 4, 4, 5, 5, 7, 9])',
  'std([[1, 2], [3, 5]], 1)',
  'variance([1, 2, 3, 4])',
  'variance([[1, 2], [3, 5]], 2)',
  'mad([1, 2, 3, 4, 100])',
  'cumsum([1, 2, 3])',
  'cumsum([[1, 2], [3, 4]], 1)',
  // combinatorics, number theory
  'factorial(5)',
  'gamma(5.5)',
  'combinations(7, 3)',
  'permutations(5, 2)',
  'isPrime(97)',
  'isInteger(3.0)',
  // comparison and logic
  'equal(2, 2)',
  'unequal(1, 2)',
  'smaller(1, 2)',
  'smallerEq(2, 2)',
  'larger(3, 2)',
  'largerEq(2, 3)',
  'compare(1, 2)',
  'and(true, false)',
  'or(true, false)',
  'xor(true, false)',
  'not(false)',
  // units and numbers
  'number("12.5")',
  'number(2 inch, "cm")',
  'unit("5 cm")',
  'to(unit("1 inch"), "cm")',
  're(3 + 4i)',
  'im(3 + 4i)',
  'conj(3 + 4i)',
  'arg(1 + 1i)',
  // small matrices
  'det([[1, 2], [3, 4]])',
  'inv([[1, 2], [3, 4]])',
  'transpose([[1, 2], [3, 4]])',
  'dot([1, 2, 3], [4, 5, 6])',
  'cross([1, 0, 0], [0, 1, 0])',
  'size([[1, 2, 3]])',
  'trace([[1, 2], [3, 4]])',
  'diag([1, 2])',
  'identity(2)',
  'zeros(2, 2)',
  'ones(2)',
  'range(1, 5)',
  'kron([1, 2], [3, 4])',
  'count([1, 2, 3])',
  // exact numbers
  'fraction(1, 3) + fraction(1, 6)',
  'bignumber("0.1") + bignumber("0.2")',
  // operators, constants and the other node kinds an expression may hold
  '123 * 456 + 789',
  '-(3) + +(2)',
  '2 ^ 10 - 5!',
  '17 mod 5 + 17 % 5',
  '2pi + e - tau + phi',
  'LN2 + LN10 + LOG2E + LOG10E + SQRT1_2 + SQRT2',
  '1 == 1 and 2 != 3 or not true xor false',
  '1 < 2 <= 2 > 1 >= 1',
  '[1, 2] .* [3, 4] + [4, 6] ./ [2, 3] + [2, 3] .^ 2',
  'sum(1:10) + sum(10:-2:1)',
  '2 > 1 ? 3 : 4',
  '5 cm to inch',
  '(1 + 2i) * (3 - 1i)',
  'Infinity > 1e308 and NaN != NaN',
];

describe('the calculator evaluates as mathjs does', () => {
  it('covers every function it offers', () => {
    // The refusal of an unknown function lists every function offered.
    let listed = '';
    try {
      evaluateExpression('nosuchfunction(1)');
    } catch (error) {
      expect(error).toBeInstanceOf(CalcError);
      listed = (error as Error).message.split('Available functions: ')[1] ?? '';
    }
    const offered = listed.split(', ').filter(Boolean);
    expect(offered.length).toBeGreaterThan(100);
    const called = new Set(CASES.flatMap((c) => [...c.matchAll(/([A-Za-z]\w*)\(/g)].map((m) => m[1]!)));
    expect(offered.filter((name) => !called.has(name))).toEqual([]);
  });

  it.each(CASES)('%s', (expression) => {
    const ours = evaluateExpression(expression);
    const theirs = reference.evaluate(expression) as unknown;
    expect(reference.typeOf(ours)).toBe(reference.typeOf(theirs));
    expect(reference.format(ours, { precision: 15 })).toBe(reference.format(theirs, { precision: 15 }));
  });

  it('reads each function through its size check, however often it is read', () => {
    for (let i = 0; i < 3; i++) {
      expect(() => evaluateExpression('sum(zeros(2000, 2000))')).toThrow(
        /zeros\(\.\.\.\) would create 4000000 elements/,
      );
      expect(evaluateExpression('sum(zeros(2, 2)) + sum(ones(2, 2))')).toBe(4);
    }
  });
});
