/**
 * JavaScript evaluated inside each fresh QuickJS context before the program. It turns the two host functions
 * (a blocking `call` and an output `write`) into the program's globals: print/console.log, one synchronous
 * function per catalog tool, and search_tools. Everything it hands the program is made inside the sandbox
 * (wrapper functions, errors, JSON-parsed results), so no host object is ever reachable from the program.
 * The host functions themselves stay in this closure and never become globals.
 */
export const PRELUDE_FILE = 'prelude.js';

export const PRELUDE = String.raw`(function (hostCall, hostWrite, manifestText) {
  'use strict';
  const G = globalThis;
  const toJSON = JSON.stringify;
  const fromJSON = JSON.parse;
  const defineProperty = Object.defineProperty;
  const fromEntries = Object.fromEntries;
  const PromiseCtor = Promise;
  const MapCtor = Map;
  const SetCtor = Set;
  const ErrorCtor = Error;
  const DateCtor = Date;
  // Captured now so a program that reassigns builtins breaks only its own code, not the tool bridge.
  const slice = Array.prototype.slice;
  const handles = new WeakMap();
  const manifest = fromJSON(manifestText);
  const byName = new MapCtor();
  for (const entry of manifest) byName.set(entry.name, entry);

  class ToolError extends ErrorCtor {}
  defineProperty(ToolError.prototype, 'name', { value: 'ToolError' });

  // Printing stops crossing to the host once the output cap is reached, but for one empty write that asks again
  // (a kept context's next program has its own allowance; no closure is handed to the host for that, because a
  // closure over this scope kept the engine from freeing a runtime stopped in a microtask loop).
  let remaining = Infinity;
  // The host reads the text as a C string, which ends at a NUL: each one is sent as the two characters \\0
  // instead, so nothing after it is cut (the intrinsics are taken now, before the program can swap them).
  const replace = String.prototype.replace;
  const NUL = /\u0000/g;
  function write(text) {
    if (text.indexOf('\u0000') >= 0) text = replace.call(text, NUL, '\\0');
    if (remaining <= 0 && (remaining = hostWrite('')) <= 0) return;
    remaining = hostWrite(text.length > remaining + 1 ? text.slice(0, remaining + 1) : text);
  }

  function invoke(kind, name, args) {
    const list = slice.call(args);
    while (list.length > 0 && list[list.length - 1] === undefined) list.pop();
    let text;
    try {
      text = toJSON(list, (key, value) => (typeof value === 'bigint' ? Number(value) : value));
    } catch (error) {
      throw new TypeError(name + ': arguments must be plain data (strings, numbers, arrays, objects): ' + error.message);
    }
    const reply = fromJSON(hostCall(kind, name, text));
    if (!reply.ok) throw new ToolError(reply.error);
    return reply.value;
  }

  function makeTool(entry) {
    const fn = function () {
      return invoke('tool', entry.name, arguments);
    };
    defineProperty(fn, 'name', { value: entry.name });
    defineProperty(fn, 'describe', { value: function describe() { return entry.describe; } });
    defineProperty(fn, 'toString', { value: function toString() { return '<tool ' + entry.signature + '>'; } });
    handles.set(fn, entry);
    return fn;
  }

  const PROMISE_NOTE =
    '[Promise: not a value yet. Tool functions return their results directly and need no await; ' +
    'for your own async functions print the awaited result, e.g. print(await main())]';

  function label(fn) {
    const entry = handles.get(fn);
    return entry ? '<tool ' + entry.signature + '>' : '[function ' + (fn.name || 'anonymous') + ']';
  }

  function replacer(key, value) {
    if (typeof value === 'bigint') return value.toString();
    if (typeof value === 'function') return label(value);
    if (typeof value === 'symbol') return value.toString();
    if (value instanceof PromiseCtor) return PROMISE_NOTE;
    if (value instanceof MapCtor) return fromEntries(value);
    if (value instanceof SetCtor) return Array.from(value);
    if (value instanceof ErrorCtor) return value.name + ': ' + value.message;
    return value;
  }

  function format(value) {
    if (typeof value === 'string') return value;
    if (value === undefined) return 'undefined';
    if (typeof value === 'function') return label(value);
    if (typeof value !== 'object' || value === null) return String(value);
    if (value instanceof PromiseCtor) return PROMISE_NOTE;
    if (value instanceof ErrorCtor) return value.name + ': ' + value.message;
    if (value instanceof DateCtor) return isNaN(value) ? 'Invalid Date' : value.toISOString();
    try {
      return toJSON(value, replacer);
    } catch (error) {
      // Circular structures: mark any object seen twice on the current path.
      const path = [];
      try {
        return toJSON(value, function (key, v) {
          while (path.length > 0 && path[path.length - 1] !== this) path.pop();
          const out = replacer(key, v);
          if (typeof out === 'object' && out !== null) {
            if (path.includes(out)) return '[Circular]';
            path.push(out);
          }
          return out;
        });
      } catch (again) {
        return String(value);
      }
    }
  }

  function print() {
    const parts = [];
    for (let i = 0; i < arguments.length; i++) parts.push(format(arguments[i]));
    write(parts.join(' ') + '\n');
  }

  function search_tools(query) {
    if (typeof query !== 'string') {
      throw new TypeError('search_tools(query) takes a string of English keywords, e.g. search_tools("download web page")');
    }
    const found = invoke('search', 'search_tools', [query]);
    if (found.hint) write(found.hint + '\n');
    const tools = [];
    for (let i = 0; i < found.names.length; i++) tools.push(makeTool(byName.get(found.names[i])));
    return tools;
  }
  defineProperty(search_tools, 'toString', {
    value: function toString() { return '<tool search_tools(query: string): tool[]>'; },
  });

  G.print = print;
  G.console = { log: print, info: print, warn: print, error: print, debug: print, table: print, dir: print };
  G.search_tools = search_tools;
  for (const entry of manifest) if (!entry.hidden) G[entry.name] = makeTool(entry);
})`;
