/**
 * Keeps recorded events small whatever a model or a program produces: every string in an event is cut at
 * RECORDED_STRING_CHARS, and once an event has recorded RECORDED_EVENT_CHARS in all, each further string keeps
 * only its start. Inside model-chosen values (tool arguments) lists and objects are cut at MAX_ITEMS entries and
 * MAX_DEPTH levels too; the lists the event itself is made of (tool calls, hits, tools) are never cut, so
 * counts stay exact. A cut string ends with a marker giving its full length, and the event lists what was cut
 * in `clipped`, so the record says plainly that (and how much) is missing.
 */
import {
  RECORDED_EVENT_CHARS,
  RECORDED_STRING_CHARS,
  type ClippedField,
  type StepEventInput,
} from '../../shared/step-event.js';

/** Entries kept of a list or object inside a model-chosen value. */
const MAX_ITEMS = 1000;
/** Nesting kept inside a model-chosen value. */
const MAX_DEPTH = 20;
/** What a string keeps once the event's budget is spent. */
const SPENT_CHARS = 256;
/** Clipped fields listed by path; a marker inside each cut string still gives its full length. */
const MAX_LISTED = 100;

export function clipEvent<E extends StepEventInput>(event: E): E {
  const clipped: ClippedField[] = [];
  let budget = RECORDED_EVENT_CHARS;
  let changed = false;
  const note = (path: string, length: number): void => {
    changed = true;
    if (clipped.length < MAX_LISTED) clipped.push({ path, length });
  };

  const clipString = (text: string, path: string): string => {
    const keep = Math.min(RECORDED_STRING_CHARS, Math.max(SPENT_CHARS, budget));
    if (text.length <= keep) {
      budget -= text.length;
      return text;
    }
    budget -= keep;
    note(path, text.length);
    return `${text.slice(0, keep)}…[recorded ${keep} of ${text.length} characters]`;
  };

  /** `free`: inside a value the model chose (tool arguments), where lists and objects are cut too. */
  const walk = (value: unknown, path: string, depth: number, free: boolean): unknown => {
    if (typeof value === 'string') return clipString(value, path);
    if (value === null || typeof value !== 'object') return value;
    if (free && depth > MAX_DEPTH) {
      note(path, 1);
      return `…[nested deeper than ${MAX_DEPTH} levels, not recorded]`;
    }
    const inside = (key: string | number): string => (path ? `${path}.${key}` : String(key));
    const freeBelow = (key: string): boolean => free || key === 'args';
    if (Array.isArray(value)) {
      const kept = free && value.length > MAX_ITEMS ? value.slice(0, MAX_ITEMS) : value;
      if (kept !== value) note(path, value.length);
      const out = kept.map((item, i) => walk(item, inside(i), depth + 1, free));
      return out.every((item, i) => item === kept[i]) && kept === value ? value : out;
    }
    const entries = Object.entries(value as Record<string, unknown>);
    const keptEntries = free && entries.length > MAX_ITEMS ? entries.slice(0, MAX_ITEMS) : entries;
    if (keptEntries !== entries) note(path, entries.length);
    let same = keptEntries === entries;
    const out: Record<string, unknown> = {};
    for (const [key, item] of keptEntries) {
      const next = walk(item, inside(key), depth + 1, freeBelow(key));
      if (next !== item) same = false;
      out[key] = next;
    }
    return same ? value : out;
  };

  const result = walk(event, '', 0, false) as E;
  if (!changed) return result;
  return { ...result, clipped } as E;
}
