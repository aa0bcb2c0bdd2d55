import { z } from 'zod';
import { ComputeError, computeThread } from './compute/compute-thread.js';
import { DEFAULT_TOOL_LIMITS, limitsOf } from './limits.js';
import { defineTool, ToolError } from './tool.js';

/**
 * The calculator evaluates with mathjs in the compute thread (compute/calc.ts): an allowlist of functions with
 * size caps, under a deadline (its own timeout, or the program's remaining time in Code Mode) and a heap limit.
 * Nothing here can block the worker or exhaust its memory.
 */

/** Start the compute thread ahead of a measured run (mathjs itself loads with the first calculation). */
export async function warmUpCalculator(): Promise<void> {
  // A thread that cannot start is reported by the first call that needs it, not by the worker's start.
  await computeThread()
    .warmUp()
    .catch(() => undefined);
}

/** Longest wait for the math library to load in the compute thread (normally ~0.2 s). */
const LIBRARY_LOAD_TIMEOUT_MS = 60_000;

export const calculator = defineTool({
  name: 'calculator',
  description:
    'Evaluate one arithmetic expression and return the result as a number, e.g. "123 * 456 + 789" or ' +
    '"20 * 9 / 5 + 32". Supports + - * / ^ %, parentheses and functions such as sqrt, round, log, sin; no variables or code.',
  args: z.object({
    expression: z
      .string()
      .describe(
        `One arithmetic expression (math.js syntax, up to ${DEFAULT_TOOL_LIMITS.calculatorMaxChars} characters), e.g. "(3 + 4) * 2".`,
      ),
  }),
  returns: 'number',
  async run({ expression }, ctx): Promise<number> {
    const limits = limitsOf(ctx);
    const max = limits.calculatorMaxChars;
    if (expression.trim() === '')
      throw new ToolError('The expression is empty. Pass one arithmetic expression, e.g. "123 * 456 + 789".');
    if (expression.length > max) {
      throw new ToolError(
        `The expression is ${expression.length} characters; calculator accepts up to ${max}. Split it into smaller calculations.`,
      );
    }
    let result: { number: number } | { problem: string };
    try {
      // Loading the library is not the expression's work: a loaded machine must not turn it into a time-out.
      await computeThread().run('calc-load', {}, { signal: ctx.signal, timeoutMs: LIBRARY_LOAD_TIMEOUT_MS });
      result = await computeThread().run(
        'calc',
        { expression },
        { signal: ctx.signal, timeoutMs: limits.calculatorTimeoutMs },
      );
    } catch (error) {
      if (!(error instanceof ComputeError)) throw error;
      if (error.kind === 'cancel') throw new ToolError(`calculator was ${error.message}.`);
      const reason = error.kind === 'input' ? error.message : `calculation ${error.message}`;
      throw new ToolError(
        `calculator could not evaluate ${JSON.stringify(expression)}: ${reason}. ` +
          'Write one arithmetic expression with numbers, operators and math functions, e.g. "(3 + 4) * 2".',
      );
    }
    if ('problem' in result) throw new ToolError(result.problem);
    return result.number;
  },
});
