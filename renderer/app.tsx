/** The window: sidebar (compose / history), main area (timeline, answers or tokens of the open comparison, trial picker when it has trials), status bar. */
import { memo, useState, type ComponentType } from 'react';
import { AnswersView } from './components/answers/answers-view.js';
import { ChartsView } from './components/charts/charts-view.js';
import { ConfirmDialog } from './components/common/confirm-dialog.js';
import { OtlpDialog } from './components/history/otlp-dialog.js';
import { PriceEditor } from './components/prices/price-editor.js';
import { ConnectionBanner } from './components/common/connection-banner.js';
import { IconAlert } from './components/common/icons.js';
import { LiveAnnouncer } from './components/common/live-announcer.js';
import { Toasts } from './components/common/toasts.js';
import { ComparisonToolbar } from './components/layout/comparison-toolbar.js';
import { EmptyMain } from './components/layout/empty-main.js';
import { Sidebar } from './components/layout/sidebar.js';
import { StatusBar } from './components/layout/status-bar.js';
import { TrialBar } from './components/layout/trial-bar.js';
import { TimelineView } from './components/timeline/timeline-view.js';
import { DiffDialog } from './components/history/diff-dialog.js';
import { WaterfallView } from './components/waterfall/waterfall-view.js';
import { SuiteView } from './components/history/suite-view.js';
import { ResultBanner } from './components/summary/result-banner.js';
import { useApp } from './store/app-store.js';
import { comparisonSelectors, historySelectors, uiSelectors } from './store/selectors.js';
import type { MainTab } from './store/ui-slice.js';

function Unauthorized({ reason }: { reason: string }) {
  return (
    <div className="empty fullscreen-empty" role="alert">
      <IconAlert size={24} />
      <p className="empty-title">Parallax cannot connect to its host</p>
      <p className="empty-text">{reason}</p>
    </div>
  );
}

// Memoized: the views take no props, so a tab switch (which re-renders App) leaves the kept ones alone.
const VIEWS: Record<MainTab, ComponentType> = { timeline: memo(TimelineView), answers: memo(AnswersView), charts: memo(ChartsView), waterfall: memo(WaterfallView) };

/**
 * The open comparison's tabs. Once a finished comparison's tab was visited it stays mounted, hidden in place
 * (same size, visibility hidden, inert), so switching back paints what is in the page: no chart is rebuilt or
 * re-measured. While a run streams only the shown tab is mounted, so hidden tabs cost nothing per batch.
 * Remounted per comparison (keyed by its id) so a hidden tab never holds another comparison's state.
 */
function TabPanels({ tab }: { tab: MainTab }) {
  const running = useApp(comparisonSelectors.isRunning);
  const [visited, setVisited] = useState<MainTab[]>([tab]);
  if (!visited.includes(tab)) setVisited([...visited, tab]);
  const kept = (Object.keys(VIEWS) as MainTab[]).filter((t) => t === tab || (!running && visited.includes(t)));
  return (
    <>
      {kept.map((t) => {
        const View = VIEWS[t];
        return (
          <div key={t} className={`tab-pane ${t === tab ? '' : 'is-kept'}`} data-tab={t} inert={t !== tab} aria-hidden={t === tab ? undefined : true}>
            <View />
          </div>
        );
      })}
    </>
  );
}

export function App() {
  const conn = useApp(uiSelectors.connection);
  const active = useApp(comparisonSelectors.active);
  const tab = useApp(uiSelectors.mainTab);
  const sidebarHidden = useApp(uiSelectors.sidebarHidden);
  const suite = useApp(historySelectors.activeSuite);
  if (conn.status === 'unauthorized') return <Unauthorized reason={conn.reason} />;
  return (
    <div className="app">
      <ConnectionBanner />
      <div className="app-body">
        <Sidebar hidden={sidebarHidden} />
        <main className="main">
          {suite ? null : <ComparisonToolbar />}
          {active && !suite ? <TrialBar /> : null}
          {active && !suite ? <ResultBanner /> : null}
          <div className="main-panel" id="main-panel" role={active && !suite ? 'tabpanel' : undefined}>
            {suite ? <SuiteView /> : !active ? <EmptyMain /> : <TabPanels key={active.meta.id} tab={tab} />}
          </div>
        </main>
      </div>
      <StatusBar />
      <Toasts />
      <LiveAnnouncer />
      <PriceEditor />
      <ConfirmDialog />
      <OtlpDialog />
      <DiffDialog />
    </div>
  );
}
