/**
 * codeState 'fresh' across programs on one Pyodide: the seal takes a snapshot of what a program could change
 * and each program starts by putting back what differs. Covered: sys.modules (a module imported by an earlier
 * program is dropped, to be imported afresh), every module's dict (`json._stash = …`, `json.dumps = evil`), and
 * one level below it: lists, dicts and sets held by a module, and the attribute dicts of its objects (an
 * encoder instance, a function) with the lists, dicts and sets in those. The audit hook refuses changes to a function's code or defaults (py-audit.ts); class dicts of Python-defined classes
 * (type.__setattr__ raises no audit event) are put back like module dicts.
 * A value is unchanged when it is the same object (identity, never `==`, which a program's object could answer
 * falsely); the check runs at C speed (map over operator.is_ across every dict at once), once per program,
 * before it starts (what a program breaks for itself afterwards, such as its own outcome's JSON, is its loss).
 */
export const PY_FRESH = String.raw`
def _make_fresh(_sys, _is=__import__('operator').is_, _chain=__import__('itertools').chain.from_iterable,
                _values=__import__('operator').methodcaller('values'), _all=all, _map=map, _len=len, _type=type, _dict=dict,
                _list=list, _set=set, _isinstance=isinstance, _id=id, _getattr=getattr, _ModuleType=type(_sys), _missing=object(), _vars=vars):
    def containers_of(value, out, depth):
        kind = _type(value)
        if kind is _dict or kind is _list or kind is _set:
            out.append((value, kind(value), kind))
            if depth and kind is _dict:
                for inner in _list(value.values()):
                    containers_of(inner, out, depth - 1)
            return
        if _isinstance(value, (type, _ModuleType)):
            return
        try:
            attrs = object.__getattribute__(value, '__dict__')
        except Exception:
            return
        if _type(attrs) is _dict and depth:
            containers_of(attrs, out, depth - 1)

    def snapshot(extra, exclude, classes):
        modules = _dict(_sys.modules)
        # Python-defined classes (their dicts can change; C types refuse it).
        types = [(c, _dict(vars(c))) for c in classes if c.__flags__ & 512]
        held, seen = [], set()
        for source in [*(m.__dict__ for m in modules.values() if _isinstance(m, _ModuleType)), *extra]:
            if _id(source) in seen:
                continue
            seen.add(_id(source))
            held.append((source, _dict(source), _dict))
            for value in _list(source.values()):
                containers_of(value, held, 2)
        # A container held twice is restored once.
        unique, ids = [], set(_id(x) for x in exclude)
        for entry in held:
            if _id(entry[0]) not in ids and entry[0] is not _sys.modules:
                ids.add(_id(entry[0]))
                unique.append(entry)
        # The quick check's view: every dict and list, then every class dict, flattened (keys, then values).
        # A class's mappingproxy is a live view of its dict: kept once, it shows later changes.
        lives = [live for live, _, kind in unique if kind is not _set] + [_vars(c) for c, _ in types]
        thens = [then for _, then, kind in unique if kind is not _set] + [then for _, then in types]
        mappings = [live for live in lives if _type(live) is not _list]
        sets = [(live, then) for live, then, kind in unique if kind is _set]
        quick = (lives, mappings, _list(_map(_len, thens)), _list(_chain(thens)), _list(_chain(_map(_values, [t for t in thens if _type(t) is _dict]))))
        return modules, unique, types, sets, quick

    def unchanged(quick):
        lives, mappings, lengths, keys, values = quick
        return (_list(_map(_len, lives)) == lengths and _all(_map(_is, _chain(lives), keys))
                and _all(_map(_is, _chain(_map(_values, mappings)), values)))

    def same_dict(now, then):
        return _len(now) == _len(then) and _all(_map(_is, now, then)) and _all(_map(_is, now.values(), then.values()))

    def restore(state):
        modules, held, types, sets, quick = state
        sets_same = _all(_len(live) == _len(then) and _all(_map(live.__contains__, then)) for live, then in sets)
        if same_dict(_sys.modules, modules) and sets_same and unchanged(quick):
            return 0
        if not same_dict(_sys.modules, modules):
            for name in [n for n in _sys.modules if n not in modules or _sys.modules[n] is not modules[n]]:
                del _sys.modules[name]
            _sys.modules.update(modules)
        changed = 0
        for live, then, kind in held:
            if kind is _dict:
                if same_dict(live, then):
                    continue
                for key in [k for k in live if k not in then]:
                    del live[key]
                live.update(then)
            elif kind is _list:
                if _len(live) == _len(then) and _all(_map(_is, live, then)):
                    continue
                live[:] = then
            else:
                if _len(live) == _len(then) and _all(_map(live.__contains__, then)):
                    continue
                live.clear()
                live.update(then)
            changed += 1
        for cls, then in types:
            live = _vars(cls)
            if same_dict(live, then):
                continue
            for key in [k for k in live if k not in then]:
                _type.__delattr__(cls, key)
            for key, value in then.items():
                if live.get(key, _missing) is not value:
                    _type.__setattr__(cls, key, value)
            changed += 1
        return changed
    return snapshot, restore
`;
