import { describe, expect, it } from 'vitest';
import { findTool, invokeTool } from '../../../../electron/engine/tools/index.js';
import { ToolError } from '../../../../electron/engine/tools/tool.js';
import { contextFor } from './helpers.js';

const calc = (expression: string) => invokeTool(findTool('calculator')!, { expression }, contextFor(process.cwd()));
const failure = async (expression: string): Promise<string> => {
  const error = await calc(expression).then(() => null, (e: unknown) => e);
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

  it('refuses the functions that could reach beyond an expression', async () => {
    for (const name of ['import', 'createUnit', 'evaluate', 'parse', 'compile', 'simplify', 'derivative']) {
      expect(await failure(`${name}("1")`)).toContain(`Function ${name} is disabled`);
    }
    expect(await failure('import({pi: 3}, {override: true})')).toContain('disabled');
    // The shared instance must be unchanged by the attempts above.
    expect(await calc('pi')).toBe(Math.PI);
  });

  it('explains garbage input and results that are not one real number', async () => {
    expect(await failure('hello world')).toMatch(/could not evaluate "hello world": Undefined symbol hello.*e\.g\./);
    expect(await failure('2 +* 3')).toContain('could not evaluate');
    expect(await failure('')).toContain('The expression is empty');
    expect(await failure('1/0')).toContain('no finite result');
    expect(await failure('sqrt(-1)')).toContain('complex');
    expect(await failure('2 inch to cm')).toMatch(/a Unit \(5\.08 cm\).*number\(2 inch, "cm"\)/);
    expect(await failure('[1, 2, 3]')).toContain('sum(...)');
    expect(await failure('1; 2')).toContain('one expression per call');
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
