/** Composer choices and theme survive restarts (localStorage; never keys — those live in the host). */
import type { ComposerForm } from '../store/composer-model.js';
import { DEFAULT_DRAFT, orderModes } from '../store/composer-model.js';
import type { Theme } from '../store/ui-slice.js';
import { restoreVariants } from '../store/composer-variants.js';
import { currentSettingNames, isModeId } from '../../shared/run-spec.js';
import { FORMER_SETTING_NAMES } from '../../shared/former-setting-names.js';

const KEY = 'parallax.prefs.v1';

export interface Prefs {
  readonly form?: Partial<ComposerForm>;
  readonly theme?: Theme;
  readonly sidebarHidden?: boolean;
}

/** A saved draft's settings under today's names, without any former name left beside its new one. */
function savedDraft(settings: unknown): Record<string, unknown> {
  if (!settings || typeof settings !== 'object') return {};
  const current = currentSettingNames(settings as Record<string, unknown>);
  return Object.fromEntries(Object.entries(current).filter(([key]) => !(key in FORMER_SETTING_NAMES)));
}

export function loadPrefs(): Prefs {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return {};
    const p = JSON.parse(raw) as Prefs;
    // A saved draft from an older version may lack newer settings: fill them from the defaults.
    // One saved before a setting was renamed holds it under its former name (both names: today's is kept).
    const form = p.form ? { ...p.form, settings: { ...DEFAULT_DRAFT, ...savedDraft(p.form.settings) } } : undefined;
    // Modes saved by another version: keep the known ones in order; if none is known, keep the defaults.
    if (form && Array.isArray(p.form?.modes)) {
      const modes = orderModes(p.form.modes);
      if (modes.length > 0 || p.form.modes.length === 0) form.modes = modes;
      else delete form.modes;
    }
    // Variant rows saved by another version: the rows this one can read, or none.
    if (form && 'variants' in form) {
      const rows = restoreVariants(form.variants, isModeId);
      if (rows?.length) form.variants = rows;
      else delete form.variants;
    }
    return {
      form,
      theme: p.theme === 'dark' || p.theme === 'light' ? p.theme : undefined,
      sidebarHidden: p.sidebarHidden === true,
    };
  } catch {
    return {};
  }
}

let timer: ReturnType<typeof setTimeout> | null = null;
let pending: Prefs | null = null;

function write(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  if (!pending) return;
  try {
    localStorage.setItem(KEY, JSON.stringify(pending));
  } catch {
    /* storage full or disabled: preferences are a convenience */
  }
  pending = null;
}

/** Debounced while typing; written at once when the page goes away so the last change is not lost. */
export function savePrefs(prefs: Prefs): void {
  pending = prefs;
  if (timer) clearTimeout(timer);
  timer = setTimeout(write, 300);
}

if (typeof window !== 'undefined') window.addEventListener('pagehide', write);
