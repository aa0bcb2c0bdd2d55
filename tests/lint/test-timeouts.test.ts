/**
 * A test's time limit is there to catch a hang, never to judge the machine's speed: vitest.config.ts gives every test
 * and hook 300 s, and no test, hook or suite sets a shorter one of its own (a 60 s limit is what failed whole CI runs
 * on a loaded machine). Read with the TypeScript parser, so only the limits given to vitest's own functions count.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import config from '../../vitest.config.js';

const TESTS = fileURLToPath(new URL('..', import.meta.url));
const VITEST_CALLS = new Set(['it', 'test', 'describe', 'suite', 'beforeAll', 'afterAll', 'beforeEach', 'afterEach']);

/** The vitest function a call expression calls, through `.each(…)`, `.skipIf(…)`, `.concurrent` and the like. */
function vitestName(callee: ts.Expression): string | null {
  let e: ts.Expression = callee;
  for (;;) {
    if (ts.isIdentifier(e)) return VITEST_CALLS.has(e.text) ? e.text : null;
    if (ts.isPropertyAccessExpression(e)) e = e.expression;
    else if (ts.isCallExpression(e)) e = e.expression;
    else return null;
  }
}

const literal = (node: ts.Node | undefined): number | null =>
  node && ts.isNumericLiteral(node) ? Number(node.text.replace(/_/g, '')) : null;

/** The limit a call gives: its last argument when a number, or the `timeout` of an options object. */
function limitOf(call: ts.CallExpression): number | null {
  const last = literal(call.arguments.at(-1));
  if (last !== null && call.arguments.length >= 2) return last;
  for (const arg of call.arguments) {
    if (!ts.isObjectLiteralExpression(arg)) continue;
    for (const p of arg.properties) {
      if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === 'timeout')
        return literal(p.initializer);
    }
  }
  return null;
}

export function shortLimits(file: string, text: string, floor: number): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && vitestName(node.expression)) {
      const limit = limitOf(node);
      if (limit !== null && limit < floor) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart());
        found.push(`${file}:${line + 1}: ${vitestName(node.expression)} with a ${limit} ms limit`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' ? [] : testFiles(full);
    return /\.(ts|tsx)$/.test(e.name) ? [full] : [];
  });
}

describe('test time limits', () => {
  const floor = config.test!.testTimeout!;

  it('the config gives every test and hook the same limit, long enough for a loaded machine', () => {
    expect(floor).toBeGreaterThanOrEqual(300_000);
    expect(config.test!.hookTimeout).toBe(floor);
  });

  it('finds a short limit in every form vitest takes, and leaves other calls alone', () => {
    const text = [
      "it('a', async () => {}, 60_000);",
      "describe('b', { timeout: 1000 }, () => {});",
      "it.each([1])('c %s', () => {}, 500);",
      'beforeAll(() => {}, 100);',
      "it('ok', () => {}, 600_000);",
      'setTimeout(() => {}, 100);',
      "page.waitForSelector('x', { timeout: 100 });",
    ].join('\n');
    expect(shortLimits('x.test.ts', text, floor)).toEqual([
      'x.test.ts:1: it with a 60000 ms limit',
      'x.test.ts:2: describe with a 1000 ms limit',
      'x.test.ts:3: it with a 500 ms limit',
      'x.test.ts:4: beforeAll with a 100 ms limit',
    ]);
  });

  it('no test, hook or suite sets a shorter limit of its own', () => {
    const found = testFiles(TESTS).flatMap((f) => shortLimits(path.relative(TESTS, f), readFileSync(f, 'utf8'), floor));
    expect(found, 'drop these limits: the config has one for every test').toEqual([]);
  });
});
