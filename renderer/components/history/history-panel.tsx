/** Stored comparisons, newest first (×N when each mode ran N trials): open one to rebuild its timelines and charts, or delete it. */
import type { ColumnSlot } from '../../../shared/column-shades.js';
import type { ComparisonListItem, DamagedComparison } from '../../../shared/ipc-contract.js';
import { findPreset } from '../../../shared/providers.js';
import { MODE_IDS, MODE_LABELS } from '../../../shared/run-spec.js';
import { useEffect, useMemo, useRef } from 'react';
import { isFiltered, matchesHistory, NO_FILTER, type HistoryFilter } from '../../store/history-filter.js';
import { deleteComparison, openComparison, openSuiteRun, refreshHistory, taskTitle } from '../../app/actions.js';
import { changeHistoryFilter, loadMoreHistory } from '../../app/history-actions.js';
import type { SuiteRecord } from '../../../shared/suite.js';
import { fmtDateTime, fmtInt, fmtMean, fmtRelative } from '../../lib/display-format.js';
import { appStore, useApp } from '../../store/app-store.js';
import { historySelectors } from '../../store/selectors.js';
import { trialCount } from '../../store/trial-model.js';
import { runColumn, slotsOf } from '../../store/columns.js';
import { SimBadge, StatusBadge } from '../common/badges.js';
import { IconAlert, IconDiff, IconHistory, IconRefresh, IconSpinner, IconTrash } from '../common/icons.js';
import { ESTIMATED_HINT } from '../../../shared/cost.js';

type ListRun = ComparisonListItem['runs'][number];

/** Whether the run's answer passed validation: ✓, ✗, or nothing when it was not validated (or an older host). */
function PassMark({ passed }: { passed: boolean | null | undefined }) {
  if (passed === undefined || passed === null) return null;
  return (
    <span
      className={`pass-mark ${passed ? 'is-pass' : 'is-fail'}`}
      data-testid="history-pass"
      data-passed={String(passed)}
      title={passed ? 'Answer passed validation' : 'Answer failed validation'}
    >
      {passed ? '✓' : '✗'}
    </span>
  );
}

/** A column's trials in one line: how many answered, and the mean tokens of those (as the averages table counts). */
function ModeTrials({
  mode,
  label,
  slot,
  runs,
}: {
  mode: string;
  label: string;
  slot: ColumnSlot;
  runs: readonly ListRun[];
}) {
  const answered = runs.filter((r) => r.status === 'answered');
  const live = runs.some((r) => r.status === 'running');
  const mean = answered.length ? answered.reduce((a, r) => a + r.totalTokens, 0) / answered.length : null;
  return (
    <span className="history-run" data-mode={mode}>
      <span className={`mode-swatch mode-${slot}`} aria-hidden="true" />
      <span className="history-run-mode">{label}</span>
      {live ? (
        <StatusBadge status="running" compact />
      ) : (
        // A wrong answer is never shown in the colour of success: green only when every trial answered and none failed validation.
        <span
          className={`badge ${answered.length === runs.length && !runs.some((r) => r.passed === false) ? 'badge-ok' : 'badge-warn'}`}
          title={`${answered.length} of ${runs.length} trials answered`}
        >
          {answered.length}/{runs.length}
        </span>
      )}
      {runs.some((r) => r.passed !== undefined && r.passed !== null) ? (
        <span className="num muted" data-testid="history-passed" title="Trials whose answer passed validation">
          {runs.filter((r) => r.passed === true).length}/{runs.length} passed
        </span>
      ) : null}
      <span className="num muted" title="Mean total tokens of the answered trials">
        {mean === null ? 'no answer' : `avg ${fmtMean(mean)} tok`}
      </span>
    </span>
  );
}

