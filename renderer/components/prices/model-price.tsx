/**
 * The price of the model chosen in the composer, as the run will record it: its rates and the table's date,
 * or why it has none ("no price", "local: no API price", "simulated: no price") — and the way to the editor.
 */
import { formatRate } from '../../../shared/cost.js';
import { findPriceEntry, LOCAL_PRESETS, NO_PRICE_HINT, NO_PRICE_TEXT } from '../../../shared/pricing.js';
import { openPriceEditor } from '../../app/price-actions.js';
import { useApp } from '../../store/app-store.js';
import { composerSelectors, priceSelectors } from '../../store/selectors.js';

export function ModelPrice() {
  const form = useApp(composerSelectors.form);
  const view = useApp(priceSelectors.view);
  const model = form.model.trim();
  const simulated = form.providerName === 'simulated';
  const edit = (
    <button
      type="button"
      className="link-btn"
      onClick={() => openPriceEditor(simulated ? null : model || null)}
      data-testid="edit-prices"
    >
      {simulated ? 'Prices' : 'Edit prices'}
    </button>
  );
  if (simulated) {
    return (
      <p
        className="field-hint model-price"
        data-testid="model-price"
        data-kind="simulated"
        title={NO_PRICE_HINT.simulated}
      >
        Cost: {NO_PRICE_TEXT.simulated} · {edit}
      </p>
    );
  }
  if (!view || !model) return <p className="field-hint model-price">{edit}</p>;
  const entry = findPriceEntry(view.table, model);
  if (entry) {
    const cached = entry.cachedInput !== null ? ` · ${formatRate(entry.cachedInput)} cached` : '';
    const write = entry.cacheWrite !== null ? ` · ${formatRate(entry.cacheWrite)} cache write` : '';
    return (
      <p className="field-hint model-price" data-testid="model-price" data-kind="priced" title={entry.source}>
        Price: {formatRate(entry.input)} in{cached}
        {write} · {formatRate(entry.output)} out per 1M tokens,{' '}
        {entry.date ? `set ${entry.date}` : `prices of ${view.table.date}`} · {edit}
      </p>
    );
  }
  const kind = LOCAL_PRESETS.includes(form.providerName) ? 'local' : 'unknown';
  return (
    <p
      className="field-hint model-price is-warn"
      data-testid="model-price"
      data-kind={kind}
      title={NO_PRICE_HINT[kind]}
    >
      Cost: {NO_PRICE_TEXT[kind]}
      {kind === 'unknown' ? ' — runs of this model show no cost' : ''} · {edit}
    </p>
  );
}
