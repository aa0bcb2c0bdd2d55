/**
 * YAML aliases share one value among many places, so a small file can stand for a huge document (an "alias
 * bomb": 8 levels of 9 aliases are 9^8 = 43 million leaves). js-yaml keeps the sharing, but everything after
 * it (validation, JSON, the record) would expand it. This measures the expanded size without expanding
 * (each distinct value is sized once) and names the first key whose value is too large.
 */

/** Most values (objects, arrays and scalars) a suite file may stand for once its aliases are expanded. */
export const SUITE_EXPANDED_VALUES = 100_000;

export interface ExpandedTooLarge {
  /** The key path, e.g. `tasks[0].validate.equals` or `bomb`; "(the whole file)" for the top. */
  readonly key: string;
  /** Expanded size of that key's value (at least the cap; capped at a huge number for a cycle). */
  readonly values: number;
}

/** The first key (in file order) whose expanded value passes `cap`, or null when the whole document is within it. */
export function expandedTooLarge(doc: unknown, cap = SUITE_EXPANDED_VALUES): ExpandedTooLarge | null {
  const sizes = new Map<object, number>();
  const busy = new Set<object>();
  const size = (value: unknown): number => {
    if (value === null || typeof value !== 'object') return 1;
    const known = sizes.get(value);
    if (known !== undefined) return known;
    if (busy.has(value)) return Number.MAX_SAFE_INTEGER; // a value that contains itself never ends
    busy.add(value);
    let total = 1;
    for (const child of Object.values(value)) total = Math.min(Number.MAX_SAFE_INTEGER, total + size(child));
    busy.delete(value);
    sizes.set(value, total);
    return total;
  };
  if (size(doc) <= cap) return null;
  // Down from the top, into the first child that alone passes the cap, until none does.
  let node = doc as object;
  let key = '';
  for (;;) {
    const entries = Object.entries(node);
    const next = entries.find(([, v]) => v !== null && typeof v === 'object' && size(v) > cap);
    if (!next || next[1] === node) break;
    key += Array.isArray(node) ? `[${next[0]}]` : `${key ? '.' : ''}${next[0]}`;
    node = next[1] as object;
  }
  return { key: key || '(the whole file)', values: size(node) };
}
