/**
 * The history as the CLI's one-shot commands read it (`parallax history`; `report` and `diff` with "latest"):
 * one rule for both, so `report latest` names the comparison `history` lists first. Neither sweeps every
 * meta.json (one stat each, the one cost that grows with the history): a comparison added, removed or damaged is
 * seen at once, each comparison shown or reported is read as it is now, and a date edited by hand in another
 * one reorders them at the next thorough read (`parallax history --refresh`, or a comparison added or removed).
 * The store loads inside the command (the cli-commands-load-lazily rule).
 */
import type { HistoryStore } from '../host/history-store.js';

export async function cliHistory(
  dataDir: string,
  onWarning: (message: string) => void,
  onProgress: (line: string) => void,
): Promise<HistoryStore> {
  const { HistoryStore } = await import('../host/history-store.js');
  return new HistoryStore(dataDir, onWarning, onProgress, 'none');
}
