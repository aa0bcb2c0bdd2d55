/** A calculator value as a plain number, or the reason it is not one, written for the model (compute thread). */

export function numberResult(expression: string, value: unknown): { number: number } | { problem: string } {
  const type = (value as { type?: string } | null)?.type;
  // Exact numeric kinds become plain numbers; a complex value only when it is real.
  let n: unknown = value;
  if (type === 'BigNumber' || type === 'Fraction') n = Number((value as { valueOf(): unknown }).valueOf());
  if (type === 'Complex' && (value as { im: number }).im === 0) n = (value as { re: number }).re;
  if (typeof n === 'number') {
    if (Number.isFinite(n)) return { number: n };
    return {
      problem: `${JSON.stringify(expression)} has no finite result (${n}); check for division by zero or overflow.`,
    };
  }
  return {
    problem: `${JSON.stringify(expression)} evaluates to ${describeValue(value)}, not a single real number. ${hintFor(type, value)}`,
  };
}

function hintFor(type: string | undefined, value: unknown): string {
  if (type === 'Unit') return 'To get a number in a unit, write e.g. number(2 inch, "cm").';
  if (type === 'DenseMatrix' || type === 'SparseMatrix' || Array.isArray(value))
    return 'Reduce the list to one number, e.g. with sum(...), max(...) or mean(...).';
  if (type === 'Complex') return 'The result is complex; calculator returns real numbers only.';
  return 'calculator returns numbers only: write one arithmetic expression, e.g. "(3 + 4) * 2".';
}

/** Most elements of a matrix written out in a message. */
const SHOWN_ELEMENTS = 20;

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'boolean') return `a boolean (${value})`;
  if (typeof value === 'function') return 'a function';
  const type = (value as { type?: string } | null)?.type;
  const size = (value as { size?: () => number[] } | null)?.size;
  if ((type === 'DenseMatrix' || type === 'SparseMatrix') && typeof size === 'function') {
    const dims = size.call(value);
    if (dims.reduce((p, d) => p * d, 1) > SHOWN_ELEMENTS) return `a ${type} of size ${dims.join('×')}`;
  }
  const text = typeof (value as { toString?: () => string })?.toString === 'function' ? String(value) : '';
  const shown = text.length > 80 ? `${text.slice(0, 80)}…` : text;
  return `${type ? `a ${type}` : `a ${typeof value}`}${shown ? ` (${shown})` : ''}`;
}
