/**
 * Judges a suite task's answer with the validator its suite file gives (shared/suite.ts). The JS check is the
 * suite author's code: it runs in the Code Mode sandbox (QuickJS in its own thread) with no tools, a short
 * time limit and small memory and output caps, so a check that loops, floods or reaches for the host fails
 * the run instead of hanging or escaping. Built-in tasks keep their own validators (engine/tasks/validate.ts).
 */
import { DEFAULT_SETTINGS } from '../../shared/run-spec.js';
import type { SuiteValidator } from '../../shared/suite.js';
import type { Validation } from '../../shared/step-event.js';
import { formatCodeError, runProgram } from '../engine/sandbox/index.js';
import { numbersIn } from '../tasks/numbers-in.js';
import { jsonIn, readPath, sameJson } from './json-path.js';
import { compileLinearRegex } from './linear-regex.js';

/** Limits of a JS check: a judgement, not a computation. */
export const JS_CHECK_LIMITS = { timeoutMs: 1000, memoryMb: 16, outputChars: 10_000, maxToolCalls: 0 } as const;

const quote = (text: string, max = 120): string => JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);

export async function validateSuiteAnswer(v: SuiteValidator, answer: string): Promise<Validation> {
  if ('exact' in v) {
    const ok = answer.trim() === v.exact.trim();
    return { ok, detail: `Expected exactly ${quote(v.exact)}; got ${quote(answer.trim())}.` };
  }
  if ('regex' in v) {
    const re = compileLinearRegex(v.regex, v.flags);
    if (typeof re === 'string')
      return { ok: false, detail: `The regex /${v.regex}/${v.flags ?? ''} cannot be matched: ${re}` };
    return {
      ok: re.matcher(answer).find(),
      detail: `Expected a match of /${v.regex}/${v.flags ?? ''}; got ${quote(answer.trim())}.`,
    };
  }
  if ('number' in v) {
    // Like the built-in calc task: some number written in the answer is the expected one (within the tolerance).
    const tol = v.tolerance ?? 0;
    const found = numbersIn(answer);
    const ok = found.some((n) => Math.abs(n - v.number) <= tol);
    return {
      ok,
      detail: `Expected ${v.number}${tol ? ` ± ${tol}` : ''}; found ${found.length ? found.join(', ') : 'no number'}.`,
    };
  }
  if ('jsonPath' in v) {
    const doc = jsonIn(answer);
    if (!doc.ok)
      return { ok: false, detail: `Expected JSON with ${v.jsonPath} = ${JSON.stringify(v.equals)}; ${doc.reason}` };
    const got = readPath(doc.value, v.jsonPath);
    if (!got.found)
      return {
        ok: false,
        detail: `Expected ${v.jsonPath} = ${JSON.stringify(v.equals)}; the answer's JSON has no ${v.jsonPath}.`,
      };
    return {
      ok: sameJson(got.value, v.equals),
      detail: `Expected ${v.jsonPath} = ${JSON.stringify(v.equals)}; found ${quote(JSON.stringify(got.value) ?? 'undefined')}.`,
    };
  }
  return jsCheck(v.js, answer);
}

/**
 * `code` is an expression over `answer` ("answer.includes('x')") or a function body with `return`. It passes
 * when it returns true (or a truthy value), or `{ok, detail}` to say why.
 */
export async function jsCheck(code: string, answer: string): Promise<Validation> {
  // Compiled inside the sandbox: as an expression first, else as a function body (statements, `return`).
  const program =
    `const __print = print, __json = JSON.stringify, __code = ${JSON.stringify(code)};\n` +
    `let __check;\n` +
    `try { __check = new Function('answer', 'return (\\n' + __code + '\\n);'); }\n` +
    `catch (e) { if (!(e instanceof SyntaxError)) throw e; __check = new Function('answer', __code); }\n` +
    `const __result = __check(${JSON.stringify(answer)});\n` +
    `__print(__json({ value: __result === undefined ? null : __result }));\n`;
  const controller = new AbortController();
  const result = await runProgram(program, {
    tools: [],
    returnTypes: false,
    limits: JS_CHECK_LIMITS,
    ctx: { workspace: '/nonexistent', signal: controller.signal, settings: DEFAULT_SETTINGS },
  });
  if (result.error)
    return { ok: false, detail: `The JS check failed: ${formatCodeError(result.error).split('\n')[0]}` };
  const last = result.output.trimEnd().split('\n').pop() ?? '';
  let value: unknown;
  try {
    value = (JSON.parse(last) as { value: unknown }).value;
  } catch {
    return { ok: false, detail: `The JS check printed no result (output: ${quote(result.output)}).` };
  }
  if (typeof value === 'object' && value !== null && 'ok' in value) {
    const r = value as { ok: unknown; detail?: unknown };
    return {
      ok: r.ok === true,
      detail: typeof r.detail === 'string' ? r.detail : `The JS check returned ok: ${String(r.ok)}.`,
    };
  }
  const shown = JSON.stringify(value);
  return {
    ok: Boolean(value),
    detail: `The JS check returned ${shown.length > 120 ? `${shown.slice(0, 120)}…` : shown}.`,
  };
}
