/**
 * The URL carries what is open — the comparison, its tab, the trial shown and the baseline column — as a hash
 * ("#/comparison/<id>?tab=charts&trial=2&baseline=code"), so a reload or a bookmark comes back to the same view
 * (the desktop app keeps the same hash in its window state). The store is the truth; the hash follows it, and
 * is read once when the host is first reached. The Timeline's step filters ride along as `errors=1`, `tool=`,
 * `q=` and `differ=1`.
 */
import { appStore } from '../store/app-store.js';
import type { MainTab } from '../store/ui-slice.js';
import type { TrialChoice } from '../store/trial-model.js';
import { openComparison, viewAsks } from './actions.js';
import { NO_FILTER, type StepFilter } from '../../shared/step-filter.js';

export interface UrlView {
  readonly comparison: string | null;
  readonly tab: MainTab | null;
  readonly trial: TrialChoice | null;
  readonly baseline: string | null;
  readonly filter?: StepFilter;
}

const TABS: readonly MainTab[] = ['timeline', 'answers', 'charts', 'waterfall'];
/** Comparison ids are made by the host (date-time-hex); anything else in a hand-edited URL is ignored. */
const ID = /^[\w.-]{1,100}$/;

export function parseHash(hash: string): UrlView {
  const none: UrlView = { comparison: null, tab: null, trial: null, baseline: null };
  const m = /^#\/comparison\/([^?]+)(?:\?(.*))?$/.exec(hash);
  if (!m) return none;
  let id: string;
  try {
    id = decodeURIComponent(m[1]!);
  } catch {
    return none;
  }
  if (!ID.test(id)) return none;
  const q = new URLSearchParams(m[2] ?? '');
  const tab = q.get('tab') as MainTab | null;
  const trialText = q.get('trial');
  const trial =
    trialText === 'all'
      ? 'all'
      : trialText && /^\d{1,2}$/.test(trialText) && Number(trialText) >= 1
        ? Number(trialText)
        : null;
  const baseline = q.get('baseline');
  const tool = q.get('tool');
  const filter: StepFilter = {
    errorsOnly: q.get('errors') === '1',
    tool: tool && tool.length <= 200 ? tool : null,
    text: (q.get('q') ?? '').slice(0, 500),
    differOnly: q.get('differ') === '1',
  };
  return {
    comparison: id,
    tab: tab && TABS.includes(tab) ? tab : null,
    trial,
    baseline: baseline && baseline.length <= 200 ? baseline : null,
    filter,
  };
}

export function formatHash(v: UrlView): string {
  if (!v.comparison) return '';
  const q = new URLSearchParams();
  if (v.tab && v.tab !== 'timeline') q.set('tab', v.tab);
  if (v.trial !== null) q.set('trial', String(v.trial));
  if (v.baseline) q.set('baseline', v.baseline);
  if (v.filter?.errorsOnly) q.set('errors', '1');
  if (v.filter?.tool) q.set('tool', v.filter.tool);
  if (v.filter?.text) q.set('q', v.filter.text);
  if (v.filter?.differOnly) q.set('differ', '1');
  const query = q.toString();
  return `#/comparison/${encodeURIComponent(v.comparison)}${query ? `?${query}` : ''}`;
}

function currentView(): UrlView {
  const s = appStore.getState();
  return {
    comparison: s.active?.meta.id ?? null,
    tab: s.active ? s.mainTab : null,
    trial: s.active ? s.trialChoice : null,
    baseline: s.active ? s.baselineColumn : null,
    filter: s.stepFilter,
  };
}

/** Keeps the hash in step with the store (replaceState: switching tabs does not fill the Back history). */
export function followStoreInUrl(): void {
  let last = location.hash;
  appStore.subscribe(() => {
    const next = formatHash(currentView());
    if (next === last || (next === '' && last === '')) return;
    last = next;
    history.replaceState(null, '', next === '' ? `${location.pathname}${location.search}` : next);
  });
}

/**
 * Opens what the URL names, once the host is reached; a comparison that no longer exists just leaves the URL.
 * `asksBefore`: viewAsks() when the page started. A Run or an open the user made while the page connected is what
 * they want to see: the URL then opens nothing.
 */
export async function restoreFromUrl(hash = location.hash, asksBefore = viewAsks()): Promise<void> {
  const v = parseHash(hash);
  if (!v.comparison || viewAsks() !== asksBefore) return;
  await openComparison(v.comparison);
  const s = appStore.getState();
  if (s.active?.meta.id !== v.comparison) return;
  if (v.tab) s.setMainTab(v.tab);
  if (v.trial !== null) s.chooseTrial(v.trial);
  if (v.baseline) s.setBaselineColumn(v.baseline);
  s.setStepFilter(v.filter ?? NO_FILTER);
}
