/**
 * How the simulated model does an M3ToolEval task, written once per task shape as a plan: named steps, each a
 * tool call or a small computation the model does itself (pick the cheapest, take a field, multiply), and the
 * answer. One plan drives every mode: ReAct calls each step's tool when its inputs are known (steps that are
 * ready together go out as parallel calls) and reads the real results; Code Mode writes the plan out as one
 * JavaScript or Python program and reads what it printed (sim/code-policy.ts).
 */
import { add, mul, sub } from '../py-arith.js';
import { pyMax, pyMin } from '../py-expr.js';
import { iterate, PyDict, PyError, pyEquals, pyLen, PyTuple, repr, str, type PyValue } from '../py-value.js';
import { pyMaxBy, pyMinBy } from '../domains/common.js';

/** What the model computes itself, without a tool. */
export type Op =
  | 'at' // x[key]
  | 'minBy' // the item with the smallest x[key]
  | 'maxBy'
  | 'min' // the smallest item of a list (the model's own min)
  | 'max'
  | 'mul'
  | 'add'
  | 'sub'
  | 'repeat' // a str n times
  | 'list'
  | 'len'
  | 'int' // a str of digits as an int
  | 'pairs' // a dict's keys and values, flattened
  | 'without' // the dicts whose `preferences` lack a word
  | 'pickWhere' // the items whose paired value equals a target (the first)
  | 'longestWhere' // the longest item whose paired flag is true
  | 'contains' // a str holds a word
  | 'split' // a str cut at a separator
  | 'join' // strs joined with nothing between
  | 'cond'; // a ? b : c

export type Expr =
  | { readonly k: 'lit'; readonly v: PyValue }
  | { readonly k: 'ref'; readonly name: string }
  | { readonly k: 'op'; readonly op: Op; readonly args: readonly Expr[] };

export interface Step {
  readonly name: string;
  /** A tool call (its arguments in order, a variadic one spread) or, without a tool, the model's own computation. */
  readonly tool?: string;
  readonly args: readonly Expr[];
  /** With `op` and no tool: the computation. */
  readonly op?: Op;
  /** The step is made only when this holds (a check before going on). */
  readonly when?: Expr;
  /** The last argument is a list the call spreads into its variadic parameter (`f(*xs)`). */
  readonly spread?: boolean;
}

/** How the instruction asks the answer to be written: as the value reads, or as 'xx.xx' (two decimals). */
export type AnswerStyle = 'value' | 'cents';

export interface Plan {
  readonly steps: readonly Step[];
  readonly answer: Expr;
  readonly style?: AnswerStyle;
}

export const lit = (v: PyValue): Expr => ({ k: 'lit', v });
export const ref = (name: string): Expr => ({ k: 'ref', name });
export const op = (o: Op, ...args: Expr[]): Expr => ({ k: 'op', op: o, args });
export const call = (name: string, tool: string, ...args: Expr[]): Step => ({ name, tool, args });
export const calc = (name: string, o: Op, ...args: Expr[]): Step => ({ name, op: o, args });
export const when = (step: Step, condition: Expr): Step => ({ ...step, when: condition });
export const spread = (step: Step): Step => ({ ...step, spread: true });

/** A plan whose later step needs a value that is not there: a programming error in a plan, not a model error. */
export class PlanError extends Error {}

function item(x: PyValue, key: PyValue): PyValue {
  if (x instanceof PyDict) {
    const v = x.get(key);
    if (v === undefined) throw new PyError('KeyError', repr(key));
    return v;
  }
  const items = x instanceof PyTuple ? x.items : Array.isArray(x) ? x : typeof x === 'string' ? [...x] : null;
  if (!items || typeof key !== 'bigint') throw new PyError('TypeError', `cannot index ${repr(x)} with ${repr(key)}`);
  const at = Number(key < 0n ? BigInt(items.length) + key : key);
  if (at < 0 || at >= items.length) throw new PyError('IndexError', 'list index out of range');
  return items[at];
}

export function applyOp(o: Op, a: readonly PyValue[]): PyValue {
  switch (o) {
    case 'at':
      return item(a[0], a[1]);
    case 'minBy':
      return pyMinBy(iterate(a[0]), (x) => item(x, a[1]));
    case 'maxBy':
      return pyMaxBy(iterate(a[0]), (x) => item(x, a[1]));
    case 'min':
      return pyMin([a[0]]);
    case 'max':
      return pyMax([a[0]]);
    case 'mul':
      return mul(a[0], a[1]);
    case 'add':
      return add(a[0], a[1]);
    case 'sub':
      return sub(a[0], a[1]);
    case 'repeat':
      return str(a[0]).repeat(Number(a[1]));
    case 'list':
      return [...a];
    case 'len':
      return pyLen(a[0]);
    case 'int': {
      const t = str(a[0]).trim();
      if (!/^[+-]?\d+$/.test(t))
        throw new PyError('ValueError', `invalid literal for int() with base 10: ${repr(a[0])}`);
      return BigInt(t);
    }
    case 'pairs':
      return a[0] instanceof PyDict ? a[0].entries.flat() : iterate(a[0]);
    case 'without':
      return iterate(a[0]).filter((h) => !iterate(item(h, 'preferences')).some((p) => pyEquals(p, a[1])));
    case 'pickWhere': {
      const items = iterate(a[0]);
      const values = iterate(a[1]);
      const at = values.findIndex((v) => pyEquals(v, a[2]));
      if (at < 0) throw new PyError('IndexError', 'list index out of range');
      return items[at];
    }
    case 'longestWhere': {
      const items = iterate(a[0]).filter((_x, i) => iterate(a[1])[i] === true);
      if (items.length === 0) throw new PyError('ValueError', 'max() arg is an empty sequence');
      return pyMaxBy(items, (x) => pyLen(x));
    }
    case 'contains':
      return str(a[0]).includes(str(a[1]));
    case 'split':
      return str(a[0]).split(str(a[1]));
    case 'join':
      return iterate(a[0]).map(str).join('');
    case 'cond':
      return a[0] === true ? a[1] : a[2];
  }
}

export type Env = ReadonlyMap<string, PyValue>;

export function evaluate(e: Expr, env: Env): PyValue {
  switch (e.k) {
    case 'lit':
      return e.v;
    case 'ref': {
      if (!env.has(e.name)) throw new PlanError(`step ${e.name} has no value yet`);
      return env.get(e.name)!;
    }
    case 'op':
      // A condition picks one branch; the other may name a step that was never made.
      if (e.op === 'cond')
        return evaluate(e.args[0], env) === true ? evaluate(e.args[1], env) : evaluate(e.args[2], env);
      return applyOp(
        e.op,
        e.args.map((x) => evaluate(x, env)),
      );
  }
}

/** The names an expression reads. */
export function refsOf(e: Expr): string[] {
  if (e.k === 'ref') return [e.name];
  if (e.k === 'op') return e.args.flatMap(refsOf);
  return [];
}

export function stepRefs(s: Step): string[] {
  return [...s.args.flatMap(refsOf), ...(s.when ? refsOf(s.when) : [])];
}