function HistoryItem({ item, active, opening }: { item: ComparisonListItem; active: boolean; opening: boolean }) {
  const m = item.meta;
  const trials = trialCount(m);
  // Each run's column (its variant, else its mode's plain column) and the column's colour slot.
  const slots = slotsOf(m);
  const columnOfRun = (r: ListRun) => r.column ?? runColumn(m, m.runs.find((x) => x.runId === r.runId) ?? r, undefined);
  const columns = [...new Map(item.runs.map((r) => [columnOfRun(r).key, columnOfRun(r)])).values()];
  return (
    <li className={`history-item ${active ? 'is-active' : ''}`} data-testid="history-item" data-id={m.id}>
      <button
        type="button"
        className="history-open"
        onClick={() => void openComparison(m.id)}
        aria-current={active ? 'true' : undefined}
        title="Open this comparison"
      >
        <span className="history-title-row">
          <span className="history-title">{taskTitle(m.task)}</span>
          {trials > 1 ? (
            <span
              className="count-pill history-trials"
              title={`${trials} trials per mode`}
              data-testid="history-trials"
            >
              ×{trials}
            </span>
          ) : null}
          {opening ? <IconSpinner size={12} /> : null}
          <time
            className="history-when"
            dateTime={new Date(m.createdAt).toISOString()}
            title={fmtDateTime(m.createdAt)}
          >
            {fmtRelative(m.createdAt)}
          </time>
        </span>
        <span className="history-model">
          <span className="mono">{m.provider.model}</span>
          {m.provider.simulated ? (
            <SimBadge />
          ) : (
            <span className="muted"> · {findPreset(m.provider.name)?.label ?? m.provider.name}</span>
          )}
        </span>
        <span className="history-runs">
          {trials > 1
            ? columns.map((c) => (
                <ModeTrials
                  key={c.key}
                  mode={c.key}
                  label={c.label}
                  slot={slots.get(c.key) ?? (c.key as ColumnSlot)}
                  runs={item.runs.filter((r) => columnOfRun(r).key === c.key)}
                />
              ))
            : item.runs.map((r) => (
                <span key={r.runId} className="history-run" data-mode={columnOfRun(r).key}>
                  <span className={`mode-swatch mode-${slots.get(columnOfRun(r).key) ?? r.mode}`} aria-hidden="true" />
                  <span className="history-run-mode">{columnOfRun(r).label}</span>
                  <StatusBadge
                    status={r.status}
                    compact
                    validation={
                      r.passed === false ? { ok: false, detail: 'open the comparison for what was expected' } : null
                    }
                  />
                  <PassMark passed={r.passed} />
                  <span
                    className="num muted"
                    title={`${fmtInt(r.steps)} steps${r.usageSource === 'estimated' || r.usageSource === 'mixed' ? ` · ${ESTIMATED_HINT}` : ''}`}
                  >
                    {r.usageSource === 'estimated' || r.usageSource === 'mixed' ? '≈ ' : ''}
                    {fmtInt(r.totalTokens)} tok
                  </span>
                </span>
              ))}
        </span>
        {item.problems?.length ? (
          <span className="history-damage" data-testid="history-problems" title={item.problems.join('\n')}>
            <IconAlert size={12} /> Damaged lines skipped:{' '}
            {item.problems.length === 1 ? item.problems[0] : `${item.problems.length} problems (hover for details)`}
          </span>
        ) : null}
      </button>
      <button
        type="button"
        className="icon-btn history-compare"
        onClick={() => appStore.getState().setDiffDialog(m.id)}
        aria-label={`Compare “${taskTitle(m.task)}” with a baseline`}
        title="Compare with… an earlier comparison of the same task"
        data-testid="history-compare"
      >
        <IconDiff size={14} />
      </button>
      <button
        type="button"
        className="icon-btn history-delete"
        onClick={(e) => deleteKeepingFocus(m.id, e.currentTarget)}
        aria-label={`Delete “${taskTitle(m.task)}”`}
        title="Delete"
        data-testid="history-delete"
      >
        <IconTrash size={14} />
      </button>
    </li>
  );
}

/** The Delete button leaves with its item: focus goes to a neighbour's open button, else to the panel's tab. */
function deleteKeepingFocus(id: string, button: HTMLElement): void {
  const item = button.closest('li');
  const neighbour = (item?.nextElementSibling ?? item?.previousElementSibling)?.querySelector<HTMLElement>(
    '.history-open',
  );
  deleteComparison(id);
  requestAnimationFrame(() => {
    const now = document.activeElement;
    if (now && now !== document.body && now.isConnected) return;
    (neighbour?.isConnected
      ? neighbour
      : document.querySelector<HTMLElement>('#side-panel [role=tab][aria-selected=true]')
    )?.focus();
  });
}

