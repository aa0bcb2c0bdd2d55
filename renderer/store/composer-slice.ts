/** The composer's form state and what the host told us about the chosen provider (models, test, keys). */
import type { StateCreator } from 'zustand';
import type { ConnectionResult, KeyStatus } from '../../shared/ipc-contract.js';
import { findPreset } from '../../shared/providers.js';
import { DEFAULT_MODES, SIMULATED_MODEL, type ModeId } from '../../shared/run-spec.js';
import type { KnobSetting } from './composer-model.js';
import {
  DEFAULT_DRAFT,
  orderModes,
  type ComposerForm,
  type NumericSetting,
  type SettingsDraft,
} from './composer-model.js';
import type { AppState } from './app-store.js';

export interface ModelList {
  readonly status: 'idle' | 'loading' | 'ready' | 'error';
  readonly models: readonly string[];
  readonly detail: string;
  /** provider|baseUrl the list belongs to, so a stale answer is not shown for another provider. */
  readonly key: string;
}

export interface ConnectionTest {
  readonly status: 'idle' | 'testing' | 'done';
  readonly result: ConnectionResult | null;
  readonly key: string;
}

export interface ComposerSlice {
  readonly form: ComposerForm;
  /** Set once the user pressed Run with errors, so untouched fields are not red before that. */
  readonly showErrors: boolean;
  /** Bumped each time Run is pressed with errors: the composer then scrolls to the first one. */
  readonly errorReveal: number;
  readonly modelList: ModelList;
  readonly connectionTest: ConnectionTest;
  readonly keyStatus: Readonly<Record<string, KeyStatus>>;
  /** The stored comparison the form was loaded from (Run again, Edit in composer) and what it could not carry. */
  readonly loadedFrom: { readonly id: string; readonly when: string; readonly notes: readonly string[] } | null;
  setLoadedFrom(from: ComposerSlice['loadedFrom']): void;
  setForm(patch: Partial<ComposerForm>): void;
  setSetting<
    K extends
      | NumericSetting
      | 'returnTypes'
      | 'streamOptions'
      | 'toolset'
      | 'promptCache'
      | 'simFaults'
      | 'approvals'
      | 'webSearch'
      | 'webSearchUrl'
      | KnobSetting,
  >(
    key: K,
    value: SettingsDraft[K],
  ): void;
  chooseProvider(name: string): void;
  toggleMode(mode: ModeId, on: boolean): void;
  setShowErrors(show: boolean): void;
  setModelList(list: ModelList): void;
  setConnectionTest(test: ConnectionTest): void;
  setKeyStatus(status: Readonly<Record<string, KeyStatus>>): void;
}

export const INITIAL_FORM: ComposerForm = {
  taskChoice: 'log-stats',
  customTask: '',
  providerName: 'simulated',
  baseUrl: '',
  model: SIMULATED_MODEL,
  modes: DEFAULT_MODES,
  trials: '1',
  settings: DEFAULT_DRAFT,
};

export const createComposerSlice: StateCreator<AppState, [], [], ComposerSlice> = (set) => ({
  form: INITIAL_FORM,
  showErrors: false,
  errorReveal: 0,
  modelList: { status: 'idle', models: [], detail: '', key: '' },
  connectionTest: { status: 'idle', result: null, key: '' },
  keyStatus: {},
  loadedFrom: null,
  setLoadedFrom: (loadedFrom) => set({ loadedFrom }),
  setForm: (patch) => set((s) => ({ form: { ...s.form, ...patch } })),
  setSetting: (key, value) => set((s) => ({ form: { ...s.form, settings: { ...s.form.settings, [key]: value } } })),
  chooseProvider: (name) =>
    set((s) => {
      const preset = findPreset(name);
      return {
        form: {
          ...s.form,
          providerName: name,
          baseUrl: preset?.baseUrl ?? '',
          model: preset?.defaultModel ?? '',
          apiKeyEnv: '',
        },
        connectionTest: { status: 'idle', result: null, key: '' },
      };
    }),
  toggleMode: (mode, on) =>
    set((s) => {
      const modes = orderModes(on ? [...s.form.modes, mode] : s.form.modes.filter((m) => m !== mode));
      return { form: { ...s.form, modes } };
    }),
  setShowErrors: (showErrors) =>
    set((s) => ({ showErrors, errorReveal: showErrors ? s.errorReveal + 1 : s.errorReveal })),
  setModelList: (modelList) => set({ modelList }),
  setConnectionTest: (connectionTest) => set({ connectionTest }),
  setKeyStatus: (keyStatus) => set({ keyStatus }),
});
