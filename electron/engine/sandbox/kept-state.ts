/**
 * codeState 'persist' inside the sandbox thread: which names a kept QuickJS context holds after a program, what
 * type each is, how large its JSON is, and how much memory the runtime uses, for the result the model reads.
 */
import type { QuickJSContext, QuickJSRuntime } from 'quickjs-emscripten';
import type { KeptState } from './protocol.js';

/** Names a program's text declares (top-level or not: a name that is not global is simply not found). */
export function declaredNames(code: string): string[] {
  const names: string[] = [];
  for (const m of code.matchAll(/\b(?:const|let|var|class|function\*?)\s+([A-Za-z_$][\w$]*)/g)) names.push(m[1]!);
  for (const m of code.matchAll(/\b(?:const|let|var)\s*[{[]([^=;]*)[}\]]\s*=/g)) {
    for (const id of m[1]!.matchAll(/(?:^|[,{[:\s])([A-Za-z_$][\w$]*)\s*(?=[,}\]=]|$)/g)) names.push(id[1]!);
  }
  return names;
}

/** Reads each stored name's type and JSON size inside the context (at most half a second), and the runtime's memory. */
const PROBE = String.raw`(function (namesText) {
  const out = [];
  for (const name of JSON.parse(namesText)) {
    let v;
    try { v = (0, eval)(name); } catch (e) { continue; }
    let type = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
    if (type === 'function' && typeof v.describe === 'function') type = 'tool';
    let bytes = null;
    try { const j = JSON.stringify(v); if (typeof j === 'string') bytes = j.length; } catch (e) {}
    out.push({ name: name, type: type, bytes: bytes });
  }
  return JSON.stringify(out);
})`;

/**
 * What a kept context holds: the declared names and any global the programs added (beside the prelude's
 * `baseline`), each with its type and JSON size, and the runtime's memory in use. The caller bounds its time.
 */
export function probeState(
  ctx: QuickJSContext,
  rt: QuickJSRuntime,
  declared: ReadonlySet<string>,
  baseline: ReadonlySet<string>,
): KeptState {
  let variables: KeptState['variables'] = [];
  try {
    const globals = ctx.unwrapResult(ctx.evalCode('JSON.stringify(Object.getOwnPropertyNames(globalThis))'));
    const names = new Set([
      ...declared,
      ...(JSON.parse(ctx.getString(globals)) as string[]).filter((n) => !baseline.has(n)),
    ]);
    globals.dispose();
    const probe = ctx.unwrapResult(ctx.evalCode(PROBE));
    const list = ctx.newString(JSON.stringify([...names].slice(0, 200)));
    const result = ctx.unwrapResult(ctx.callFunction(probe, ctx.undefined, list));
    variables = JSON.parse(ctx.getString(result)) as KeptState['variables'];
    for (const h of [probe, list, result]) h.dispose();
  } catch {
    // A variable whose JSON would not finish in time: report what memory says, without the list.
  }
  let memoryBytes: number | null = null;
  try {
    const usage = rt.computeMemoryUsage();
    memoryBytes = (ctx.dump(usage) as { memory_used_size?: number }).memory_used_size ?? null;
    usage.dispose();
  } catch {
    memoryBytes = null;
  }
  return { variables, memoryBytes };
}
