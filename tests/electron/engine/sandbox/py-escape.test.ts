/**
 * The ways out of Python in Pyodide, tried the way a hostile program would: each must fail with a clear error
 * and leave the host untouched (no canary file written, no secret or host environment read). Two walls are
 * tested: Python's (no JavaScript object in reach, modules refused, files, processes and sockets refused) and,
 * should a program get past it, the child's own (no code generation from strings, a cleared environment and,
 * with bubblewrap, no host files, no network).
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedContainment, PY_CONFIGS, pyHarness, type PyHarness } from './py-helpers.js';

const SECRET = 'TOP-SECRET-3141';
const ENV_SECRET = 'host-env-secret-2718';

describe.each(PY_CONFIGS)('Python escapes, $name', ({ sandbox }) => {
  let h: PyHarness;
  let secretFile: string;
  let canary: string;

  beforeAll(async () => {
    process.env.PARALLAX_PY_CANARY = ENV_SECRET;
    h = await pyHarness({ sandbox });
    secretFile = join(h.root, 'secret.txt');
    canary = join(h.root, 'canary.txt');
    await writeFile(secretFile, SECRET);
  });
  afterAll(async () => {
    delete process.env.PARALLAX_PY_CANARY;
    await h.close();
  });

  it('runs in the configuration it names', () => {
    expect(h.sandbox.lastLoad?.containment).toBe(expectedContainment(sandbox));
  });

  /** Runs an attack; it must end in an error (or print only what is allowed) and leave no trace on the host. */
  async function attack(code: string, timeoutMs?: number) {
    const result = await h.run(
      code.replaceAll('SECRET_FILE', secretFile).replaceAll('CANARY', canary),
      timeoutMs ? { limits: { timeoutMs } } : {},
    );
    expect(result.output + (result.error?.message ?? '')).not.toContain(SECRET);
    expect(result.output + (result.error?.message ?? '')).not.toContain(ENV_SECRET);
    expect(existsSync(canary), 'the canary file was written').toBe(false);
    return result;
  }

  describe('JavaScript from Python', () => {
    const modules = [
      'js',
      'pyodide_js',
      'pyodide',
      'pyodide.code',
      'pyodide.ffi',
      '_pyodide',
      '_pyodide_core',
      'micropip',
      'ctypes',
      'socket',
      'subprocess',
      'urllib.request',
      'importlib',
      'gc',
    ];
    it('refuses the modules that reach JavaScript, the host or the network, saying what to do instead', async () => {
      for (const name of modules) {
        const result = await attack(`import ${name}`);
        expect(result.error, name).toMatchObject({ line: 1 });
        expect(result.error!.message, name).toMatch(
          /^ImportError: module '.+' is not available in this sandbox.*tool functions/,
        );
      }
    });

    it('refuses them through the real __import__ too (reachable from any builtin) and through importlib', async () => {
      for (const name of [
        'js',
        'pyodide_js',
        'pyodide',
        '_pyodide_core',
        'micropip',
        'ctypes',
        '_socket',
        '_posixsubprocess',
      ]) {
        const result = await attack(`print.__self__.__import__(${JSON.stringify(name)})`);
        expect(result.error!.message, name).toMatch(/^ImportError: module '.+' is not available in this sandbox/);
      }
      for (const name of ['js', '_pyodide_core', 'pyodide']) {
        const viaImportlib = await attack(`print.__self__.__import__('importlib').import_module('${name}')`);
        expect(viaImportlib.error!.message, name).toMatch(
          /^(ImportError: module '.+' is not available in this sandbox|ModuleNotFoundError: No module named)/,
        );
      }
    });

    it('leaves no JavaScript module in sys.modules and no JavaScript importer on sys.meta_path', async () => {
      const result = await attack(`sys = print.__self__.__import__('sys')
print(sorted(n for n in sys.modules if n.split('.')[0] in ('js', 'pyodide', 'pyodide_js', '_pyodide', '_pyodide_core')))
print([type(f).__name__ for f in sys.meta_path])`);
      expect(result.error).toBeNull();
      const [mods, finders] = result.output.trim().split('\n');
      expect(mods).toBe('[]');
      expect(finders).not.toMatch(/Js/);
    });

    it('does not load a removed module again from the standard library zip', async () => {
      const result = await attack(`zipimport = print.__self__.__import__('zipimport')
util = print.__self__.__import__('importlib.util', fromlist=['x'])
spec = zipimport.zipimporter('/lib/python314.zip').find_spec('pyodide')
module = util.module_from_spec(spec)
spec.loader.exec_module(module)
print(module.ffi.to_js([1]).constructor.constructor('return process')().env)`);
      expect(result.error!.message).toMatch(/ImportError: module '.+' is not available in this sandbox/);
    });

    it('finds no JavaScript object anywhere in the object graph (modules, classes, globals, closures, bound methods)', async () => {
      const result = await attack(OBJECT_HUNT, 60_000); // a walk of every object: slow, and slower on a loaded machine
      expect(result.error).toBeNull();
      expect(result.output).toMatch(/visited \d{5,} objects, 0 JavaScript objects/);
    });

    it("refuses the garbage collector's object lists", async () => {
      for (const code of [
        "print.__self__.__import__('gc').get_objects()",
        "print.__self__.__import__('gc').get_referrers(print)",
      ]) {
        expect((await attack(code)).error!.message, code).toMatch(
          /^PermissionError: .* is not available in this sandbox/,
        );
      }
    });
  });

  describe('past the Python wall', () => {
    it('a JavaScript object rebuilt by hand from _imp still cannot make code, so reaches no process', async () => {
      const result = await attack(`B = print.__self__
machinery = B.__import__('importlib.machinery', fromlist=['x'])
imp = B.__import__('_imp')
core = imp.create_builtin(machinery.ModuleSpec('_pyodide_core', None))
array = core.to_js([1])
print(type(array).__name__)
array.constructor.constructor('return process')()`);
      expect(result.output).toBe('JsProxy\n');
      expect(result.error).toMatchObject({ line: 7 });
      expect(result.error!.message).toMatch(/EvalError: Code generation from strings disallowed/);
    });
  });

  describe('files, processes and the network from Python', () => {
    it('refuses every way to open a file: open, io.open, the real open, os.open, pathlib', async () => {
      const tries = [
        "open('SECRET_FILE').read()",
        "import io\nio.open('SECRET_FILE').read()",
        "print.__self__.open('SECRET_FILE').read()",
        "import os\nos.open('SECRET_FILE', os.O_RDONLY)",
        "print.__self__.__import__('pathlib').Path('SECRET_FILE').read_text()",
        "open('CANARY', 'w').write('escaped')",
        "open('/lib/../CANARY', 'w').write('escaped')",
      ];
      for (const code of tries) {
        const result = await attack(code);
        expect(result.error!.message, code).toMatch(/^PermissionError: /);
      }
    });

    it('refuses commands and folder listings: os.system, os.popen, os.listdir, os.environ holds nothing of the host', async () => {
      for (const code of [
        "import os\nos.system('touch CANARY')",
        "import os\nos.popen('id').read()",
        "import os\nos.listdir('/')",
        "import os\nos.remove('SECRET_FILE')",
      ]) {
        expect((await attack(code)).error!.message, code).toMatch(
          /^(PermissionError: os\.\w+|ImportError: module .subprocess.) is not available in this sandbox/,
        );
      }
      const env = await attack('import os\nprint(dict(os.environ))');
      expect(env.error).toBeNull();
      expect(env.output).not.toContain('PARALLAX_PY_CANARY');
    });

    it("refuses anything but a tool call written to the bridge's descriptor, and keeps running", async () => {
      const result = await attack(`import os
replies = []
for fd in range(3, 8):
    try:
        os.write(fd, b'{"not": "a call"}')
        replies.append(os.read(fd, 500).decode())
    except OSError:
        pass
print(replies)`);
      expect(result.error).toBeNull();
      expect(result.output).toContain('the tool bridge takes only calls made through the tool functions');
      expect(result.toolCalls).toEqual([]);
    });

    it('has no input, and exit() only ends the program', async () => {
      expect((await attack('input()')).error!.message).toMatch(/^PermissionError: there is no input here/);
      const exited = await attack('print("a")\nexit()\nprint("b")');
      expect(exited).toMatchObject({ output: 'a\n', error: null });
    });
  });

  describe("the issue's escape chain and its variants", () => {
    it("a tool object's globals hold no audit hook, and rebinding what they hold re-enables nothing", async () => {
      const result = await attack(`B = print.__self__
g = type(read_file).__call__.__globals__
print(sorted(k for k in g if 'audit' in k.lower() or k in ('_seal', '_lock', '_js_in_gc', '_all_classes')))
g['_denied_import'] = lambda name: False
g['_DENIED_ROOTS'] = frozenset()
g['_ALLOWED'] = frozenset(['js', 'pyodide_js', 'ctypes', 'gc'])
for name in ('js', 'pyodide_js', '_pyodide_core', 'ctypes'):
    try:
        B.__import__(name)
        print('imported', name)
    except ImportError as e:
        print('refused', name)
open('SECRET_FILE').read()`);
      const lines = result.output.trim().split('\n');
      expect(lines[0]).toBe('[]');
      expect(lines.slice(1)).toEqual(['refused js', 'refused pyodide_js', 'refused _pyodide_core', 'refused ctypes']);
      expect(result.error!.message).toMatch(/^PermissionError: there is no file system here/);
    });

    it("refuses replacing the code or defaults of any function (the hook, the import guard, a tool's call)", async () => {
      const targets = [
        'type(read_file).__call__',
        "__builtins__['__import__']",
        "print.__self__.__import__('json').dumps",
        '(lambda: 1)',
      ];
      for (const target of targets) {
        for (const attr of ['__code__', '__defaults__', '__kwdefaults__']) {
          const value =
            attr === '__code__' ? '(lambda *a, **k: None).__code__' : attr === '__defaults__' ? '(None,)' : '{}';
          const result = await attack(`f = ${target}\nf.${attr} = ${value}`);
          expect(result.error?.message, `${target}.${attr}`).toMatch(
            new RegExp(`^PermissionError: replacing ${attr} is not available in this sandbox`),
          );
        }
      }
    });

    it("the hook's own frame, reached through a traceback, leads to nothing that changes it", async () => {
      const result = await attack(`B = print.__self__
try:
    B.open('SECRET_FILE')
except PermissionError as error:
    tb = error.__traceback__
    while tb.tb_next:
        tb = tb.tb_next
    frame = tb.tb_frame
    print(frame.f_code.co_name, sorted(frame.f_globals))
    frame.f_globals['_str'] = None
    try:
        frame.f_locals['_denied'] = frozenset()
    except Exception:
        pass
try:
    B.__import__('js')
except ImportError:
    print('js still refused')
open('SECRET_FILE').read()`);
      expect(result.output).toBe('_audit []\njs still refused\n');
      expect(result.error!.message).toMatch(/^PermissionError: /);
    });

    it("the caller's frame (the prelude) is reachable, but what a program rebinds there is gone for the next one", async () => {
      const tamper = await attack(`B = print.__self__
f = B.__import__('sys')._getframe(0)
while f.f_back is not None and '_BASE_BUILTINS' not in f.f_globals:
    f = f.f_back
g = f.f_globals
g['_BASE_BUILTINS']['open'] = B.open
g['_BASE_BUILTINS']['leak'] = 'from the first program'
g['_make_search'] = None
print('tampered')`);
      expect(tamper.output).toBe('tampered\n');
      const next = await attack(`print(globals()['__builtins__'].get('leak', 'clean'))
print([t.__name__ for t in search_tools('time')][:1])
open('SECRET_FILE').read()`);
      expect(next.output).toMatch(/^clean\n\['current_time'\]\n$/);
      expect(next.error!.message).toMatch(/^PermissionError: there is no file system here/);
    });

    it('refuses tracing, monitoring and a second hook (ways to watch or outvote the hook), and str subclasses that lie', async () => {
      const tries = [
        "print.__self__.__import__('sys').settrace(lambda *a: None)",
        "print.__self__.__import__('sys').setprofile(lambda *a: None)",
        "m = print.__self__.__import__('sys').monitoring\nm.register_callback(1, m.events.CALL, lambda *a: None)",
      ];
      for (const code of tries)
        expect(String((await attack(code)).error?.message), code).toMatch(
          /^PermissionError: .* is not available in this sandbox/,
        );
      // CPython swallows the hook's refusal here, but the new hook is never added: it hears nothing.
      const hooked = await attack(
        "sys = print.__self__.__import__('sys')\nheard = []\nsys.addaudithook(lambda e, a: heard.append(e))\nsys.audit('probe')\nprint(heard)",
      );
      expect(hooked).toMatchObject({ output: '[]\n', error: null });
      const liar = await attack(`class S(str):
    def split(self, *a): return ['json']
    def startswith(self, *a): return False
    def __eq__(self, other): return False
    __hash__ = str.__hash__
print.__self__.__import__(S('js'))`);
      expect(String(liar.error?.message)).toMatch(/^ImportError: module 'js' is not available in this sandbox/);
    });

    it('finds no JavaScript finder or proxy through sys.meta_path, sys.modules or the import machinery', async () => {
      const result = await attack(`B = print.__self__
sys = B.__import__('sys')
found = []
for f in [*sys.meta_path, *sys.path_hooks, *sys.path_importer_cache.values()]:
    found += [k for k in getattr(f, 'jsproxies', {})]
    found += [type(f).__name__] if type(f).__name__.startswith('Js') else []
print(found)
mods = [m for m in sys.modules.values() if hasattr(m, 'mountNodeFS')]
print(len(mods))`);
      expect(result.error).toBeNull();
      expect(result.output).toBe('[]\n0\n');
    });
  });
});

