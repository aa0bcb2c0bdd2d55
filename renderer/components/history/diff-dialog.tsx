/**
 * "Compare with a baseline" (the toolbar's Baseline…, or History's compare icon): the comparison against an
 * earlier one of the same task, chosen here from the loaded history, newest first, each told apart by when it
 * ran, its columns, trials and model (history:diff, shared/comparison-diff.ts, as `parallax diff`). Regressions are flagged only as the
 * result statement would (a clear test over trials; a column that fails now); one run a side gives no verdict.
 * Esc or the backdrop closes it.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { sameTask, type ComparisonDiff } from '../../../shared/comparison-diff.js';
import type { ComparisonMeta } from '../../../shared/ipc-contract.js';
import { MODE_LABELS } from '../../../shared/modes.js';
import { invoke } from '../../api/client.js';
import { errorText, taskTitle } from '../../app/actions.js';
import { fmtDateTime } from '../../lib/display-format.js';
import { keepTabInside, restoreFocus } from '../../lib/focus.js';
import { appStore, useApp } from '../../store/app-store.js';
import { uiSelectors } from '../../store/selectors.js';
import { SimBadge } from '../common/badges.js';
import { DiffResult } from './diff-result.js';

const close = () => appStore.getState().setDiffDialog(null);

/** How long before the open comparison a baseline ran: "40 min earlier", "3 h earlier", "2 days earlier". */
function earlierBy(ms: number): string {
  const min = Math.max(1, Math.round(ms / 60_000));
  if (min < 90) return `${min} min earlier`;
  const h = Math.round(min / 60);
  if (h < 36) return `${h} h earlier`;
  const d = Math.round(h / 24);
  return `${d} day${d === 1 ? '' : 's'} earlier`;
}

/** What a baseline ran, in words a person tells comparisons apart by: its columns, trials, model, and when. */
function BaselineLabel({ c, now }: { c: ComparisonMeta; now: number }) {
  const columns = c.variants?.length
    ? c.variants.map((v) => v.label)
    : [...new Set(c.runs.map((r) => MODE_LABELS[r.mode] ?? r.mode))];
  const trials = Math.max(1, ...c.runs.map((r) => r.trial ?? 1));
  return (
    <span className="diff-baseline-label">
      <span className="diff-baseline-when">
        {fmtDateTime(c.createdAt)} <span className="muted">({earlierBy(now - c.createdAt)})</span>
      </span>
      <span className="diff-baseline-what">
        {taskTitle(c.task)} · {columns.join(', ')}
        {trials > 1 ? ` · ${trials} trials` : ' · 1 run each'}
      </span>
      <span className="diff-baseline-model">
        <span className="mono">{c.provider.model}</span> {c.provider.simulated ? <SimBadge /> : null}
        <span className="muted mono small"> {c.id}</span>
      </span>
    </span>
  );
}

export function DiffDialog() {
  const comparisonId = useApp(uiSelectors.diffDialog);
  const items = useApp((s) => s.historyItems);
  const [baseline, setBaseline] = useState('');
  const [diff, setDiff] = useState<ComparisonDiff | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const boxRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLFieldSetElement>(null);
  const active = useApp((s) => s.active?.meta ?? null);
  // The open comparison may be missing from a filtered history list: the toolbar's entry still opens it.
  const me = items.find((i) => i.meta.id === comparisonId)?.meta ?? (active?.id === comparisonId ? active : null);
  // Only earlier comparisons of the same task, newest first: a baseline is what came before.
  const candidates = useMemo(
    () =>
      me
        ? items
            .map((i) => i.meta)
            .filter((m) => m.id !== me.id && m.createdAt < me.createdAt && sameTask(m.task, me.task))
            .sort((a, b) => b.createdAt - a.createdAt)
        : [],
    [items, me],
  );

  useEffect(() => {
    if (!comparisonId) return;
    setBaseline('');
    setDiff(null);
    setError(null);
    const previous = document.activeElement as HTMLElement | null;
    listRef.current?.querySelector<HTMLInputElement>('input')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        close();
      } else keepTabInside(e, boxRef.current);
    };
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      restoreFocus(previous, '[data-testid=side-tab-history]');
    };
  }, [comparisonId]);

  if (!comparisonId || !me) return null;
  const pick = async (id: string) => {
    setBaseline(id);
    setDiff(null);
    setError(null);
    if (!id) return;
    setLoading(true);
    try {
      setDiff(await invoke('history:diff', id, comparisonId));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setLoading(false);
    }
  };
  return (
    <div className="modal-backdrop" onMouseDown={close}>
      <div
        className="modal diff-dialog"
        ref={boxRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby="diff-title"
        onMouseDown={(e) => e.stopPropagation()}
        data-testid="diff-dialog"
      >
        <h2 id="diff-title" className="modal-title">
          Compare with a baseline
        </h2>
        <p className="modal-body">
          {taskTitle(me.task)}, {fmtDateTime(me.createdAt)}: what changed per column against an earlier comparison of
          the same task. A change is flagged only when the trials show it clearly; one run a side gives no verdict.
        </p>
        {candidates.length === 0 ? (
          <p className="muted" data-testid="diff-none">
            No earlier comparison of this task is in the loaded history. Run the task again later, then compare the
            later one with this.
          </p>
        ) : (
          <fieldset className="diff-baselines" ref={listRef} data-testid="diff-baseline">
            <legend>Baseline: an earlier comparison of this task, newest first</legend>
            {candidates.map((c) => (
              <label
                key={c.id}
                className={`diff-baseline-option ${baseline === c.id ? 'is-picked' : ''}`}
                data-testid="diff-baseline-option"
                data-id={c.id}
              >
                <input
                  type="radio"
                  name="diff-baseline"
                  value={c.id}
                  checked={baseline === c.id}
                  onChange={() => void pick(c.id)}
                />
                <BaselineLabel c={c} now={me.createdAt} />
              </label>
            ))}
          </fieldset>
        )}
        {loading ? <p className="muted small">Comparing…</p> : null}
        {error ? (
          <p className="field-error" role="alert" data-testid="diff-error">
            {error}
          </p>
        ) : null}
        {diff ? <DiffResult diff={diff} /> : null}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={close} data-testid="diff-close">
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
