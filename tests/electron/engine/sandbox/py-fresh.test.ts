/**
 * codeState 'fresh' in Python means fresh: whatever one program changes in imported modules, classes, the
 * module list, builtins or the prelude's own state, the next program on the same Pyodide child never sees it.
 * 'persist' keeps the program's own namespace, and only that.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pyHarness, type PyHarness } from './py-helpers.js';

let h: PyHarness;
beforeAll(async () => {
  h = await pyHarness();
});
afterAll(() => h.close());

/** Runs `first`, then `second` on the same child, and returns what the second printed. */
async function after(first: string, second: string, keepState = false): Promise<string> {
  const one = await h.run(first, { keepState });
  expect(one.error, first).toBeNull();
  const two = await h.run(second, { keepState });
  expect(two.error, second).toBeNull();
  return two.output;
}

describe('state left by one program', () => {
  it('a module attribute (json._stash) is gone for the next program', async () => {
    expect(
      await after('import json\njson._stash = "left over"', 'import json\nprint(getattr(json, "_stash", "fresh"))'),
    ).toBe('fresh\n');
  });

  it('a module function rebound (json.dumps) is the real one again', async () => {
    expect(
      await after('import json\njson.dumps = lambda *a, **k: "hijacked"', 'import json\nprint(json.dumps([1]))'),
    ).toBe('[1]\n');
  });

  it('a class attribute changed or added (json.JSONEncoder) is put back', async () => {
    const out = await after(
      'import json\njson.JSONEncoder.item_separator = "X"\njson.JSONEncoder.extra = 1',
      'import json\nprint(json.JSONEncoder.item_separator, hasattr(json.JSONEncoder, "extra"), json.dumps([1, 2]))',
    );
    expect(out).toBe(',  False [1, 2]\n'); // print's space, then the separator ', '
  });

  it('a module planted in sys.modules, or one imported by the first program and then changed, is not seen', async () => {
    const out = await after(
      `sys = print.__self__.__import__('sys')
import types, statistics
fake = types.ModuleType('fractions'); fake.Fraction = 'fake'
sys.modules['fractions'] = fake
statistics.mean = lambda xs: -1`,
      'import fractions, statistics\nprint(fractions.Fraction(1, 2), statistics.mean([1, 3]))',
    );
    expect(out).toBe('1/2 2\n');
  });

  it("builtins, a list or dict held by a module, and an object's attributes are put back", async () => {
    const out = await after(
      `B = print.__self__
B.len = lambda x: 0
B.planted = 'left'
sys = B.__import__('sys')
sys.path.append('/planted')
import json
json._default_encoder.indent = 8
import re
re.planted_cache = {}`,
      `B = print.__self__
sys = B.__import__('sys')
import json
print(len('abc'), hasattr(B, 'planted'), '/planted' in sys.path, json._default_encoder.indent, json.dumps({'a': 1}))`,
    );
    expect(out).toBe('3 False False None {"a": 1}\n');
  });

  it('what "import sys" gives a program is fresh too', async () => {
    expect(await after('import sys\nsys.planted = 1', 'import sys\nprint(hasattr(sys, "planted"))')).toBe('False\n');
  });

  it('persist keeps the namespace (variables, functions) but not the module changes', async () => {
    const out = await after(
      'import json\nkept = [1, 2]\ndef twice(x): return 2 * x\njson._stash = 1',
      'import json\nprint(kept, twice(2), hasattr(json, "_stash"))',
      true,
    );
    expect(out).toBe('[1, 2] 4 False\n');
  });
});
