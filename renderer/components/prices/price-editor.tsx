/**
 * The price editor: the table every run is costed with (USD per 1M tokens), searchable, with a form to set a
 * model's price, and remove or reset. Runs record the price they start with, so an edit changes later runs
 * only. The host checks every value; its sentence (which field, why) is shown at the form.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { formatRate } from '../../../shared/cost.js';
import { findPriceEntry, LOCAL_PRESETS, type PriceEntry } from '../../../shared/pricing.js';
import { closePriceEditor, removePrice, resetPrices, savePrice } from '../../app/price-actions.js';
import { useApp } from '../../store/app-store.js';
import { priceSelectors, uiSelectors } from '../../store/selectors.js';
import { IconAlert, IconSpinner, IconX } from '../common/icons.js';
import { keepTabInside, restoreFocus } from '../../lib/focus.js';

interface Draft {
  model: string;
  input: string;
  cachedInput: string;
  cacheWrite: string;
  output: string;
}

const EMPTY: Draft = { model: '', input: '', cachedInput: '', cacheWrite: '', output: '' };

function draftOf(e: PriceEntry): Draft {
  return {
    model: e.model,
    input: String(e.input),
    cachedInput: e.cachedInput === null ? '' : String(e.cachedInput),
    cacheWrite: e.cacheWrite === null ? '' : String(e.cacheWrite),
    output: String(e.output),
  };
}

const rate = (v: number | null) => (v === null ? <span className="muted">= input</span> : formatRate(v));

export function PriceEditor() {
  const open = useApp(priceSelectors.editorOpen);
  const view = useApp(priceSelectors.view);
  const status = useApp(priceSelectors.status);
  const error = useApp(priceSelectors.error);
  const startModel = useApp(priceSelectors.editorModel);
  const confirming = useApp(uiSelectors.confirm) !== null;
  const [query, setQuery] = useState('');
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [saving, setSaving] = useState(false);
  const boxRef = useRef<HTMLDivElement>(null);
  const modelRef = useRef<HTMLInputElement>(null);

  // On opening: start on the composer's model, its current price when the table has one.
  useEffect(() => {
    if (!open) return;
    setQuery('');
    const entry = view && startModel ? findPriceEntry(view.table, startModel) : null;
    setDraft(entry ? draftOf(entry) : { ...EMPTY, model: startModel ?? '' });
    const previous = document.activeElement as HTMLElement | null;
    setTimeout(() => modelRef.current?.focus(), 0);
    return () => restoreFocus(previous, '[data-testid=edit-prices]');
    // Only on opening, or when the table first arrives: a later change of the composer's model must not reset the draft.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, view === null]);

  useEffect(() => {
    if (!open || confirming) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        closePriceEditor();
      } else keepTabInside(e, boxRef.current);
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [open, confirming]);

  const models = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (view?.table.models ?? []).filter((m) => !q || m.model.toLowerCase().includes(q));
  }, [view, query]);

  if (!open) return null;
  const table = view?.table;
  const existing = table && draft.model.trim() ? findPriceEntry(table, draft.model) : null;
  const set = (k: keyof Draft) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setDraft({ ...draft, [k]: e.target.value });

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setSaving(true);
    const ok = await savePrice({
      model: draft.model,
      input: draft.input,
      output: draft.output,
      cachedInput: draft.cachedInput,
      cacheWrite: draft.cacheWrite,
    });
    setSaving(false);
    if (ok) setDraft(EMPTY);
  };

  return (
    <div className="modal-backdrop" onMouseDown={() => closePriceEditor()}>
      <div
        className="modal price-editor"
        role="dialog"
        aria-modal="true"
        aria-labelledby="prices-title"
        ref={boxRef}
        onMouseDown={(e) => e.stopPropagation()}
        data-testid="price-editor"
      >
        <header className="price-editor-head">
          <div>
            <h2 id="prices-title" className="modal-title">
              Prices
            </h2>
            <p className="price-editor-sub" data-testid="price-table-date">
              USD per 1M tokens · prices of {table?.date ?? '…'} ·{' '}
              {view?.custom ? (
                <span title={view.path}>your table</span>
              ) : (
                <span title={view ? `Copied to ${view.path} when you edit a price` : undefined}>the default table</span>
              )}
            </p>
          </div>
          <button
            type="button"
            className="icon-btn"
            onClick={() => closePriceEditor()}
            aria-label="Close prices"
            data-testid="price-editor-close"
          >
            <IconX size={14} />
          </button>
        </header>
        {error ? (
          <p className="start-error" role="alert" data-testid="price-error">
            <IconAlert size={14} />
            <span>{error}</span>
          </p>
        ) : null}
        <form className="price-form" onSubmit={(e) => void submit(e)} data-testid="price-form">
          <label className="price-field is-model">
            <span className="label">Model</span>
            <input
              ref={modelRef}
              className="input mono"
              value={draft.model}
              onChange={set('model')}
              placeholder="gpt-4.1-mini"
              spellCheck={false}
              data-testid="price-model"
            />
          </label>
          {(['input', 'cachedInput', 'cacheWrite', 'output'] as const).map((k) => (
            <label className="price-field" key={k}>
              <span className="label">
                {k === 'input'
                  ? 'Input'
                  : k === 'output'
                    ? 'Output'
                    : k === 'cachedInput'
                      ? 'Cached input'
                      : 'Cache write'}
              </span>
              <input
                className="input num"
                inputMode="decimal"
                value={draft[k]}
                onChange={set(k)}
                placeholder={k === 'cachedInput' || k === 'cacheWrite' ? '= input' : '0.00'}
                data-testid={`price-${k}`}
              />
            </label>
          ))}
          <button
            type="submit"
            className="btn btn-primary"
            disabled={saving || !draft.model.trim()}
            data-testid="price-save"
          >
            {saving ? <IconSpinner size={13} /> : null}
            {existing ? 'Update' : 'Add'}
          </button>
        </form>
        <p className="field-hint price-form-hint">
          Cached input is charged for prompt tokens read from the provider’s cache, cache write for tokens written to
          it; leave them empty to charge the input rate. Runs started from now on record this price; earlier runs keep
          theirs.
        </p>
        <div className="price-list-head">
          <input
            className="input"
            type="search"
            placeholder="Filter models"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            aria-label="Filter models"
            data-testid="price-filter"
          />
          <span className="muted small">
            {models.length} of {table?.models.length ?? 0} models
          </span>
        </div>
        <div className="price-list table-wrap">
          {status === 'loading' && !table ? (
            <p className="muted">
              <IconSpinner size={13} /> Loading prices…
            </p>
          ) : (
            <table className="data-table price-table">
              <thead>
                <tr>
                  <th scope="col">Model</th>
                  <th scope="col" className="num">
                    Input
                  </th>
                  <th scope="col" className="num">
                    Cached
                  </th>
                  <th scope="col" className="num">
                    Cache write
                  </th>
                  <th scope="col" className="num">
                    Output
                  </th>
                  <th scope="col">Date</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {models.map((m) => (
                  <tr
                    key={m.model}
                    data-testid="price-row"
                    data-model={m.model}
                    className={existing?.model === m.model ? 'is-selected' : undefined}
                    title={m.source}
                  >
                    <th scope="row" className="mono">
                      <button type="button" className="link-btn mono" onClick={() => setDraft(draftOf(m))}>
                        {m.model}
                      </button>
                    </th>
                    <td className="num">{formatRate(m.input)}</td>
                    <td className="num">{rate(m.cachedInput)}</td>
                    <td className="num">{rate(m.cacheWrite)}</td>
                    <td className="num">{formatRate(m.output)}</td>
                    <td className="muted">{m.date ? `set ${m.date}` : table?.date}</td>
                    <td>
                      <button
                        type="button"
                        className="link-btn danger"
                        onClick={() => void removePrice(m.model)}
                        aria-label={`Remove the price of ${m.model}`}
                        data-testid="price-remove"
                      >
                        Remove
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
        <footer className="price-editor-foot">
          <p className="field-hint">
            Local models ({LOCAL_PRESETS.join(', ')}) have no API price unless you set one; the simulated model is never
            priced; a model not listed shows “no price”, never $0. A cost the provider reports itself (OpenRouter) is
            used as reported.
          </p>
          <button
            type="button"
            className="btn btn-sm"
            onClick={resetPrices}
            disabled={!view?.custom && !error}
            data-testid="price-reset"
          >
            Reset to defaults
          </button>
        </footer>
      </div>
    </div>
  );
}
