/**
 * The filter bar above the Timeline's columns: errors only, a tool, text search, only where the columns differ,
 * how many steps match, and whether programs' long lines wrap. The filtering itself is shared/step-filter.ts; the filters live in the store (and
 * so in the URL).
 */
import { useId } from 'react';
import { filterActive, NO_FILTER, type FilterResult, type StepFilter } from '../../../shared/step-filter.js';
import { useApp } from '../../store/app-store.js';
import { IconSearch } from '../common/icons.js';

export function StepFilterBar({ tools, result }: { tools: readonly string[]; result: FilterResult | null }) {
  const filter = useApp((s) => s.stepFilter);
  const wrapCode = useApp((s) => s.wrapCode);
  const setWrapCode = useApp((s) => s.setWrapCode);
  const setFilter = useApp((s) => s.setStepFilter);
  const id = useId();
  const set = (patch: Partial<StepFilter>) => setFilter({ ...filter, ...patch });
  // A tool chosen in another comparison (or from the URL) stays offered, so the choice is visible and undoable.
  const options = filter.tool && !tools.includes(filter.tool) ? [...tools, filter.tool] : tools;
  const active = filterActive(filter);
  return (
    <div className="step-filter-bar" role="search" aria-label="Filter steps" data-testid="step-filter-bar">
      <label className="step-filter-check">
        <input
          type="checkbox"
          checked={filter.errorsOnly}
          onChange={(e) => set({ errorsOnly: e.target.checked })}
          data-testid="filter-errors"
        />
        Errors only
      </label>
      <label className="step-filter-field" htmlFor={`${id}-tool`}>
        Tool
      </label>
      <select
        id={`${id}-tool`}
        value={filter.tool ?? ''}
        onChange={(e) => set({ tool: e.target.value || null })}
        data-testid="filter-tool"
      >
        <option value="">Any tool</option>
        {options.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
      <span className="step-filter-search">
        <IconSearch size={13} />
        <input
          type="search"
          aria-label="Search arguments, results and answers"
          placeholder="Search arguments, results, answers"
          value={filter.text}
          onChange={(e) => set({ text: e.target.value })}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && filter.text) {
              e.stopPropagation();
              set({ text: '' });
            }
          }}
          data-testid="filter-text"
        />
      </span>
      <label
        className="step-filter-check"
        title="Rows where the columns' calls (tool, arguments, outcome) are not all the same, or a column has no such step"
      >
        <input
          type="checkbox"
          checked={filter.differOnly}
          onChange={(e) => set({ differOnly: e.target.checked })}
          data-testid="filter-differ"
        />
        Only where the columns differ
      </label>
      <label
        className="step-filter-check"
        title="Wrap the long lines of programs instead of scrolling them sideways"
        data-testid="wrap-code-toggle"
      >
        <input type="checkbox" checked={wrapCode} onChange={(e) => setWrapCode(e.target.checked)} /> Wrap code
      </label>
      <span className="step-filter-count" role="status" aria-live="polite" data-testid="filter-count">
        {active && result ? `${result.matched} of ${result.total} step${result.total === 1 ? '' : 's'} match` : ''}
      </span>
      {active ? (
        <button type="button" className="btn btn-sm" onClick={() => setFilter(NO_FILTER)} data-testid="filter-clear">
          Clear filters
        </button>
      ) : null}
    </div>
  );
}

/** Shown in place of the step rows when the filters leave none. */
export function NoStepsMatch() {
  const setFilter = useApp((s) => s.setStepFilter);
  return (
    <div className="step-filter-empty" data-testid="filter-empty">
      <p>No step matches these filters.</p>
      <button type="button" className="btn" onClick={() => setFilter(NO_FILTER)}>
        Clear filters
      </button>
    </div>
  );
}
