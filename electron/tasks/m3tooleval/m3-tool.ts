/**
 * One M3ToolEval tool as ported: the original's name, description and parameters (a `*args` parameter is
 * variadic), its return type written for the TypeScript catalog and as the original's Python signature writes
 * it, and the function over Python values. `run` takes the arguments by position, a variadic one spread, as
 * the original functions do.
 */
import type { PyValue } from './py-value.js';
import type { WebBrowser } from './domains/web-browser.js';

export type M3ParamType = 'str' | 'float' | 'int' | 'any';

export interface M3Param {
  readonly name: string;
  readonly type: M3ParamType;
  /** `*args`: takes every remaining positional argument. */
  readonly variadic?: boolean;
}

/** What one run's tools share: web browsing's browser (its page, scroll position and history). */
export interface M3Session {
  browser?: WebBrowser;
}

export interface M3Tool {
  readonly name: string;
  readonly description: string;
  readonly params: readonly M3Param[];
  /** For the JavaScript catalog, e.g. `string` or `[string, number]`. */
  readonly returns: string;
  /** The original signature's return type, e.g. `(str, int)` or `List[Dict]`. */
  readonly pythonReturns: string;
  /** The original tool is Python's built-in of that name (travel's max and min): Python programs call the built-in. */
  readonly pythonBuiltin?: boolean;
  run(args: readonly PyValue[], session: M3Session): PyValue;
}
