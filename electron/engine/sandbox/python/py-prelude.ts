/**
 * Python run once in the Pyodide child after it loads (py-runtime.ts), before any program. It makes the tool
 * bindings plain Python callables that cross to the host through a character device (no JsProxy is ever made
 * for them), closes the ways out of Python (JavaScript modules removed and refused, an allowlist for imports,
 * an audit hook, installed for good, refusing files, processes, sockets, those modules and the garbage
 * collector's object lists), and defines `_parallax_run(code, manifest)`: one program in a fresh namespace, reported as
 * JSON (error name, message, the model's own line numbers).
 */
import { PY_AUDIT_HOOK, PY_BLOCKED_PREFIXES, PY_REFUSED_EVENTS } from './py-audit.js';
import { PY_FRESH } from './py-fresh.js';

export const PY_PROGRAM_FILE = 'program.py';

/** Modules a program may import (and their submodules); anything else is refused with a clear message. */
export const PY_ALLOWED_MODULES: readonly string[] = [
  'abc',
  'array',
  'base64',
  'binascii',
  'bisect',
  'calendar',
  'cmath',
  'codecs',
  'collections',
  'colorsys',
  'contextlib',
  'copy',
  'csv',
  'dataclasses',
  'datetime',
  'decimal',
  'difflib',
  'enum',
  'fnmatch',
  'fractions',
  'functools',
  'graphlib',
  'hashlib',
  'heapq',
  'hmac',
  'html',
  'io',
  'ipaddress',
  'itertools',
  'json',
  'keyword',
  'math',
  'numbers',
  'operator',
  'os',
  'pprint',
  'random',
  're',
  'reprlib',
  'secrets',
  'shlex',
  'statistics',
  'string',
  'struct',
  'sys',
  'textwrap',
  'time',
  'types',
  'typing',
  'unicodedata',
  'uuid',
  'warnings',
  'zlib',
  'urllib.parse',
  'xml',
  'zoneinfo',
  'traceback',
];

