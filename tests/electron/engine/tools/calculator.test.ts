import { describe, expect, it } from 'vitest';
import { computeThread } from '../../../../electron/engine/tools/compute/compute-thread.js';
import { findTool, invokeTool } from '../../../../electron/engine/tools/index.js';
import { ToolError } from '../../../../electron/engine/tools/tool.js';
import { contextFor } from './helpers.js';

const calc = (expression: string) => invokeTool(findTool('calculator')!, { expression }, contextFor(process.cwd()));
const failure = async (expression: string): Promise<string> => {
  const error = await calc(expression).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolError);
  return (error as Error).message;
};

describe('calculator', () => {
  it('evaluates arithmetic exactly', async () => {
    expect(await calc('123*456+789')).toBe(56877);
    expect(await calc('22 * 9 / 5 + 32')).toBeCloseTo(71.6, 10);
    expect(await calc('sqrt(16) + 2^10 - 5!')).toBe(908);
    expect(await calc('sum(1:100)')).toBe(5050);
    expect(await calc('number(2 inch, "cm")')).toBeCloseTo(5.08, 10);
    expect(await calc('fraction(1, 4)')).toBe(0.25);
  });

  it('evaluates and, or and the conditions they make', async () => {
    // `and` and `or` take their arguments unevaluated: both failed with a TypeError before calc.ts kept that.
    expect(await calc('(1 < 2 and 2 < 3) ? 10 : 20')).toBe(10);
    expect(await calc('(1 > 2 or 3 < 2) ? 10 : 20')).toBe(20);
    expect(await calc('and(1, 0) + or(1, 0) * 2')).toBe(2);
  });

  it('refuses the functions that could reach beyond an expression', async () => {
    for (const name of [
      'import',
      'createUnit',
      'evaluate',
      'parse',
      'compile',
      'simplify',
      'derivative',
      'reviver',
      'chain',
    ]) {
      expect(await failure(`${name}("1")`)).toContain(`the function "${name}" is not available in calculator`);
    }
    expect(await failure('import({pi: 3}, {override: true})')).toContain('not available');
    // The shared instance must be unchanged by the attempts above.
    expect(await calc('pi')).toBe(Math.PI);
  });

  it('explains garbage input and results that are not one real number', async () => {
    expect(await failure('hello world')).toMatch(
      /could not evaluate "hello world": "hello" is not a number, a constant \(pi, e, …\) or a unit.*e\.g\./,
    );
    expect(await failure('2 +* 3')).toContain('could not evaluate');
    expect(await failure('')).toContain('The expression is empty');
    expect(await failure('1/0')).toContain('no finite result');
    expect(await failure('sqrt(-1)')).toContain('complex');
    expect(await failure('2 inch to cm')).toMatch(/a Unit \(5\.08 cm\).*number\(2 inch, "cm"\)/);
    expect(await failure('[1, 2, 3]')).toContain('sum(...)');
    expect(await failure('1; 2')).toContain('several expressions (; or new lines) are not available');
    expect(await failure('3 > 2')).toContain('a boolean (true)');
    expect(await failure('1+'.repeat(1500) + '1')).toContain('accepts up to 2000');
  });

  it('refuses ranges and matrices that would exhaust memory, keeping 1-based inclusive ranges', async () => {
    expect(await failure('sum(1:1e9)')).toMatch(/range\(\.\.\.\) would create 999999999 elements.*n\*\(n\+1\)\/2/);
    expect(await failure('sum(range(1, 1e12, 1))')).toContain('would create');
    expect(await failure('sum(zeros(1e5, 1e5))')).toContain('zeros(...) would create 10000000000 elements');
    expect(await failure('sum(ones([2e4, 2e4]))')).toContain('ones(...) would create');
    expect(await failure('sum(identity(1e4))')).toContain('identity(...) would create 100000000 elements');
    expect(await calc('sum(1:2:9)')).toBe(25);
    expect(await calc('sum(range(1, 5))')).toBe(15);
    expect(await calc('sum(ones(3, 3)) + sum(identity(3))')).toBe(12);
  });
});

/**
 * A model (or a Code Mode program) using calculator to exhaust the worker: allocators, cubic algorithms,
 * the language around the arithmetic. What must not happen: the worker runs out of memory or stops answering.
 */
describe('calculator under attack', () => {
  it('resize, setPowerset and anything else off the allowlist are refused by name', async () => {
    expect(await failure('size(resize([1], [100000, 100000]))')).toContain('the function "resize" is not available');
    expect(await failure('size(setPowerset(1:30))')).toContain('the function "setPowerset" is not available');
    expect(await failure('size(setCartesian(1:3000, 1:3000))')).toContain('"setCartesian" is not available');
  });

  it('kron, diag(1:1e6), a huge matrix product and det of a large matrix are refused before they run', async () => {
    expect(await failure('size(kron(ones(1000,1000), ones(1000,1000)))')).toContain(
      'kron(...) would create 1000000000000 elements',
    );
    expect(await failure('sum(diag(1:1e6))')).toContain('diag(...) would create 1000000000000 elements');
    expect(await failure('sum(ones(1000,1000) * ones(1000,1000))')).toContain(
      'multiply(...) would take 1000000000 multiply-adds',
    );
    expect(await failure('det(ones(300,300) + identity(300))')).toContain(
      "det(...) gets a matrix of 300 rows, over calculator's limit of 100",
    );
    expect(await failure('isPrime(9007199254740881)')).toContain('too large to test');
    expect(await calc('det(ones(50,50) + identity(50))')).toBe(51);
  });

  it('assignments, function definitions, indexing, objects and functions as values are not expressions', async () => {
    expect(await failure('a = 2')).toContain('assignments (x = …) are not available');
    expect(await failure('f(x) = x^2')).toContain('function definitions');
    expect(await failure('[1, 2, 3][2]')).toContain('indexing');
    expect(await failure('{a: 1}')).toContain('objects are not available');
    expect(await failure('(sin)(1)')).toContain('"sin" is not a number, a constant');
    expect(await failure('1e6!')).toContain('no finite result');
  });

  it('an expression that runs past the timeout is stopped and the next one is answered', async () => {
    const threads = computeThread().threadsStarted;
    const message = await invokeTool(
      findTool('calculator')!,
      { expression: 'sum(cumsum(1:1e6))' },
      contextFor(process.cwd(), { calculatorTimeoutMs: 100 }),
    ).catch((e: Error) => e.message);
    expect(message).toContain('calculation stopped after 0.1 s');
    expect(computeThread().threadsStarted).toBe(threads + 1); // stopped by terminating its thread, not waited for
    expect(await calc('6 * 7')).toBe(42);
  });
});
