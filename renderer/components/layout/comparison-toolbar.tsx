/**
 * The main area's header: what is open (task, model, when), the Timeline / Answers / Tokens / Waterfall tabs,
 * Cancel while it runs, else Run again (or into the composer first), the baseline diff, and Export.
 */
import type { KeyboardEvent } from 'react';
import { findPreset } from '../../../shared/providers.js';
import { cancelComparison, taskTitle, toggleSidebar } from '../../app/actions.js';
import { fmtDateTime } from '../../lib/display-format.js';
import { useApp } from '../../store/app-store.js';
import { comparisonSelectors, uiSelectors } from '../../store/selectors.js';
import type { MainTab } from '../../store/ui-slice.js';
import { SimBadge } from '../common/badges.js';
import { IconChart, IconWaterfall, IconDiff, IconHistory, IconList, IconPanel, IconStop } from '../common/icons.js';
import { Kbd, MOD_KEY } from '../common/kbd.js';
import { ExportMenu } from '../history/export-menu.js';
import { AgainMenu } from './again-menu.js';
import { appStore } from '../../store/app-store.js';

const TABS: { id: MainTab; label: string; icon: typeof IconList }[] = [
  { id: 'timeline', label: 'Timeline', icon: IconList },
  { id: 'answers', label: 'Answers', icon: IconDiff },
  { id: 'charts', label: 'Tokens & summary', icon: IconChart },
  { id: 'waterfall', label: 'Waterfall', icon: IconWaterfall },
];

export function ComparisonToolbar() {
  const active = useApp(comparisonSelectors.active);
  const running = useApp(comparisonSelectors.isRunning);
  const tab = useApp(uiSelectors.mainTab);
  const setTab = useApp((s) => s.setMainTab);
  const sidebarHidden = useApp(uiSelectors.sidebarHidden);
  if (!active) return null;
  const m = active.meta;

  const onTabKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    e.preventDefault();
    const i = TABS.findIndex((t) => t.id === tab);
    const next = TABS[(i + (e.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length]!;
    setTab(next.id);
    document.getElementById(`tab-${next.id}`)?.focus();
  };

  return (
    <header className="toolbar" data-testid="comparison-toolbar">
      <button
        type="button"
        className="icon-btn"
        onClick={toggleSidebar}
        aria-controls="side-panel"
        aria-expanded={!sidebarHidden}
        aria-label={sidebarHidden ? 'Show the side panel' : 'Hide the side panel'}
        title={`${sidebarHidden ? 'Show' : 'Hide'} the side panel (${MOD_KEY}+B): more room for the columns`}
        data-testid="sidebar-toggle"
      >
        <IconPanel />
      </button>
      <div className="toolbar-title">
        <h1 title={m.task.text}>{taskTitle(m.task)}</h1>
        <div className="toolbar-meta">
          <span className="mono">{m.provider.model}</span>
          <span className="sep">·</span>
          {m.provider.simulated ? (
            <SimBadge />
          ) : (
            <span title={m.provider.baseUrl}>{findPreset(m.provider.name)?.label ?? m.provider.name}</span>
          )}
          <span className="sep">·</span>
          <span>{fmtDateTime(m.createdAt)}</span>
          {active.source === 'history' ? <span className="pill">from history</span> : null}
        </div>
      </div>
      <div className="tabs" role="tablist" aria-label="View" onKeyDown={onTabKey}>
        {TABS.map((t) => (
          <button
            key={t.id}
            id={`tab-${t.id}`}
            type="button"
            role="tab"
            aria-selected={tab === t.id}
            aria-controls="main-panel"
            tabIndex={tab === t.id ? 0 : -1}
            className={`tab ${tab === t.id ? 'is-active' : ''}`}
            onClick={() => setTab(t.id)}
            data-testid={`tab-${t.id}`}
          >
            <t.icon size={14} /> {t.label}
          </button>
        ))}
      </div>
      <div className="toolbar-actions">
        {running ? (
          <button
            type="button"
            className="btn btn-sm btn-danger-ghost"
            onClick={() => void cancelComparison()}
            data-testid="toolbar-cancel"
          >
            <IconStop size={11} /> Cancel all <Kbd keys={['Esc']} />
          </button>
        ) : (
          <AgainMenu />
        )}
        <button
          type="button"
          className="btn btn-sm"
          onClick={() => appStore.getState().setDiffDialog(m.id)}
          title="Compare this comparison with an earlier one of the same task: what changed per column"
          aria-label="Compare with a baseline"
          data-testid="toolbar-baseline"
        >
          <IconHistory size={14} /> <span className="btn-label">Baseline…</span>
        </button>
        <ExportMenu />
      </div>
    </header>
  );
}
