/**
 * Pyodide's boot snapshot (py-runtime.ts; the build stores it beside the Python child): the child restores it
 * instead of booting, and a program sees the same interpreter either way. A damaged snapshot falls back to the
 * plain boot. Both sandbox configurations start their child from it. The child copies in only the snapshot's
 * pages that hold something (py-snapshot-restore.ts), so the rest must be zeros in fresh memory already.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadPyodide, version as pyodideVersion, type PyodideConfig } from 'pyodide';
import { describe, expect, it } from 'vitest';
import { PySandbox } from '../../../../electron/engine/sandbox/python/py-sandbox.js';
import { pyodideDir } from '../../../../electron/engine/sandbox/python/py-dir.js';
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

async function probeOutput(snapshotFile: string | undefined): Promise<{ out: string; fromSnapshot: boolean }> {
  let out = '';
  const runtime = await loadPythonRuntime(
    { onCall: () => JSON.stringify({ ok: false, error: 'no tools here' }), onOutput: (text) => (out += text) },
    snapshotFile ? { snapshotFile } : {},
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
    const restored = await probeOutput(snapshotFile);
    const plain = await probeOutput(undefined);
    expect(restored.fromSnapshot).toBe(true);
    expect(plain.fromSnapshot).toBe(false);
    expect(restored.out).toContain("os.environ.get('HOME') = '/home/pyodide'");
    expect(restored.out).toBe(plain.out);
  });

  it('leaves out only pages that fresh memory holds as zeros already', async () => {
    const file = readFileSync(snapshotFile);
    const offset = new Uint32Array(file.buffer, file.byteOffset, 2)[1]!;
    const memory = file.subarray(offset);
    type CreateModule = NonNullable<PyodideConfig['createPyodideModule']>;
    const factory = (await import(pathToFileURL(path.join(pyodideDir(), 'pyodide.asm.mjs')).href)) as {
      default: CreateModule;
    };
    const zeros = (bytes: Uint8Array, from: number) => bytes.subarray(from, from + 4096).every((byte) => byte === 0);
    let checked = 0;
    const differing: number[] = [];
    const createPyodideModule: CreateModule = async (settings) => {
      settings.INITIAL_MEMORY = file.length;
      const module = await factory.default(settings);
      for (let page = 0; page < memory.length; page += 4096, checked++)
        if (zeros(memory, page) && !zeros(module.HEAPU8, page)) differing.push(page);
      throw new Error('checked'); // the boot itself is the other tests'
    };
    await expect(
      loadPyodide({
        indexURL: `${pyodideDir()}/`,
        packages: [],
        _loadSnapshot: file.subarray(0, offset),
        createPyodideModule,
      }),
    ).rejects.toThrow('checked');
    expect(checked).toBe(memory.length / 4096);
    expect(differing).toEqual([]);
  });

  it('falls back to the plain boot when the snapshot is damaged', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'py-snapshot-'));
    try {
      const whole = readFileSync(snapshotFile);
      const cut = path.join(dir, 'cut');
      writeFileSync(cut, whole.subarray(0, 1 << 20));
      const foreign = path.join(dir, 'foreign');
      writeFileSync(foreign, Buffer.concat([whole.subarray(0, 16), Buffer.alloc(32, 7), whole.subarray(48)]));
      for (const file of [cut, foreign, path.join(dir, 'missing')]) {
        const result = await probeOutput(file);
        expect(result.fromSnapshot).toBe(false);
        expect(result.out).toContain('4999950000');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
