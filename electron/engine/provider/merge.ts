/**
 * Merging of the fields Parallax does not interpret, so that they go back to the provider as it sent them.
 * Top-level fields of a streamed delta follow the stream's delta convention (strings are pieces to join,
 * arrays are items to append); anything nested, and the fields of a tool call, are whole values (objects merge
 * key by key, the latest scalar wins).
 */
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Merge `next` into `prev` without mutating either. `asDelta`: join strings and append arrays. */
export function mergeValue(prev: unknown, next: unknown, asDelta: boolean): unknown {
  if (next === null || next === undefined) return prev;
  if (prev === null || prev === undefined) return next;
  if (asDelta && typeof prev === 'string' && typeof next === 'string') return prev + next;
  if (asDelta && Array.isArray(prev) && Array.isArray(next)) return [...prev, ...next];
  if (isPlainObject(prev) && isPlainObject(next)) {
    const out: Record<string, unknown> = { ...prev };
    for (const [k, v] of Object.entries(next)) out[k] = mergeValue(prev[k], v, false);
    return out;
  }
  return next;
}

/** Text fields of an OpenRouter reasoning detail that stream in pieces. */
const DETAIL_TEXT = new Set(['text', 'summary', 'data']);

/**
 * OpenRouter's `reasoning_details` stream as fragments of the same detail (same `index`): their text pieces
 * join, other fields (signature, format, id) are set as they arrive. Details without an index are appended.
 */
export function mergeReasoningDetails(list: Record<string, unknown>[], incoming: unknown): void {
  if (!Array.isArray(incoming)) return;
  for (const item of incoming) {
    if (!isPlainObject(item)) continue;
    const target =
      typeof item.index === 'number' ? list.find((d) => d.index === item.index && d.type === item.type) : undefined;
    if (!target) {
      list.push({ ...item });
      continue;
    }
    for (const [k, v] of Object.entries(item)) {
      if (v === null || v === undefined) continue;
      target[k] =
        DETAIL_TEXT.has(k) && typeof target[k] === 'string' && typeof v === 'string'
          ? (target[k] as string) + v
          : mergeValue(target[k], v, false);
    }
  }
}
