/**
 * Settings renamed since comparisons were first stored, and how a record written before a rename is read: its
 * former name moved to today's (`history` → `toolHistory`, named apart from the History of comparisons). Free of
 * zod, so the history list's quick path (electron/host/history-summary.ts) reads old summaries the same way as
 * parseSettings, the meta.json and event checks, suites, variant columns and saved composer choices do.
 */
import type { ComparisonMeta } from './ipc-contract.js';

/** Former name → name now. A knob's former name is also its former CLI flag (`--history`), hidden from the help. */
export const FORMER_SETTING_NAMES: Readonly<Record<string, string>> = { history: 'toolHistory' };

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Why a settings object cannot be read under today's names: it sets a renamed setting under both its former
 * name and its name now, and nothing says which one was meant. Null when it does not.
 */
export function formerNameConflict(input: unknown): string | null {
  if (!isRecord(input)) return null;
  const both = Object.entries(FORMER_SETTING_NAMES).filter(
    ([was, now]) => Object.hasOwn(input, was) && Object.hasOwn(input, now),
  );
  if (both.length === 0) return null;
  return both
    .map(([was, now]) => `"${was}" is the former name of "${now}" and both are set; keep only "${now}"`)
    .join('; ');
}

/**
 * The settings with each renamed setting moved from its former name to its name now. Anything that is no
 * settings object, or holds no former name, comes back as it is (the same object); with both names
 * (formerNameConflict) the former one is left where it is, for the misspelt-key check to refuse.
 */
export function currentSettingNames<T>(input: T): T {
  if (!isRecord(input) || !Object.keys(FORMER_SETTING_NAMES).some((was) => Object.hasOwn(input, was))) return input;
  // Own names only, and built with fromEntries: a key such as "__proto__" or "constructor" (the settings may come
  // from a page) stays a plain key for the misspelt-key check to refuse, never a prototype or a lookup hit.
  const renamed = (key: string) => {
    const now = Object.hasOwn(FORMER_SETTING_NAMES, key) ? FORMER_SETTING_NAMES[key]! : null;
    return now !== null && !Object.hasOwn(input, now) ? now : key;
  };
  return Object.fromEntries(Object.entries(input).map(([key, value]) => [renamed(key), value])) as T;
}

/** A meta.json as today's readers expect it: its settings and its columns' settings under their current names. */
export function metaWithCurrentNames(meta: ComparisonMeta): ComparisonMeta {
  const settings = currentSettingNames(meta.settings);
  const variants = meta.variants?.map((v) => {
    const s = v.settings && currentSettingNames(v.settings);
    return s === v.settings ? v : { ...v, settings: s };
  });
  const same = settings === meta.settings && (variants ?? []).every((v, i) => v === meta.variants![i]);
  return same ? meta : { ...meta, settings, ...(variants ? { variants } : {}) };
}
