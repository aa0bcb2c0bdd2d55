/**
 * Which column every Δ is taken against: the summary's and the averages' Δ columns and the sentences under the
 * averages. One choice for the window, by column key (a plain comparison's keys are its modes); a comparison
 * without that column measures against its first.
 */
import type { ColumnRef } from '../../../shared/variants.js';
import { useApp } from '../../store/app-store.js';

/** The baseline among the column `keys` (the chosen one, else the first). */
export function useBaseline(keys: readonly string[]): string | undefined {
  const chosen = useApp((s) => s.baselineColumn);
  return chosen && keys.includes(chosen) ? chosen : keys[0];
}

export function BaselinePicker({
  columns,
  testId,
}: {
  readonly columns: readonly ColumnRef[];
  readonly testId: string;
}) {
  const setBaseline = useApp((s) => s.setBaselineColumn);
  const base = useBaseline(columns.map((c) => c.key));
  const distinct = [...new Map(columns.map((c) => [c.key, c])).values()];
  if (distinct.length < 2 || !base) return base ? <>{distinct.find((c) => c.key === base)?.label}</> : null;
  return (
    <select
      className="input baseline-select"
      aria-label="Column the Δ columns compare against"
      value={base}
      onChange={(e) => setBaseline(e.target.value)}
      data-testid={testId}
    >
      {distinct.map((c) => (
        <option key={c.key} value={c.key}>
          {c.label}
        </option>
      ))}
    </select>
  );
}
