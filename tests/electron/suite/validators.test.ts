import { afterAll, describe, expect, it } from 'vitest';
import { disposeSharedSandbox } from '../../../electron/engine/sandbox/index.js';
import { jsonIn, readPath, sameJson } from '../../../electron/suite/json-path.js';
import { JS_CHECK_LIMITS, validateSuiteAnswer } from '../../../electron/suite/validators.js';

afterAll(() => disposeSharedSandbox());

describe('suite validators', () => {
  it('exact compares the trimmed answer', async () => {
    expect((await validateSuiteAnswer({ exact: 'Paris' }, ' Paris\n')).ok).toBe(true);
    const bad = await validateSuiteAnswer({ exact: 'Paris' }, 'paris');
    expect(bad).toEqual({ ok: false, detail: 'Expected exactly "Paris"; got "paris".' });
  });

  it('regex: a catastrophic pattern judges a hostile answer in linear time, in the host process (no backtracking)', async () => {
    // A backtracking engine tries 2^60 ways to split this answer before it says no.
    const hostile = `${'a'.repeat(60)}!`;
    expect(await validateSuiteAnswer({ regex: '^(\\w+\\s?)*$' }, hostile)).toEqual({
      ok: false,
      detail: `Expected a match of /^(\\w+\\s?)*$/; got "${hostile}".`,
    });
    expect((await validateSuiteAnswer({ regex: '^(a|aa)+$' }, 'a'.repeat(5000) + 'b')).ok).toBe(false);
    expect((await validateSuiteAnswer({ regex: '^(\\w+\\s?)*$' }, 'the answer is 42')).ok).toBe(true);
  });

  it('regex honours its flags', async () => {
    expect((await validateSuiteAnswer({ regex: '^the answer is \\d+' }, 'The answer is 4')).ok).toBe(false);
    expect((await validateSuiteAnswer({ regex: '^the answer is \\d+', flags: 'i' }, 'The answer is 4')).ok).toBe(true);
  });

  it('number finds a number in the answer within the tolerance', async () => {
    expect((await validateSuiteAnswer({ number: 56877 }, '123 * 456 + 789 = 56,877.')).ok).toBe(true);
    expect((await validateSuiteAnswer({ number: 98.6, tolerance: 0.1 }, 'About 98.65 °F')).ok).toBe(true);
    const far = await validateSuiteAnswer({ number: 98.6, tolerance: 0.01 }, 'About 98.65 °F');
    expect(far).toEqual({ ok: false, detail: 'Expected 98.6 ± 0.01; found 98.65.' });
    expect((await validateSuiteAnswer({ number: 1 }, 'none')).detail).toBe('Expected 1; found no number.');
  });

  it('jsonPath reads the JSON of the answer, also inside a fence or prose', async () => {
    const v = { jsonPath: '$.files[1]["line count"]', equals: 12 };
    expect((await validateSuiteAnswer(v, '{"files":[{}, {"line count": 12}]}')).ok).toBe(true);
    expect((await validateSuiteAnswer(v, 'Here:\n```json\n{"files":[{}, {"line count": 12}]}\n```\nDone.')).ok).toBe(
      true,
    );
    expect((await validateSuiteAnswer(v, 'The result is {"files":[{}, {"line count": 13}]} as asked')).ok).toBe(false);
    expect((await validateSuiteAnswer(v, '{"files":[]}')).detail).toMatch(/has no \$\.files\[1\]/);
    expect((await validateSuiteAnswer(v, 'no json here')).detail).toMatch(/holds no JSON/);
    expect(
      (
        await validateSuiteAnswer(
          { jsonPath: '$.a', equals: { x: [1, 2], y: null } },
          '{"a": {"y": null, "x": [1, 2]}}',
        )
      ).ok,
    ).toBe(true);
  });

  it('json path helpers', () => {
    expect(readPath({ a: [{ b: 1 }] }, '$.a[0].b')).toEqual({ found: true, value: 1 });
    expect(readPath({ a: 1 }, '$')).toEqual({ found: true, value: { a: 1 } });
    expect(readPath({ a: 1 }, '$.toString').found).toBe(false);
    expect(sameJson([1, { a: 2 }], [1, { a: 3 }])).toBe(false);
    expect(jsonIn('  [1,2] ')).toEqual({ ok: true, value: [1, 2] });
  });

  it('js runs an expression or a program over the answer', async () => {
    expect((await validateSuiteAnswer({ js: "answer.includes('42')" }, 'It is 42.')).ok).toBe(true);
    expect((await validateSuiteAnswer({ js: "answer.includes('42')" }, 'It is 41.')).ok).toBe(false);
    const prog =
      'const n = Number(answer.match(/\\d+/)[0]);\nreturn { ok: n % 2 === 0, detail: `${n} is ${n % 2 ? "odd" : "even"}` };';
    expect(await validateSuiteAnswer({ js: prog }, 'value 7')).toEqual({ ok: false, detail: '7 is odd' });
    expect(await validateSuiteAnswer({ js: prog }, 'value 8')).toEqual({ ok: true, detail: '8 is even' });
    const thrown = await validateSuiteAnswer({ js: 'answer.nope.deeper' }, 'x');
    expect(thrown.ok).toBe(false);
    expect(thrown.detail).toMatch(/^The JS check failed: .*TypeError/);
  });

  it('a hostile check cannot hang, flood or reach the host', async () => {
    // An endless loop: only the check's time limit can end it, and the detail names that limit.
    const loop = await validateSuiteAnswer({ js: 'while (true) {}' }, 'x');
    expect(loop.ok).toBe(false);
    expect(loop.detail).toMatch(/^The JS check failed: .*time limit of 1000 ms exceeded/);
    expect(loop.detail).toContain(`time limit of ${JS_CHECK_LIMITS.timeoutMs} ms exceeded`); // the check's own limit

    const flood = await validateSuiteAnswer({ js: "for (;;) print('x'.repeat(100000))" }, 'x');
    expect(flood.ok).toBe(false);
    expect(flood.detail).toMatch(/time limit of 1000 ms/);

    // Each string is past the 16 MiB cap by itself: refused at its first allocation, however slow the machine (a
    // bomb of small strings can meet the 1 s time limit first on a busy one).
    const memory = await validateSuiteAnswer(
      { js: "const a = []; for (;;) a.push('y'.repeat(3e7) + a.length); return true;" },
      'x',
    );
    expect(memory.ok).toBe(false);
    expect(memory.detail).toMatch(/memory limit of 16 MiB/);

    const host = await validateSuiteAnswer(
      {
        js: "return typeof process === 'undefined' && typeof require === 'undefined' && typeof fetch === 'undefined' && typeof (0, eval)('this').process === 'undefined';",
      },
      'x',
    );
    expect(host, host.detail).toEqual({ ok: true, detail: 'The JS check returned true.' });

    const ctor = await validateSuiteAnswer(
      { js: "(() => {}).constructor('return typeof process')() === 'undefined'" },
      'x',
    );
    expect(ctor.ok, ctor.detail).toBe(true);

    // Tools are not offered: a check cannot read files or fetch pages.
    const tool = await validateSuiteAnswer(
      { js: "typeof read_file === 'undefined' && typeof fetch_url === 'undefined'" },
      'x',
    );
    expect(tool.ok, tool.detail).toBe(true);
    // The sandbox still serves the next check after all of these.
    expect((await validateSuiteAnswer({ js: 'answer === "ok"' }, 'ok')).ok).toBe(true);
  });
});
