/**
 * The composer's columns: by default the mode picker (one plain column per mode); "Add variant" turns them into
 * rows, each a mode with, optionally, its own provider, model and setting overrides, labelled by what differs
 * (the label field's placeholder is the derived label, live); "Models × modes" makes every model × selected mode.
 */
import type { ColumnSlot } from '../../../shared/column-shades.js';
import { useState } from 'react';
import { COLUMN_MODE_IDS, MODES, type ModeId } from '../../../shared/modes.js';
import { PROVIDER_PRESETS } from '../../../shared/providers.js';
import { columnSlots } from '../../../shared/variants.js';
import { useApp } from '../../store/app-store.js';
import { checkSettings } from '../../store/composer-model.js';
import { knobMeaning, knobOf } from '../../../shared/run-knobs.js';
import {
  blankVariant,
  checkVariants,
  COLUMN_KNOBS,
  draftsFromMatrix,
  draftsFromModes,
  type VariantDraft,
} from '../../store/composer-variants.js';
import { composerSelectors } from '../../store/selectors.js';
import { AgentSight } from './agent-sight.js';
import { ModePicker } from './mode-picker.js';
import { TrialsField } from './trials-field.js';

function MatrixShortcut({ modes, onRows }: { modes: readonly ModeId[]; onRows: (rows: VariantDraft[]) => void }) {
  const [models, setModels] = useState('');
  const [error, setError] = useState<string | null>(null);
  const apply = () => {
    const rows = draftsFromMatrix(models, modes);
    if (typeof rows === 'string') setError(rows);
    else onRows(rows);
  };
  return (
    <div className="field matrix-shortcut">
      <label className="label" htmlFor="matrix-models">
        Models × modes <span className="label-hint">every model with each mode picked above</span>
      </label>
      <div className="inline-row">
        <input
          id="matrix-models"
          className="input input-sm mono"
          value={models}
          placeholder="sim, sim-careful"
          onChange={(e) => {
            setModels(e.target.value);
            setError(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              apply();
            }
          }}
          data-testid="matrix-models"
        />
        <button type="button" className="btn btn-sm" onClick={apply} data-testid="matrix-apply">
          Make matrix
        </button>
      </div>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function VariantRow({
  row,
  index,
  slot,
  derived,
  error,
  baseModel,
  onChange,
  onRemove,
}: {
  row: VariantDraft;
  index: number;
  slot: ColumnSlot;
  derived: string | undefined;
  error: string | null;
  baseModel: string;
  onChange: (patch: Partial<VariantDraft>) => void;
  onRemove: () => void;
}) {
  const id = (f: string) => `variant-${index}-${f}`;
  return (
    <li className={`variant-row mode-${slot} ${error ? 'has-error' : ''}`} data-testid="variant-row" data-index={index}>
      <div className="variant-line">
        <span className="mode-swatch" aria-hidden="true" />
        <select
          className="input input-sm"
          value={row.mode}
          onChange={(e) => onChange({ mode: e.target.value as ModeId })}
          aria-label={`Variant ${index + 1}: mode`}
          data-testid="variant-mode"
        >
          {COLUMN_MODE_IDS.map((m) => (
            <option key={m} value={m}>
              {MODES[m].label}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="icon-btn variant-remove"
          onClick={onRemove}
          aria-label={`Remove variant ${index + 1}`}
          title="Remove"
          data-testid="variant-remove"
        >
          ×
        </button>
      </div>
      {row.mode === 'agent' && (
        <div className="variant-line">
          <input
            className="input input-sm mono"
            value={row.agentCommand ?? ''}
            placeholder="python3 /home/me/agent.py"
            onChange={(e) => onChange({ agentCommand: e.target.value })}
            aria-label={`Variant ${index + 1}: agent command, run in each run's workspace copy`}
            data-testid="variant-agent-command"
          />
        </div>
      )}
      {row.mode === 'agent' && (
        <div className="variant-line">
          <input
            className="input input-sm mono"
            value={row.agentPaths ?? ''}
            placeholder="also show, read-only: /home/me/data"
            onChange={(e) => onChange({ agentPaths: e.target.value })}
            aria-label={`Variant ${index + 1}: more files or folders the agent may read, full paths separated by commas`}
            data-testid="variant-agent-paths"
          />
        </div>
      )}
      {row.mode === 'agent' && <AgentSight command={row.agentCommand ?? ''} paths={row.agentPaths ?? ''} />}
      <div className="variant-line">
        <select
          className="input input-sm"
          value={row.provider}
          onChange={(e) => onChange({ provider: e.target.value })}
          aria-label={`Variant ${index + 1}: provider`}
          data-testid="variant-provider"
        >
          <option value="">Same provider</option>
          {PROVIDER_PRESETS.filter((p) => p.name !== 'custom').map((p) => (
            <option key={p.name} value={p.name}>
              {p.label}
            </option>
          ))}
        </select>
        <input
          className="input input-sm mono"
          value={row.model}
          placeholder={baseModel || 'model'}
          onChange={(e) => onChange({ model: e.target.value })}
          aria-label={`Variant ${index + 1}: model`}
          data-testid="variant-model"
        />
      </div>
      {/* An agent column runs the user's own program: Parallax's prompt, tool and history knobs mean nothing there. */}
      {row.mode === 'agent' ? (
        <>
          <div className="variant-line variant-settings">
            <label htmlFor={id('steps')} className="variant-field">
              <span>Max steps</span>
              <input
                id={id('steps')}
                className="input input-sm num"
                inputMode="numeric"
                value={row.maxSteps}
                placeholder="as set"
                onChange={(e) => onChange({ maxSteps: e.target.value })}
                data-testid="variant-max-steps"
              />
            </label>
          </div>
          <p className="field-hint" data-testid="variant-agent-note">
            Max steps counts the program's model requests. It keeps its own prompts, tools and history, so the mode
            knobs do not apply.
          </p>
        </>
      ) : (
        <>
          <div className="variant-line variant-settings">
            <label htmlFor={id('rt')} className="variant-field">
              <span>Return types</span>
              <select
                id={id('rt')}
                className="input input-sm"
                value={row.returnTypes}
                onChange={(e) => onChange({ returnTypes: e.target.value as VariantDraft['returnTypes'] })}
                data-testid="variant-return-types"
              >
                <option value="same">as set</option>
                <option value="on">on</option>
                <option value="off">off</option>
              </select>
            </label>
            <label htmlFor={id('steps')} className="variant-field">
              <span>Max steps</span>
              <input
                id={id('steps')}
                className="input input-sm num"
                inputMode="numeric"
                value={row.maxSteps}
                placeholder="as set"
                onChange={(e) => onChange({ maxSteps: e.target.value })}
                data-testid="variant-max-steps"
              />
            </label>
            <label htmlFor={id('trunc')} className="variant-field">
              <span>Truncate</span>
              <input
                id={id('trunc')}
                className="input input-sm num"
                inputMode="numeric"
                value={row.truncateChars}
                placeholder="as set"
                onChange={(e) => onChange({ truncateChars: e.target.value })}
                data-testid="variant-truncate"
              />
            </label>
          </div>
          <div className="variant-settings variant-knobs" data-testid="variant-knobs">
            {COLUMN_KNOBS.map((key) => {
              const { label, values } = knobOf(key);
              const value = row.knobs?.[key] ?? '';
              return (
                <label htmlFor={id(key)} className="variant-field" key={key}>
                  <span>{label}</span>
                  <select
                    id={id(key)}
                    className="input input-sm"
                    value={value}
                    title={value ? knobMeaning(key, value) : 'as set for the comparison'}
                    onChange={(e) => onChange({ knobs: { ...row.knobs, [key]: e.target.value || undefined } })}
                    data-testid={`variant-knob-${key}`}
                  >
                    <option value="">as set</option>
                    {(value && !(values as readonly string[]).includes(value) ? [...values, value] : values).map(
                      (v) => (
                        <option key={v} value={v}>
                          {v}
                        </option>
                      ),
                    )}
                  </select>
                </label>
              );
            })}
          </div>
        </>
      )}
      <input
        className="input input-sm mono"
        value={row.other}
        placeholder='Other settings (JSON), e.g. {"temperature": 0}'
        onChange={(e) => onChange({ other: e.target.value })}
        aria-label={`Variant ${index + 1}: other settings as JSON`}
        data-testid="variant-other"
      />
      <input
        className="input input-sm"
        value={row.label}
        placeholder={derived ?? 'Label (derived from what differs)'}
        onChange={(e) => onChange({ label: e.target.value })}
        aria-label={`Variant ${index + 1}: label`}
        data-testid="variant-label"
      />
      {error ? (
        <p className="field-error" role="alert" data-testid="variant-error">
          {error}
        </p>
      ) : null}
    </li>
  );
}

export function VariantsEditor({ modesError }: { modesError?: string }) {
  const form = useApp(composerSelectors.form);
  const setForm = useApp((s) => s.setForm);
  const rows = form.variants ?? [];
  const setRows = (variants: readonly VariantDraft[]) => setForm({ variants });
  if (rows.length === 0) {
    return (
      <>
        <ModePicker error={modesError} />
        <fieldset className="field-group variants-start">
          <legend className="group-title">Variants</legend>
          <p className="check-hint">
            Compare columns that differ by more than the mode: a model, return types, max steps, any setting.
          </p>
          <div className="inline-row">
            <button
              type="button"
              className="btn btn-sm"
              onClick={() => setRows([...draftsFromModes(form.modes), blankVariant(form.modes[0] ?? 'code')])}
              data-testid="add-variant"
            >
              + Add variant
            </button>
          </div>
          <MatrixShortcut modes={form.modes} onRows={setRows} />
        </fieldset>
      </>
    );
  }
  const settings = checkSettings(form.settings, form.providerName === 'simulated').settings;
  const check = checkVariants(rows, { provider: form.providerName, model: form.model, settings });
  // Each row in the colour its column will have (its palette slot) once the rows resolve; until then (a row in
  // error, two rows the same) by order, so two rows of one mode never share a colour.
  const slots = check.columns ? columnSlots(check.columns) : null;
  const provisional = columnSlots(rows.map((r, i) => ({ key: `row-${i}`, mode: r.mode })));
  return (
    <fieldset className="field-group variants-editor" data-testid="variants-editor">
      <legend className="group-title">
        Variants <span className="count-pill">{rows.length}</span>
      </legend>
      <ol className="variant-list">
        {rows.map((row, i) => (
          <VariantRow
            key={i}
            row={row}
            index={i}
            slot={(check.columns && slots?.get(check.columns[i]!.key)) || provisional.get(`row-${i}`) || row.mode}
            derived={check.columns?.[i]?.label}
            error={check.rowErrors[i] ?? null}
            baseModel={form.model}
            onChange={(patch) => setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)))}
            onRemove={() => setRows(rows.filter((_, j) => j !== i))}
          />
        ))}
      </ol>
      {check.error ? (
        <p className="field-error" role="alert" data-testid="variants-error">
          {check.error}
        </p>
      ) : null}
      <div className="inline-row">
        <button
          type="button"
          className="btn btn-sm"
          onClick={() => setRows([...rows, blankVariant(rows[rows.length - 1]?.mode ?? 'code')])}
          data-testid="add-variant"
        >
          + Add variant
        </button>
        <button
          type="button"
          className="btn btn-sm btn-ghost"
          onClick={() => setRows([])}
          data-testid="variants-clear"
          title="Back to one column per mode"
        >
          Modes only
        </button>
      </div>
      <TrialsField />
    </fieldset>
  );
}
