/**
 * A suite's `regex` validator runs in a linear-time engine (RE2JS, RE2's automata: no backtracking), so a
 * pattern such as ^(\w+\s?)*$ cannot hold the host's CPU on a model's answer, as a backtracking RegExp did
 * for over 20 s. RE2 has no backreferences or lookaround and writes a code point as \x{00e9}, not \u00e9:
 * such a pattern is refused when the suite is loaded, saying so.
 */
import { RE2JS } from 're2js';

/** The compiled pattern, or why RE2 cannot run it (a sentence that says what to write instead). */
export function compileLinearRegex(source: string, flags = ''): RE2JS | string {
  let bits = 0;
  if (flags.includes('i')) bits |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) bits |= RE2JS.MULTILINE;
  if (flags.includes('s')) bits |= RE2JS.DOTALL;
  try {
    return RE2JS.compile(source, bits);
  } catch (error) {
    const why = (error as Error).message.replace(/^error parsing regexp: /, '');
    return `${why}. Suite regexes run in a linear-time engine (RE2), which has no backreferences or lookaround and writes \\u00e9 as \\x{00e9}; rewrite it, or use a js check`;
  }
}