/** A suite run (`parallax suite run`): opens its leaderboard in the main area. */
function SuiteItem({ item, active, opening }: { item: SuiteRecord; active: boolean; opening: boolean }) {
  return (
    <li className={`history-item ${active ? 'is-active' : ''}`} data-testid="suite-item" data-id={item.id}>
      <button
        type="button"
        className="history-open"
        onClick={() => void openSuiteRun(item.id)}
        aria-current={active ? 'true' : undefined}
        title="Open this suite run's leaderboard"
      >
        <span className="history-title-row">
          <span className="history-title">Suite {item.name}</span>
          <span className="count-pill" title={`${item.trials} trials per mode and task`}>
            {item.tasks.length} tasks ×{item.trials}
          </span>
          {opening ? <IconSpinner size={12} /> : null}
          <time
            className="history-when"
            dateTime={new Date(item.createdAt).toISOString()}
            title={fmtDateTime(item.createdAt)}
          >
            {fmtRelative(item.createdAt)}
          </time>
        </span>
        <span className="history-model">
          <span className="mono">{item.provider?.model ?? '—'}</span>
          {item.provider?.simulated ? <SimBadge /> : null}
        </span>
        <span className="history-runs">
          {item.modes.map((m) => (
            <span key={m} className="history-run" data-mode={m}>
              <span className={`mode-swatch mode-${m}`} aria-hidden="true" />
              <span className="history-run-mode">{MODE_LABELS[m]}</span>
            </span>
          ))}
        </span>
      </button>
    </li>
  );
}

/** A comparison whose record cannot be read: what is wrong, and the way out (delete). It cannot be opened. */
function DamagedItem({ item }: { item: DamagedComparison }) {
  return (
    <li className="history-item is-damaged" data-testid="history-damaged" data-id={item.id}>
      <div className="history-open" role="group" aria-label={`Damaged comparison ${item.id}`}>
        <span className="history-title-row">
          <span className="history-title">
            <IconAlert size={12} /> Damaged comparison
          </span>
          <time
            className="history-when"
            dateTime={new Date(item.modifiedAt).toISOString()}
            title={fmtDateTime(item.modifiedAt)}
          >
            {fmtRelative(item.modifiedAt)}
          </time>
        </span>
        <span className="history-model mono">{item.id}</span>
        <span className="history-damage" data-testid="history-damaged-reason">
          {item.reason}. It cannot be opened; delete it to clear it from the list.
        </span>
      </div>
      <button
        type="button"
        className="icon-btn history-delete"
        onClick={() => deleteComparison(item.id)}
        aria-label={`Delete damaged comparison ${item.id}`}
        title="Delete"
        data-testid="history-delete"
      >
        <IconTrash size={14} />
      </button>
    </li>
  );
}

function FilterBar({ shown, total }: { shown: number; total: number }) {
  const filter = useApp((s) => s.historyFilter);
  const setFilter = changeHistoryFilter;
  return (
    <div className="history-filter" data-testid="history-filter">
      <input
        type="search"
        className="input input-sm"
        placeholder="Search task, model, id…"
        value={filter.text}
        onChange={(e) => setFilter({ text: e.target.value })}
        aria-label="Search the history"
        data-testid="history-search"
      />
      <div className="history-filter-row">
        <select
          className="input input-sm"
          value={filter.mode}
          onChange={(e) => setFilter({ mode: e.target.value as HistoryFilter['mode'] })}
          aria-label="Mode"
          data-testid="history-filter-mode"
        >
          <option value="all">Any mode</option>
          {MODE_IDS.map((m) => (
            <option key={m} value={m}>
              {MODE_LABELS[m]}
            </option>
          ))}
        </select>
        <select
          className="input input-sm"
          value={filter.outcome}
          onChange={(e) => setFilter({ outcome: e.target.value as HistoryFilter['outcome'] })}
          aria-label="Outcome"
          data-testid="history-filter-outcome"
        >
          <option value="all">Any outcome</option>
          <option value="answered">All answered</option>
          <option value="not-answered">Not all answered</option>
        </select>
        <select
          className="input input-sm"
          value={filter.age}
          onChange={(e) => setFilter({ age: e.target.value as HistoryFilter['age'] })}
          aria-label="Age"
          data-testid="history-filter-age"
        >
          <option value="all">Any time</option>
          <option value="day">Last day</option>
          <option value="week">Last 7 days</option>
          <option value="month">Last 30 days</option>
        </select>
      </div>
      {isFiltered(filter) ? (
        <p className="history-filter-note muted" data-testid="history-filter-note">
          {fmtInt(shown)} of {fmtInt(total)} match ·{' '}
          <button type="button" className="link-btn" onClick={() => setFilter(NO_FILTER)}>
            clear
          </button>
        </p>
      ) : null}
    </div>
  );
}

