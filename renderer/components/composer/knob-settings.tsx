/** The experiment knobs (shared/run-knobs.ts) in the composer's Advanced settings: one select each, its meaning below. */
import { KNOB_IDS, knobMeaning, knobOf, KNOBS } from '../../../shared/run-knobs.js';
import { useApp } from '../../store/app-store.js';
import type { KnobSetting, SettingsDraft } from '../../store/composer-model.js';
import { composerSelectors } from '../../store/selectors.js';

/** The knobs set for the whole comparison, in their definition order. */
const COMPARISON_KNOBS: readonly KnobSetting[] = KNOB_IDS.filter((id) => knobOf(id).scope.comparison);

/** A knob's value in the draft (forms saved before a knob existed hold none: its default). */
export const knobValue = (draft: SettingsDraft, key: KnobSetting): string => draft[key] ?? KNOBS[key].default;

/** How many knobs differ from their defaults, for the Advanced section's "n changed". */
export const knobsChanged = (draft: SettingsDraft): number =>
  COMPARISON_KNOBS.filter((key) => knobValue(draft, key) !== KNOBS[key].default).length;

export function KnobSettings() {
  const draft = useApp(composerSelectors.settings);
  const setSetting = useApp((s) => s.setSetting);
  return (
    <>
      <h4 className="subgroup-title">Experiment knobs</h4>
      <div className="knob-fields">
        {COMPARISON_KNOBS.map((key) => {
          const { label, values, appliesTo } = knobOf(key);
          const value = knobValue(draft, key);
          return (
            <div className="field toolset-field" key={key}>
              <label className="label" htmlFor={`setting-${key}`}>
                {label}
                <span className="label-hint"> ({appliesTo})</span>
              </label>
              <select
                id={`setting-${key}`}
                className="input select"
                value={value}
                onChange={(e) => setSetting(key, e.target.value as never)}
                data-testid={`setting-${key}`}
              >
                {(value && !(values as readonly string[]).includes(value) ? [...values, value] : values).map((v) => (
                  <option key={v} value={v}>
                    {v}
                  </option>
                ))}
              </select>
              <p className="field-hint">{knobMeaning(key, value).replace(/^./, (c) => c.toUpperCase())}.</p>
            </div>
          );
        })}
      </div>
    </>
  );
}
