/**
 * Loading the History view a page at a time (history:page): the first page when the view opens, a run ends or
 * the filter changes, the next one when the list's end comes into view. A long history is never sent whole.
 */
import { invoke } from '../api/client.js';
import { appStore } from '../store/app-store.js';
import { historyQueryOf, type HistoryFilter } from '../store/history-filter.js';

/** Comparisons per page: a screenful or two, a few tens of KB over the socket. */
export const HISTORY_PAGE = 50;
/** The host's largest page: a refresh keeps at most this many loaded. */
const MAX_PAGE = 200;

const st = () => appStore.getState();
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Bumped by each refresh: a page that arrives after a newer refresh began is dropped. */
let generation = 0;
let filterOfLoaded: HistoryFilter | null = null;

/** The first page again (as many as were loaded, up to the host's page limit), the damaged ones and the suites. */
export async function refreshHistory(): Promise<void> {
  const mine = ++generation;
  st().setHistoryLoading();
  const filter = st().historyFilter;
  // A refresh for the same filter keeps what was scrolled into view; a new filter starts at one page.
  const limit =
    filter === filterOfLoaded ? Math.min(MAX_PAGE, Math.max(HISTORY_PAGE, st().historyItems.length)) : HISTORY_PAGE;
  try {
    const [page, damaged, suites] = await Promise.all([
      invoke('history:page', { ...historyQueryOf(filter), offset: 0, limit }),
      invoke('history:damaged'),
      // A host from before suites has no such channel: the list is then simply empty.
      Promise.resolve()
        .then(() => invoke('suites:list'))
        .catch(() => []),
    ]);
    if (mine !== generation) return;
    filterOfLoaded = filter;
    st().setSuites(suites);
    st().setHistoryPage(page, { damaged });
  } catch (err) {
    if (mine === generation) st().setHistoryError(message(err));
  }
}

/** The page after those loaded, appended; nothing when every match is loaded or a page is on its way. */
export async function loadMoreHistory(): Promise<void> {
  const s = st();
  if (s.historyNext === null || s.historyMore === 'loading' || s.historyStatus !== 'ready') return;
  const mine = generation;
  s.setHistoryMore('loading');
  try {
    const page = await invoke('history:page', {
      ...historyQueryOf(s.historyFilter),
      offset: s.historyNext,
      limit: HISTORY_PAGE,
    });
    if (mine === generation) st().setHistoryPage(page, { append: true });
  } catch (err) {
    if (mine === generation) st().setHistoryMore({ error: message(err) });
  }
}

let filterTimer: ReturnType<typeof setTimeout> | null = null;
/** Narrow the list: shown at once among the loaded pages, then asked of the whole history (typing coalesced). */
export function changeHistoryFilter(patch: Partial<HistoryFilter>): void {
  st().setHistoryFilter(patch);
  if (filterTimer) clearTimeout(filterTimer);
  filterTimer = setTimeout(
    () => {
      filterTimer = null;
      void refreshHistory();
    },
    'text' in patch ? 200 : 0,
  );
}