/** The end of the loaded pages: the next page loads when this comes into view (or on a click), with how many are shown. */
function MoreItems({ loaded, matching }: { loaded: number; matching: number }) {
  const more = useApp((s) => s.historyMore);
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const seen = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void loadMoreHistory());
    seen.observe(el);
    return () => seen.disconnect();
  }, [loaded]);
  const failed = typeof more === 'object' ? more.error : null;
  return (
    <li className="history-more" data-testid="history-more">
      <button
        ref={ref}
        type="button"
        className="btn btn-sm"
        onClick={() => void loadMoreHistory()}
        disabled={more === 'loading'}
      >
        {more === 'loading' ? <IconSpinner size={12} /> : null} {failed ? 'Try again' : 'Show more'}
      </button>
      <span className="muted" data-testid="history-shown">
        {fmtInt(loaded)} of {fmtInt(matching)} shown
      </span>
      {failed ? (
        <span className="history-damage" role="alert">
          Could not load more: {failed}
        </span>
      ) : null}
    </li>
  );
}

export function HistoryPanel() {
  const listed = useApp(historySelectors.items);
  const filter = useApp((s) => s.historyFilter);
  const pending = useApp((s) => s.pendingDeletes);
  // Comparisons deleted a moment ago (their Undo still open) are out of the list already.
  const loaded = useMemo(() => listed.filter((it) => !pending.has(it.meta.id)), [listed, pending]);
  // The host filtered the pages; the loaded ones are narrowed at once too, while a new filter is on its way.
  const items = useMemo(() => loaded.filter((it) => matchesHistory(it, filter)), [loaded, filter]);
  const gone = listed.length - loaded.length;
  const stored = useApp(historySelectors.stored) - gone;
  const matching = useApp(historySelectors.matching) - gone;
  const next = useApp(historySelectors.next);
  const damaged = useApp(historySelectors.damaged);
  const status = useApp(historySelectors.status);
  const error = useApp(historySelectors.error);
  const openingId = useApp(historySelectors.openingId);
  const activeId = useApp((s) => s.active?.meta.id ?? null);
  const suites = useApp(historySelectors.suites);
  const activeSuiteId = useApp((s) => s.activeSuite?.record.id ?? null);
  return (
    <section className="history" aria-label="History" data-testid="history">
      <div className="panel-subhead">
        <span className="muted">
          {status === 'ready'
            ? `${fmtInt(stored)} comparison${stored === 1 ? '' : 's'}${damaged.length ? `, ${damaged.length} damaged` : ''}`
            : ' '}
        </span>
        <button
          type="button"
          className="icon-btn"
          onClick={() => void refreshHistory()}
          aria-label="Reload history"
          title="Reload"
        >
          {status === 'loading' ? <IconSpinner size={14} /> : <IconRefresh size={14} />}
        </button>
      </div>
      {status === 'error' ? (
        <div className="empty small-empty" role="alert">
          <p className="empty-title">Could not load history</p>
          <p className="empty-text">{error}</p>
          <button className="btn btn-sm" onClick={() => void refreshHistory()}>
            Try again
          </button>
        </div>
      ) : stored > 0 && items.length === 0 && damaged.length === 0 && (status !== 'ready' || next === null) ? (
        <>
          <FilterBar shown={0} total={stored} />
          <div className="empty small-empty" data-testid="history-no-match">
            <p className="empty-title">No comparison matches</p>
            <p className="empty-text">Change the search or the filters, or clear them.</p>
          </div>
        </>
      ) : items.length === 0 && damaged.length === 0 && status === 'ready' ? (
        <div className="empty small-empty" data-testid="history-empty">
          <IconHistory size={22} />
          <p className="empty-title">No comparisons yet</p>
          <p className="empty-text">
            Every comparison you run is kept here with all its events, ready to reopen or export.
          </p>
        </div>
      ) : (
        <>
          {suites.length ? (
            <>
              <h3 className="history-section-title">Suite runs</h3>
              <ul className="history-list suite-list" data-testid="suite-list">
                {suites.map((it) => (
                  <SuiteItem key={it.id} item={it} active={it.id === activeSuiteId} opening={openingId === it.id} />
                ))}
              </ul>
              <h3 className="history-section-title">Comparisons</h3>
            </>
          ) : null}
          {stored > 1 || isFiltered(filter) ? <FilterBar shown={matching} total={stored} /> : null}
          <ul className="history-list">
            {items.map((it) => (
              <HistoryItem
                key={it.meta.id}
                item={it}
                active={it.meta.id === activeId}
                opening={openingId === it.meta.id}
              />
            ))}
            {next !== null ? <MoreItems loaded={items.length} matching={matching} /> : null}
            {damaged.map((d) => (
              <DamagedItem key={d.id} item={d} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
