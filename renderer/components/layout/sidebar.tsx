/** The left panel: brand, theme switch, and the New comparison / History tabs. */
import { openHistory, toggleTheme } from '../../app/actions.js';
import { useApp } from '../../store/app-store.js';
import { uiSelectors } from '../../store/selectors.js';
import { IconCompose, IconHistory, IconMoon, IconSun } from '../common/icons.js';
import { ComposerPanel } from '../composer/composer-panel.js';
import { HistoryPanel } from '../history/history-panel.js';

export function Sidebar({ hidden }: { hidden: boolean }) {
  const tab = useApp(uiSelectors.sidebarTab);
  const setTab = useApp((s) => s.setSidebarTab);
  const theme = useApp(uiSelectors.theme);
  // Every stored comparison, not only the pages loaded; those deleted a moment ago (Undo still open) are out.
  const count = useApp((s) => s.historyStored - s.pendingDeletes.size + s.damagedItems.length);
  return (
    <aside className="sidebar" hidden={hidden} id="side-panel" data-testid="side-panel">
      <div className="sidebar-head">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            <span />
            <span />
          </span>
          <span className="brand-name">Parallax</span>
        </div>
        <button type="button" className="icon-btn" onClick={toggleTheme} aria-label={`Switch to ${theme === 'dark' ? 'light' : 'dark'} theme`} title="Toggle theme" data-testid="theme-toggle">
          {theme === 'dark' ? <IconSun /> : <IconMoon />}
        </button>
      </div>
      <div className="side-tabs" role="tablist" aria-label="Panel">
        <button type="button" role="tab" aria-selected={tab === 'compose'} className={`side-tab ${tab === 'compose' ? 'is-active' : ''}`} onClick={() => setTab('compose')} data-testid="side-tab-compose">
          <IconCompose size={14} /> New comparison
        </button>
        <button type="button" role="tab" aria-selected={tab === 'history'} className={`side-tab ${tab === 'history' ? 'is-active' : ''}`} onClick={openHistory} data-testid="side-tab-history">
          <IconHistory size={14} /> History {count > 0 ? <span className="count-pill">{count}</span> : null}
        </button>
      </div>
      <div className="sidebar-body">{tab === 'compose' ? <ComposerPanel /> : <HistoryPanel />}</div>
    </aside>
  );
}
