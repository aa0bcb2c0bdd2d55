/**
 * M3ToolEval's scoring, as its harness (`Task.check_answer`) actually behaves, so figures compare with the
 * paper's. Its steps, in order:
 *   1. the answer text equals the expected value (only possible when that value is a str);
 *   2. both converted "to the correct type" are equal: int(x), else float(x), else x itself. For an expected
 *      float that is int(expected), so "161" matches 161.25; for a list, tuple or dict the conversion raises and
 *      the harness skips straight to step 4 with the answer text unchanged;
 *   3. the answer read with ast.literal_eval replaces the text when it parses (the comparison written after it
 *      in the original always raises, so only this replacement has an effect);
 *   4. str(answer) == str(expected).
 * The answer is what follows "Answer:" in the final reply (up to a second "Answer:"), as the harness parses
 * it, or the whole reply when it has no "Answer:".
 */
import { PyError, repr, str, type PyValue, pyEquals, PyTuple, PyDict } from './py-value.js';
import { literalEval } from './py-expr.js';

export interface M3Score {
  readonly ok: boolean;
  /** The text judged (after "Answer:", stripped). */
  readonly answer: string;
  /** Which step matched, or why none did. */
  readonly how: string;
}

/** The harness's answer extraction: the text after the first "Answer:", stripped. */
export function answerText(reply: string): string {
  const parts = reply.split('Answer:');
  if (parts.length === 1) return reply.trim();
  return parts[1].trim();
}

/** int(x) for a str as Python reads it: optional sign, digits with single underscores between them, spaces around. */
function intOfText(s: string): bigint | undefined {
  const t = s.trim();
  if (!/^[+-]?\d(?:_?\d)*$/.test(t)) return undefined;
  return BigInt(t.replace(/_/g, ''));
}

/** float(x) for a str: Python's float syntax, inf and nan included. */
function floatOfText(s: string): number | undefined {
  const t = s.trim();
  if (/^[+-]?(inf|infinity)$/i.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
  if (/^[+-]?nan$/i.test(t)) return NaN;
  const d = String.raw`\d(?:_?\d)*`;
  if (!new RegExp(String.raw`^[+-]?(?:${d}\.?(?:${d})?|\.${d})(?:[eE][+-]?${d})?$`).test(t)) return undefined;
  return Number(t.replace(/_/g, ''));
}

class Skip extends Error {}

/** `_try_to_convert_to_correct_type`: int, then float, then the value itself; containers raise (TypeError). */
function convert(v: PyValue): PyValue {
  if (typeof v === 'string') return intOfText(v) ?? floatOfText(v) ?? v;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) {
      if (Number.isNaN(v)) return v; // int(nan) raises ValueError; float(nan) is nan
      throw new Skip(); // int(inf) raises OverflowError, which the harness's except catches
    }
    return BigInt(Math.trunc(v));
  }
  throw new Skip(); // int(list), int(tuple), int(dict), int(None): TypeError
}

/** The final reply judged as the harness judges the text it parses out of a generation. */
export function scoreAnswer(reply: string, expected: PyValue): M3Score {
  return checkAnswer(answerText(reply), expected);
}

/** `Task.check_answer(answer)` for an answer text exactly as given (the harness strips it first). */
export function checkAnswer(answer: string, expected: PyValue): M3Score {
  let judged: PyValue = answer;
  try {
    if (typeof expected === 'string' && answer === expected)
      return { ok: true, answer, how: 'the answer is the expected text' };
    const a = convert(answer);
    const e = convert(expected);
    if (pyEquals(a, e)) return { ok: true, answer, how: `read as a number, ${repr(a)} equals ${repr(e)}` };
    try {
      judged = literalEval(answer);
    } catch (error) {
      if (!(error instanceof PyError)) throw error;
    }
  } catch (error) {
    if (!(error instanceof Skip)) throw error;
  }
  const ok = str(judged) === str(expected);
  return ok
    ? { ok, answer, how: `its text ${JSON.stringify(str(judged))} is the expected value's` }
    : { ok, answer, how: `its text ${JSON.stringify(str(judged))} is not ${JSON.stringify(str(expected))}` };
}

/** The expected value's kind in words, for a detail line. */
export function kindOf(v: PyValue): string {
  if (v instanceof PyTuple) return 'tuple';
  if (v instanceof PyDict) return 'dict';
  if (Array.isArray(v)) return 'list';
  return typeof v === 'bigint'
    ? 'int'
    : typeof v === 'number'
      ? 'float'
      : typeof v === 'string'
        ? 'str'
        : typeof v === 'boolean'
          ? 'bool'
          : 'None';
}

/** What the original harness says to a wrong answer before the model's next turn (its main.py). */
export const WRONG_ANSWER_FEEDBACK =
  'Your answer is incorrect. Please try again. Note that you should ONLY output the answer (e.g., single number), without any other text.';

/** The harness's reply to a final answer: null when it is right, else its feedback (the run goes on, as in the paper). */
export function answerFeedback(reply: string, expected: PyValue): string | null {
  return scoreAnswer(reply, expected).ok ? null : WRONG_ANSWER_FEEDBACK;
}
