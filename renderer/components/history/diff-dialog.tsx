/**
 * "Compare with a baseline": the comparison picked in History against an earlier one of the same task, chosen
 * here from the loaded history (history:diff, shared/comparison-diff.ts). Regressions are flagged only as the
 * result statement would (a clear test over trials; a column that fails now); one run a side gives no verdict.
 * Esc or the backdrop closes it.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  figureCell,
  sameTask,
  TREND_WORDS,
  type ColumnDiff,
  type ComparisonDiff,
} from '../../../shared/comparison-diff.js';
import { invoke } from '../../api/client.js';
import { errorText, taskTitle } from '../../app/actions.js';
import { fmtDateTime } from '../../lib/display-format.js';
import { keepTabInside, restoreFocus } from '../../lib/focus.js';
import { appStore, useApp } from '../../store/app-store.js';
import { uiSelectors } from '../../store/selectors.js';

const close = () => appStore.getState().setDiffDialog(null);
const FLAG_WORDS: Record<ColumnDiff['flag'], string> = {
  regressed: 'Regressed',
  improved: 'Improved',
  'no-verdict': 'No verdict',
  unchanged: 'Unchanged',
  'baseline-only': 'Only in the baseline',
  'comparison-only': 'Only in this comparison',
};
const toneOf = (t: string) => (t === 'regressed' || t === 'now-fails' ? 'bad' : t === 'improved' ? 'ok' : '');

function DiffColumns({ diff }: { diff: ComparisonDiff }) {
  return (
    <div className="diff-result" data-testid="baseline-diff">
      <div className="diff-headline" role="status">
        {diff.headline.map((l) => (
          <p key={l}>{l}</p>
        ))}
        {diff.simulated ? (
          <p className="muted small">Token figures come from the simulated model (simulated).</p>
        ) : null}
      </div>
      {diff.columns.map((c) => (
        <section
          key={c.key}
          className="diff-col"
          data-testid={`baseline-diff-${c.key}`}
          data-flag={c.flag}
          aria-labelledby={`diff-col-${c.key}`}
        >
          <h3 id={`diff-col-${c.key}`}>
            {c.label} <span className={`pill diff-flag ${toneOf(c.flag)}`}>{FLAG_WORDS[c.flag]}</span>
          </h3>
          <p className="small">
            {c.summary}
            {c.matchedBy === 'label' ? ' Matched by label.' : ''}
          </p>
          {c.figures.length ? (
            <table className="data-table diff-table">
              <thead>
                <tr>
                  <th scope="col">Figure</th>
                  <th scope="col" className="num">
                    Baseline
                  </th>
                  <th scope="col" className="num">
                    Now
                  </th>
                  <th scope="col">Change</th>
                </tr>
              </thead>
              <tbody>
                {c.figures.map((f) => (
                  <tr key={f.figure} data-figure={f.figure} data-trend={f.trend} title={f.sentence}>
                    <th scope="row">{f.label}</th>
                    <td className="num">{figureCell(f, 'baseline', diff.simulated)}</td>
                    <td className="num">{figureCell(f, 'comparison', diff.simulated)}</td>
                    <td className={`diff-trend ${toneOf(f.trend)}`}>
                      {TREND_WORDS[f.trend]}
                      <span className="visually-hidden">: {f.sentence}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </section>
      ))}
    </div>
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
  const selectRef = useRef<HTMLSelectElement>(null);
  const me = items.find((i) => i.meta.id === comparisonId)?.meta ?? null;
  // Earlier comparisons of the same task, newest first; a later one can be a baseline too, but is listed after.
  const candidates = useMemo(
    () =>
      me
        ? items
            .filter((i) => i.meta.id !== me.id && sameTask(i.meta.task, me.task))
            .map((i) => i.meta)
            .sort(
              (a, b) =>
                Number(b.createdAt < me.createdAt) - Number(a.createdAt < me.createdAt) || b.createdAt - a.createdAt,
            )
        : [],
    [items, me],
  );

  useEffect(() => {
    if (!comparisonId) return;
    setBaseline('');
    setDiff(null);
    setError(null);
    const previous = document.activeElement as HTMLElement | null;
    selectRef.current?.focus();
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
            No other comparison of this task is in the loaded history. Run the task again, then compare.
          </p>
        ) : (
          <label className="diff-pick-baseline">
            <span>Baseline</span>
            <select
              ref={selectRef}
              className="input"
              value={baseline}
              onChange={(e) => void pick(e.target.value)}
              data-testid="diff-baseline"
            >
              <option value="">Choose a comparison…</option>
              {candidates.map((c) => (
                <option key={c.id} value={c.id}>
                  {fmtDateTime(c.createdAt)} · {c.provider.model}
                  {c.runs.some((r) => (r.trial ?? 1) > 1)
                    ? ` · ×${Math.max(...c.runs.map((r) => r.trial ?? 1))} trials`
                    : ''}{' '}
                  · {c.id}
                </option>
              ))}
            </select>
          </label>
        )}
        {loading ? <p className="muted small">Comparing…</p> : null}
        {error ? (
          <p className="field-error" role="alert" data-testid="diff-error">
            {error}
          </p>
        ) : null}
        {diff ? <DiffColumns diff={diff} /> : null}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={close} data-testid="diff-close">
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
