/** Helpers the domains share: Python's max/min with a key, which keep the first of equal items. */
import { pyGreater, pyLess, type PyValue } from '../py-value.js';

export function pyMaxBy<T>(items: readonly T[], key: (item: T) => PyValue): T {
  return items.reduce((best, x) => (pyGreater(key(x), key(best)) ? x : best));
}

export function pyMinBy<T>(items: readonly T[], key: (item: T) => PyValue): T {
  return items.reduce((best, x) => (pyLess(key(x), key(best)) ? x : best));
}
