/**
 * The JSON path subset of suite validators, documented in the README: `$`, then `.name`, `[index]` or
 * `["any key"]` steps (no wildcards, filters or slices: a validator names one value).
 */

export type JsonFound =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly reason: string };

/** The JSON in an answer: the whole answer, else a ```json fenced block, else the outermost {…} or […]. */
export function jsonIn(answer: string): JsonFound {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)\n\s*```/.exec(answer)?.[1];
  const braces = /[{[][\s\S]*[}\]]/.exec(answer)?.[0];
  for (const text of [answer.trim(), fenced, braces]) {
    if (text === undefined) continue;
    try {
      return { ok: true, value: JSON.parse(text) as unknown };
    } catch {
      /* try the next candidate */
    }
  }
  return { ok: false, reason: 'the answer holds no JSON (as a whole, in a ```json block, or between { } or [ ]).' };
}

export function readPath(doc: unknown, path: string): { readonly found: boolean; readonly value?: unknown } {
  const step = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\["([^"]*)"\]/y;
  step.lastIndex = path.startsWith('$') ? 1 : 0;
  let at: unknown = doc;
  while (step.lastIndex < path.length) {
    const m = step.exec(path);
    if (!m) return { found: false };
    if (m[2] !== undefined) {
      const i = Number(m[2]);
      if (!Array.isArray(at) || i >= at.length) return { found: false };
      at = at[i];
    } else {
      const key = m[1] ?? m[3]!;
      if (typeof at !== 'object' || at === null || Array.isArray(at) || !Object.hasOwn(at, key))
        return { found: false };
      at = (at as Record<string, unknown>)[key];
    }
  }
  return { found: true, value: at };
}

/** Deep equality of JSON values (key order does not matter). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a))
    return a.length === (b as unknown[]).length && a.every((v, i) => sameJson(v, (b as unknown[])[i]));
  const ka = Object.keys(a),
    kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every(
      (k) => Object.hasOwn(b, k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    )
  );
}
