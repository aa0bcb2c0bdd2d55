/**
 * Which mode every Δ is taken against: the summary's and the averages' Δ columns and the sentences under the
 * averages. One choice for the window; a comparison without that mode measures against its first mode.
 */
import { MODE_LABELS, type ModeId } from '../../../shared/modes.js';
import { useApp } from '../../store/app-store.js';

/** The baseline among `modes` (the chosen one, else the first). */
export function useBaseline(modes: readonly ModeId[]): ModeId | undefined {
  const chosen = useApp((s) => s.baselineMode);
  return chosen && modes.includes(chosen) ? chosen : modes[0];
}

export function BaselinePicker({ modes, testId }: { readonly modes: readonly ModeId[]; readonly testId: string }) {
  const setBaseline = useApp((s) => s.setBaselineMode);
  const base = useBaseline(modes);
  const distinct = [...new Set(modes)];
  if (distinct.length < 2 || !base) return base ? <>{MODE_LABELS[base]}</> : null;
  return (
    <select
      className="input baseline-select"
      aria-label="Mode the Δ columns compare against"
      value={base}
      onChange={(e) => setBaseline(e.target.value as ModeId)}
      data-testid={testId}
    >
      {distinct.map((m) => (
        <option key={m} value={m}>{MODE_LABELS[m]}</option>
      ))}
    </select>
  );
}
