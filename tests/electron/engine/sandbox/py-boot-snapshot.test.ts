/**
 * Pyodide's boot snapshot (py-runtime.ts; the build stores it beside the Python child): the child restores it
 * instead of booting, and a program sees the same interpreter either way. A damaged snapshot falls back to the
 * plain boot. Both sandbox configurations start their child from it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { version as pyodideVersion } from 'pyodide';
import { describe, expect, it } from 'vitest';
import { PySandbox } from '../../../../electron/engine/sandbox/python/py-sandbox.js';
import { pythonLaunch } from '../../../../electron/engine/sandbox/python/py-launch.js';
import { loadPythonRuntime } from '../../../../electron/engine/sandbox/python/py-runtime.js';
import { bootSnapshotName } from '../../../../electron/engine/sandbox/python/py-snapshot-name.js';
import { PY_CONFIGS } from './py-helpers.js';

const snapshotFile = fileURLToPath(
  new URL(`../../../../dist/worker/${bootSnapshotName(pyodideVersion)}`, import.meta.url),
);

// What a program can see of the interpreter it starts in: each line what an expression gives, or the error it raises
// (a program's sys and os are the sandbox's, with most of them taken away).
const PROBE = `
import sys, os, math, json, re, datetime
for text in ["sys.version_info[:3]", "sys.platform", "os.environ.get('HOME')", "os.getcwd()",
             "sys.getrecursionlimit()", "sorted(k for k in dir(__builtins__) if not k.startswith('_'))",
             "sorted(m for m in sys.modules if not m.startswith('_'))", "sum(range(10 ** 5))",
             "json.dumps({'b': [1.5, None]})", "math.pi", "re.sub('a+', '-', 'caaab')"]:
    try:
        print(text, '=', repr(eval(text)))
    except BaseException as error:
        print(text, 'raises', type(error).__name__)
`;

async function probeOutput(snapshot: Uint8Array | undefined): Promise<{ out: string; fromSnapshot: boolean }> {
  let out = '';
  const runtime = await loadPythonRuntime(
    { onCall: () => JSON.stringify({ ok: false, error: 'no tools here' }), onOutput: (text) => (out += text) },
    snapshot ? { snapshot } : {},
  );
  const outcome = JSON.parse(runtime.run(PROBE, '[]')) as { error: unknown };
  expect(outcome.error).toBeNull();
  return { out, fromSnapshot: runtime.fromSnapshot };
}

describe("Pyodide's boot snapshot", () => {
  it('is made by the build, beside the child, named for the installed Pyodide', () => {
    expect(existsSync(snapshotFile), `${snapshotFile} (npm run build makes it)`).toBe(true);
  });

  it('restores the interpreter a plain boot makes: a program prints the same', async () => {
    const restored = await probeOutput(readFileSync(snapshotFile));
    const plain = await probeOutput(undefined);
    expect(restored.fromSnapshot).toBe(true);
    expect(plain.fromSnapshot).toBe(false);
    expect(restored.out).toContain("os.environ.get('HOME') = '/home/pyodide'");
    expect(restored.out).toBe(plain.out);
  });

  it('falls back to the plain boot when the snapshot is damaged', async () => {
    const damaged = readFileSync(snapshotFile).subarray(0, 1 << 20);
    const result = await probeOutput(damaged);
    expect(result.fromSnapshot).toBe(false);
    expect(result.out).toContain('4999950000');
  });

  for (const { name, sandbox } of PY_CONFIGS) {
    it(`starts the sandboxed child from it: ${name}`, async () => {
      const py = new PySandbox({ launch: () => pythonLaunch({ sandbox }) });
      try {
        const facts = await py.warmUp();
        expect(facts.fromSnapshot).toBe(true);
      } finally {
        py.dispose();
      }
    });
  }
});
