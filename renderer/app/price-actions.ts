/** Reading and editing the price table through the host (prices:*); failures become the editor's inline error. */
import type { PriceInput } from '../../shared/ipc-contract.js';
import { invoke } from '../api/client.js';
import { appStore } from '../store/app-store.js';
import { errorText } from './actions.js';

const st = () => appStore.getState();

export async function loadPrices(): Promise<void> {
  st().setPricesLoading();
  try {
    st().setPrices(await invoke('prices:get'));
  } catch (err) {
    st().setPricesError(errorText(err));
  }
}

export function openPriceEditor(model: string | null = null): void {
  st().setPriceEditor(true, model);
  void loadPrices();
}

export function closePriceEditor(): void {
  st().setPriceEditor(false);
}

/** Resolves true when saved; on failure the host's sentence (which field, why) is shown and false returned. */
export async function savePrice(input: PriceInput): Promise<boolean> {
  try {
    st().setPrices(await invoke('prices:set', input));
    return true;
  } catch (err) {
    st().setPricesError(errorText(err));
    return false;
  }
}

export async function removePrice(model: string): Promise<void> {
  try {
    st().setPrices(await invoke('prices:remove', model));
  } catch (err) {
    st().setPricesError(errorText(err));
  }
}

export function resetPrices(): void {
  st().askConfirm({
    title: 'Go back to the default prices?',
    body: 'Every price you set or removed returns to the table shipped with Parallax. Your table is kept beside it as prices.json.bak. Runs already made keep the prices they recorded.',
    confirmLabel: 'Reset prices',
    onConfirm: async () => {
      try {
        st().setPrices(await invoke('prices:reset'));
        st().pushToast({ kind: 'success', title: 'Prices reset to the defaults' });
      } catch (err) {
        st().setPricesError(errorText(err));
      }
    },
  });
}
