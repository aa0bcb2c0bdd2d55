/** The experiment knobs (shared/run-knobs.ts) in the composer's Advanced settings: one select each, its meaning below. */
import {
  CODE_STATE_HELP, CODE_STATES, KNOB_LABELS, TOOL_DESCRIPTIONS, TOOL_DESCRIPTIONS_HELP, TOOL_SEARCH_HELP, TOOL_SEARCHES,
} from '../../../shared/run-knobs.js';
import { useApp } from '../../store/app-store.js';
import { DEFAULT_DRAFT, type KnobSetting, type SettingsDraft } from '../../store/composer-model.js';
import { composerSelectors } from '../../store/selectors.js';

const KNOBS: readonly { key: KnobSetting; values: readonly string[]; help: Readonly<Record<string, string>>; scope: string }[] = [
  { key: 'toolDescriptions', values: TOOL_DESCRIPTIONS, help: TOOL_DESCRIPTIONS_HELP, scope: 'every mode' },
  { key: 'codeState', values: CODE_STATES, help: CODE_STATE_HELP, scope: 'run_code modes' },
  { key: 'toolSearch', values: TOOL_SEARCHES, help: TOOL_SEARCH_HELP, scope: 'ReAct + tool search' },
];

/** A knob's value in the draft (forms saved before the knobs existed hold none: the default). */
export const knobValue = (draft: SettingsDraft, key: KnobSetting): string => draft[key] ?? DEFAULT_DRAFT[key]!;

/** How many knobs differ from their defaults, for the Advanced section's "n changed". */
export const knobsChanged = (draft: SettingsDraft): number => KNOBS.filter((k) => knobValue(draft, k.key) !== DEFAULT_DRAFT[k.key]).length;

export function KnobSettings() {
  const draft = useApp(composerSelectors.settings);
  const setSetting = useApp((s) => s.setSetting);
  return (
    <>
      <h4 className="subgroup-title">Experiment knobs</h4>
      <div className="knob-fields">
        {KNOBS.map(({ key, values, help, scope }) => {
          const value = knobValue(draft, key);
          return (
            <div className="field toolset-field" key={key}>
              <label className="label" htmlFor={`setting-${key}`}>
                {KNOB_LABELS[key]}
                <span className="label-hint"> ({scope})</span>
              </label>
              <select id={`setting-${key}`} className="input select" value={value} onChange={(e) => setSetting(key, e.target.value as never)} data-testid={`setting-${key}`}>
                {values.map((v) => <option key={v} value={v}>{v}</option>)}
              </select>
              <p className="field-hint">{help[value].replace(/^./, (c) => c.toUpperCase())}.</p>
            </div>
          );
        })}
      </div>
    </>
  );
}