/** Walks everything reachable from a program (builtins, sys, every module, every class) for a JavaScript object. */
const OBJECT_HUNT = String.raw`B = print.__self__
sys = B.__import__('sys')
def subclasses(c, acc):
    try:
        subs = type.__subclasses__(c)
    except Exception:
        return acc
    for s in subs:
        if s not in acc:
            acc.add(s)
            subclasses(s, acc)
    return acc
start = [B, sys, *sys.modules.values(), *sys.meta_path, *sys.path_hooks, *subclasses(object, set())]
seen, queue, hits, n = set(), list(start), [], 0
while queue:
    x = queue.pop()
    if id(x) in seen:
        continue
    seen.add(id(x))
    n += 1
    if any(t.__name__.startswith('Js') for t in type(x).__mro__):
        hits.append(repr(type(x)))
        continue
    try:
        if isinstance(x, dict):
            queue.extend(x.values())
            continue
        if isinstance(x, (list, tuple, set, frozenset)):
            queue.extend(x)
            continue
        for attr in ('__dict__', '__globals__', '__closure__', '__wrapped__', '__self__', '__func__', 'cell_contents', '__defaults__', '__kwdefaults__', '__builtins__'):
            try:
                v = object.__getattribute__(x, attr)
            except Exception:
                continue
            if v is not None:
                queue.append(v)
        if isinstance(x, type):
            queue.extend(vars(x).values())
    except Exception:
        pass
print('visited %d objects, %d JavaScript objects' % (n, len(hits)), hits[:3])`;
