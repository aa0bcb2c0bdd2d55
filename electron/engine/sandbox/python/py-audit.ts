/**
 * The audit hook of Code Mode (Python), run by the prelude's seal in a globals dict of its own that is emptied
 * right after: once installed, the interpreter's hook list is the only thing that holds the function, so no
 * object a program can reach leads to it (a traceback shows its frame, whose locals are frozen sets and
 * builtins). Every name it uses is a default argument bound at definition, and every string it tests is first
 * copied to an exact `str` (a program may pass a str subclass whose methods lie), so neither rebinding a
 * builtin nor a module attribute changes what it decides. It refuses: the JavaScript modules, files outside
 * Pyodide's standard library, processes, sockets, the collector's object lists, tracing, another hook, and
 * any replacement of a function's code or defaults (the way a function the hook or the import guards rely
 * on could be changed from inside).
 */
export const PY_AUDIT_HOOK = String.raw`
def _audit(event, args, _denied=_DENIED_ROOTS, _blocked=_BLOCKED_PREFIXES, _refused=_REFUSED_EVENTS,
           _code_attrs=frozenset(['__code__', '__defaults__', '__kwdefaults__']),
           _str=str, _int=int, _type=type, _range=range, _len=len, _all=slice(None),
           _PermissionError=PermissionError, _ImportError=ImportError):
    if _type(event) is not _str:
        event = _str.__getitem__(event, _all)
    if event == 'import':
        name = args[0]
        if _type(name) is not _str:
            name = _str.__getitem__(name, _all)
        parts = _str.split(name, '.')
        for i in _range(1, _len(parts) + 1):
            if _str.join('.', parts[:i]) in _denied:
                raise _ImportError('module %r is not available in this sandbox: call the tool functions (list_dir, read_file, ...) instead' % name)
        return
    if event == 'open':
        path, mode = args[0], args[1]
        # The standard library's own files (read by imports) live in Pyodide's in-memory /lib; nothing else.
        if _type(path) is _str and _str.startswith(path, '/lib/') and not _str.__contains__(path, '..'):
            if mode is None or _type(mode) is _int and _int.__and__(mode, 3) == 0:
                return
            if _type(mode) is _str and (mode == 'r' or mode == 'rb'):
                return
        raise _PermissionError('there is no file system here: use the tools (list_dir, read_file, write_file) instead')
    if event == 'os.listdir' or event == 'os.scandir':
        path = args[0]
        if _type(path) is _str and _str.startswith(path, '/lib/') and not _str.__contains__(path, '..'):
            return
    if event == 'object.__setattr__' or event == 'object.__delattr__':
        target, name = args[0], args[1]
        if _type(name) is not _str:
            name = _str.__getitem__(name, _all)
        if name in _code_attrs:
            raise _PermissionError('replacing %s is not available in this sandbox' % name)
        return
    if _str.startswith(event, _blocked):
        raise _PermissionError('%s is not available in this sandbox: use the tools instead' % event)
    if event in _refused:
        raise _PermissionError('%s is not available in this sandbox' % event)
`;

/** Event prefixes refused outright (files, processes, sockets and the like), and single events. */
export const PY_BLOCKED_PREFIXES = [
  'os.',
  'shutil.',
  'subprocess.',
  'socket.',
  'ctypes.',
  'http.',
  'urllib.',
  'ftplib.',
  'smtplib.',
  'webbrowser.',
  'sqlite3.',
  'glob.',
  'tempfile.',
  'pty.',
  'fcntl.',
  'resource.',
  'signal.',
  'mmap.',
  'sys.monitoring.',
];
export const PY_REFUSED_EVENTS = [
  'gc.get_objects',
  'gc.get_referrers',
  'gc.get_referents',
  'sys.addaudithook',
  'builtins.input',
  'cpython._PySys_ClearAuditHooks',
  'sys.settrace',
  'sys.setprofile',
  'sys._current_frames',
  'sys._current_exceptions',
  'cpython.PyInterpreterState_Clear',
];
