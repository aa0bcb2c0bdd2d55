/** The window: sidebar (compose / history), main area (timeline, answers or tokens of the open comparison, trial picker when it has trials), status bar. */
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
import { TabPanels } from './components/layout/tab-panels.js';
import { TrialBar } from './components/layout/trial-bar.js';
import { DiffDialog } from './components/history/diff-dialog.js';
import { SuiteView } from './components/history/suite-view.js';
import { ResultBanner } from './components/summary/result-banner.js';
import { useApp } from './store/app-store.js';
import { comparisonSelectors, historySelectors, uiSelectors } from './store/selectors.js';

function Unauthorized({ reason }: { reason: string }) {
  return (
    <div className="empty fullscreen-empty" role="alert">
      <IconAlert size={24} />
      <p className="empty-title">Parallax cannot connect to its host</p>
      <p className="empty-text">{reason}</p>
    </div>
  );
}

export function App() {
  const conn = useApp(uiSelectors.connection);
  const active = useApp(comparisonSelectors.active);
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
            {suite ? <SuiteView /> : !active ? <EmptyMain /> : <TabPanels key={active.meta.id} />}
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
