/** The Timeline's rows after the step filters (shared/step-filter.ts), recomputed as live runs grow. */
import { useMemo } from 'react';
import { filterActive, filterSteps, stepFacts, toolsUsed, type FilterResult } from '../../../shared/step-filter.js';
import { useApp } from '../../store/app-store.js';
import type { ModeRun, TimelineRow } from '../../store/derived.js';

export function useStepFilter(modeRuns: readonly ModeRun[], allRows: readonly TimelineRow[]): { rows: readonly TimelineRow[]; tools: readonly string[]; result: FilterResult | null } {
  const filter = useApp((s) => s.stepFilter);
  const facts = useMemo(() => modeRuns.map((m) => stepFacts(m.run?.events ?? [])), [modeRuns]);
  const tools = useMemo(() => toolsUsed(facts), [facts]);
  const result = useMemo(() => (filterActive(filter) ? filterSteps(facts, filter) : null), [facts, filter]);
  const rows = useMemo(() => {
    if (!result) return allRows;
    const keep = new Set(result.rows);
    return allRows.filter((r) => r.kind !== 'step' || keep.has(r.step));
  }, [allRows, result]);
  return { rows, tools, result };
}