export const PY_PRELUDE = String.raw`
import ast as _ast, builtins as _builtins, json as _json, os as _os, sys as _sys, types as _types, traceback as _traceback

_PROGRAM_FILE = ${JSON.stringify(PY_PROGRAM_FILE)}
_ALLOWED = frozenset(${JSON.stringify(PY_ALLOWED_MODULES)})
# Names whose import is refused at the audit level too (the real __import__ is reachable from any builtin).
_BLOCKED_PREFIXES = tuple(${JSON.stringify(PY_BLOCKED_PREFIXES)})
_REFUSED_EVENTS = frozenset(${JSON.stringify(PY_REFUSED_EVENTS)})
_AUDIT_SOURCE = ${JSON.stringify(PY_AUDIT_HOOK)}
_DENIED_ROOTS = frozenset(['js', 'pyodide', 'pyodide_js', '_pyodide', '_pyodide_core', 'micropip', 'ctypes', '_ctypes',
    'socket', '_socket', 'ssl', '_ssl', 'subprocess', '_posixsubprocess', 'multiprocessing', 'emscripten', 'pyodide_http',
    'urllib.request', 'http', 'ftplib', 'smtplib', 'webbrowser', 'sqlite3', 'mmap', 'pty', 'fcntl', 'resource'])

# The tool bridge: a character device whose JavaScript side asks the host and blocks until it answers.
_BRIDGE = _os.open('/dev/parallax-bridge', _os.O_RDWR)
_os.unlink('/dev/parallax-bridge')

def _denied_import(name):
    root = name.split('.')[0]
    return root in _DENIED_ROOTS or name in _DENIED_ROOTS or any(name.startswith(d + '.') for d in _DENIED_ROOTS)

# Remove every way to a JavaScript object that Pyodide keeps in reach, then refuse its modules. Its Python-level
# modules are not needed once the prelude is done (the host calls _parallax_run through the C runtime), so their
# globals are emptied: a class or function of theirs reached through object.__subclasses__() leads nowhere
# (the hunt in tests/electron/engine/sandbox/py-escape.test.ts walks the whole object graph for one). Called by the host once the prelude has run (Pyodide's own code is then off the stack).
def _seal():
    import time as _time, shutil as _shutil
    def _sleep(seconds):
        # Pyodide's sleep waits through JavaScript; this one waits here, and stays interruptible.
        end = _time.monotonic() + seconds
        while _time.monotonic() < end:
            pass
    _time.sleep = _sleep
    for _format in [f for f, *_ in _shutil.get_unpack_formats() if f not in ('zip', 'tar', 'gztar', 'bztar', 'xztar', 'zstdtar')]:
        _shutil.unregister_unpack_format(_format)
    def _is_js(value):
        # JsProxy and its kin (JsNull, JsBuffer, …): every type Pyodide names Js*.
        return any(t.__name__.startswith('Js') for t in type(value).__mro__)
    # JavaScript objects kept at module or class level elsewhere (json.encoder's JsNull, jsbind's converters).
    for _module in list(_sys.modules.values()):
        for _key, _value in list(getattr(_module, '__dict__', {}).items()):
            if _is_js(_value):
                setattr(_module, _key, object())
    def _classes(cls, acc):
        for sub in type.__subclasses__(cls):
            if sub not in acc:
                acc.add(sub)
                _classes(sub, acc)
        return acc
    for _cls in _classes(object, set()):
        for _key, _value in list(vars(_cls).items()):
            if _is_js(_value):
                try:
                    setattr(_cls, _key, None)
                except (TypeError, AttributeError):
                    pass
    # Every other container still holding one (the import finder's jsproxies, which held pyodide_js): emptied.
    import gc as _gc
    def _clean(container):
        if type(container) is dict:
            for _key, _value in list(container.items()):
                if _is_js(_value):
                    container[_key] = None
                elif type(_value) in (dict, list):
                    _clean(_value) if _value is not container else None
        elif type(container) is list:
            container[:] = [None if _is_js(v) else v for v in container]
    for _object in _gc.get_objects():
        if type(_object) in (dict, list):
            _clean(_object)
            continue
        try:
            _attrs = object.__getattribute__(_object, '__dict__')
        except Exception:
            continue
        if type(_attrs) is dict:
            _clean(_attrs)
    for _name in list(_sys.modules):
        if _denied_import(_name):
            _module = _sys.modules.pop(_name)
            if _module is not None and hasattr(_module, '__dict__'):
                vars(_module).clear()
    _sys.meta_path[:] = [f for f in _sys.meta_path if type(f).__module__.split('.')[0] not in ('_pyodide', 'pyodide')]
    # importlib's own path (import_module, find_spec) raises no import audit event: its builtin finder refuses too.
    # A program that rebuilds the module by hand from _imp still meets the second wall: the child's JavaScript
    # has no code generation from strings and, with bubblewrap, nothing of the host (py-launch.ts).
    _builtin_importer = _sys.modules['_frozen_importlib'].BuiltinImporter
    _builtin_find = _builtin_importer.find_spec
    def _find_spec(cls, fullname, path=None, target=None):
        if _denied_import(fullname):
            raise ImportError('module %r is not available in this sandbox: call the tool functions (list_dir, read_file, ...) instead' % fullname)
        return _builtin_find(fullname, path, target)
    _builtin_importer.find_spec = classmethod(_find_spec)
    _sys.path_hooks[:] = [h for h in _sys.path_hooks if getattr(h, '__module__', '').split('.')[0] not in ('_pyodide', 'pyodide')]
    _sys.stdout.reconfigure(line_buffering=True, write_through=True)
    _sys.stderr.reconfigure(line_buffering=True, write_through=True)
    del globals()['_seal']

# Installs the audit hook for good (py-audit.ts: its own globals, emptied, so nothing reachable leads to it)
# and takes the snapshot each program starts from (py-fresh.ts). Called by the host after _seal.
def _lock():
    _hook_scope = {'_DENIED_ROOTS': _DENIED_ROOTS, '_BLOCKED_PREFIXES': _BLOCKED_PREFIXES, '_REFUSED_EVENTS': _REFUSED_EVENTS}
    exec(_AUDIT_SOURCE, _hook_scope)
    _sys.addaudithook(_hook_scope['_audit'])
    _hook_scope.clear()
    _classes = _all_classes()
    # Gone before the snapshot, which every program starts from: none of these can be called again.
    for _name in ('_AUDIT_SOURCE', '_lock', '_js_in_gc', '_all_classes'):
        del globals()[_name]
    _fresh[0] = _snapshot([globals(), vars(_SYS)], [_kept, _fresh], _classes)

# For a test, before _lock: the JavaScript objects the collector still lists (their type names), as JSON.
def _js_in_gc():
    import gc
    found = []
    for o in gc.get_objects():
        for v in ([o] + (list(o.values()) if type(o) is dict else list(o) if type(o) in (list, tuple, set) else [])):
            if any(t.__name__ == 'JsProxy' for t in type(v).__mro__):
                found.append(type(v).__name__)
        try:
            attrs = object.__getattribute__(o, '__dict__')
        except Exception:
            continue
        if type(attrs) is dict:
            found.extend(type(v).__name__ for v in attrs.values() if any(t.__name__ == 'JsProxy' for t in type(v).__mro__))
    return _json.dumps(found)

def _all_classes():
    found, stack = set(), [object]
    while stack:
        for sub in type.__subclasses__(stack.pop()):
            if sub not in found:
                found.add(sub)
                stack.append(sub)
    found.add(object)
    return found

class ToolError(Exception):
    """A tool failed; its message says what went wrong and what to do."""

def _call(kind, name, args):
    try:
        text = _json.dumps(args)
    except (TypeError, ValueError) as error:
        raise TypeError('%s: arguments must be plain data (str, int, float, bool, None, list, dict): %s' % (name, error)) from None
    _os.write(_BRIDGE, _json.dumps([kind, name, text]).encode())
    chunks = []
    while True:
        chunk = _os.read(_BRIDGE, 1 << 20)
        if not chunk:
            break
        chunks.append(chunk)
    reply = _json.loads(b''.join(chunks))
    if not reply.get('ok'):
        raise ToolError(reply.get('error'))
    if 'py' in reply:
        try:
            return _ast.literal_eval(reply['py'])
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            pass
    return reply.get('value')

class _Tool:
    __slots__ = ('_name', '_signature', '_describe', '_params')
    def __init__(self, entry):
        self._name, self._signature, self._describe = entry['name'], entry['signature'], entry['describe']
        self._params = entry.get('params') or []
    def __call__(self, *args, **kwargs):
        if kwargs:
            named = dict(zip(self._params, args))
            named.update(kwargs)
            return _call('tool', self._name, [named])
        return _call('tool', self._name, list(args))
    def describe(self):
        return self._describe
    @property
    def __name__(self):
        return self._name
    def __repr__(self):
        return '<tool %s>' % self._signature

def _make_search(by_name, write):
    def search_tools(query):
        """Finds more tools by English keywords, best first: search_tools('download web page')[0]."""
        if not isinstance(query, str):
            raise TypeError('search_tools(query) takes a string of English keywords, e.g. search_tools("download web page")')
        found = _call('search', 'search_tools', [query])
        if found.get('hint'):
            write(found['hint'] + '\n')
        return [_Tool(by_name[n]) for n in found['names'] if n in by_name]
    return search_tools

def _make_import(real_import):
    def guarded_import(name, globals=None, locals=None, fromlist=(), level=0):
        if level != 0:
            raise ImportError('relative imports are not available: there is no package here')
        allowed = name in _ALLOWED or name.split('.')[0] in _ALLOWED and name.split('.')[0] != 'urllib'
        if not allowed:
            raise ImportError('module %r is not available in this sandbox (allowed: the standard library for data work, e.g. json, re, math, collections); call the tool functions for files and the network' % name)
        if name == 'sys':
            return _SYS
        return real_import(name, globals, locals, fromlist, level)
    return guarded_import

def _exit(code=None):
    raise SystemExit(code)

def open(*args, **kwargs):
    raise PermissionError('there is no file system here: use the tools (list_dir, read_file, write_file) instead')

def input(*args, **kwargs):
    raise PermissionError('there is no input here: the program runs on its own')

# What 'import sys' gives a program: the harmless parts (no modules, path, hooks or frames).
_SYS = _types.ModuleType('sys')
for _key in ('version', 'version_info', 'platform', 'maxsize', 'float_info', 'int_info', 'byteorder', 'getsizeof',
             'getrecursionlimit', 'intern', 'hexversion', 'implementation', 'maxunicode'):
    setattr(_SYS, _key, getattr(_sys, _key))
_SYS.argv = [_PROGRAM_FILE]
_SYS.exit = _exit

_BASE_BUILTINS = {k: v for k, v in vars(_builtins).items() if k not in ('open', 'input', 'breakpoint', 'help', 'exit', 'quit', 'copyright', 'credits', 'license')}
_BASE_BUILTINS['__import__'] = _make_import(_builtins.__import__)
_BASE_BUILTINS['exit'] = _BASE_BUILTINS['quit'] = _exit
_BASE_BUILTINS['open'], _BASE_BUILTINS['input'] = open, input
del open, input

def _write(text):
    _sys.stdout.write(text)

def _error_of(error, code):
    lines = []
    tb = error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == _PROGRAM_FILE and (not lines or lines[-1] != tb.tb_lineno):
            lines.append(tb.tb_lineno)
        tb = tb.tb_next
    lines = lines[-20:]
    if isinstance(error, SyntaxError) and error.filename == _PROGRAM_FILE and error.lineno:
        lines.append(error.lineno)
    # Innermost frame of the model's code first, as a JavaScript stack lists it.
    stack = '\n'.join('    at %s:%d' % (_PROGRAM_FILE, n) for n in reversed(lines)) or None
    message = str(error)
    if isinstance(error, SyntaxError):
        message = error.msg
    elif isinstance(error, KeyError):
        message = repr(error.args[0]) if error.args else ''
    return {'name': type(error).__name__, 'message': message, 'stack': stack, 'isError': True}

# The outcome's JSON, written by json's C encoder bound here: a program that rebinds json.dumps or changes
# JSONEncoder (put back only when the next program starts) cannot garble its own report.
def _make_outcome_json(_c=_json.encoder.c_make_encoder, _ascii=_json.encoder.encode_basestring_ascii, _join=''.join, _TypeError=TypeError):
    def _refuse(value):
        raise _TypeError('not plain data')
    _encode = _c(None, _refuse, _ascii, None, ': ', ', ', False, False, True)
    def outcome_json(value):
        return _join(_encode(value, 0))
    return outcome_json
_outcome_json = _make_outcome_json()
del _make_outcome_json

# codeState 'persist': the namespace kept for the run's next program (dropped after a limit stopped one).
_kept = [None]
${PY_FRESH}
_snapshot, _restore = _make_fresh(_sys)
del _make_fresh
# The state every program starts from, taken by _lock (the kept namespace is the program's, not in it).
_fresh = [None]

def _parallax_drop():
    if _kept[0] is not None:
        _kept[0].clear()
    _kept[0] = None

def _state_of(namespace, base):
    # What the kept namespace holds: each name, its type and the size of its JSON (None when it has none).
    out = []
    for name, value in list(namespace.items())[:400]:
        if name in base or name.startswith('__'):
            continue
        kind = 'tool' if isinstance(value, _Tool) else type(value).__name__
        try:
            size = len(_json.dumps(value))
        except BaseException:
            size = None
        out.append({'name': name, 'type': kind, 'bytes': size})
    return out[:200]

def _parallax_run(code, manifest_text, keep=False):
    _restore(_fresh[0])
    manifest = _json.loads(manifest_text)
    by_name = {e['name']: e for e in manifest}
    namespace = _kept[0] if keep and _kept[0] is not None else {'__name__': '__main__', '__builtins__': dict(_BASE_BUILTINS), 'ToolError': ToolError}
    _kept[0] = None
    namespace['search_tools'] = _make_search(by_name, _write)
    for entry in manifest:
        if not entry['hidden']:
            namespace[entry['name']] = _Tool(entry)
    base = {'ToolError', 'search_tools'} | {e['name'] for e in manifest if not e['hidden']}
    error = None
    interrupted = False
    try:
        exec(compile(code, _PROGRAM_FILE, 'exec'), namespace)
    except SystemExit as stop:
        if stop.code not in (None, 0):
            error = {'name': 'SystemExit', 'message': 'the program exited with %r' % (stop.code,), 'stack': None, 'isError': True}
    except KeyboardInterrupt:
        interrupted = True
        error = {'name': 'KeyboardInterrupt', 'message': 'stopped', 'stack': None, 'isError': True}
    except BaseException as thrown:
        error = _error_of(thrown, code)
    finally:
        if keep and not interrupted:
            _kept[0] = namespace
        else:
            namespace.clear()
    state = _state_of(namespace, base) if _kept[0] is not None else None
    try:
        _sys.stdout.flush()
    except BaseException:
        pass
    return _outcome_json({'error': error, 'state': state})

del _key
`;
