/** The Timeline's rows after the step filters (shared/step-filter.ts), recomputed as live runs grow. */
import { useMemo } from 'react';
import {
  filterActive,
  filterSteps,
  stepFacts,
  toolsUsed,
  type FilterResult,
  type StepFacts,
} from '../../../shared/step-filter.js';
import { useApp } from '../../store/app-store.js';
import type { ModeRun, TimelineRow } from '../../store/derived.js';
import type { StepEvent } from '../../../shared/step-event.js';

// A run's events array is replaced only in a batch that adds to that run (copy on write, store/run-model.ts), so
// facts keyed by the array are read once per batch per changed run, not for every run on every batch.
const factsOf = new WeakMap<readonly StepEvent[], StepFacts[]>();
const NO_EVENTS: readonly StepEvent[] = [];
function cachedFacts(events: readonly StepEvent[]): StepFacts[] {
  let facts = factsOf.get(events);
  if (!facts) factsOf.set(events, (facts = stepFacts(events)));
  return facts;
}

export function useStepFilter(
  modeRuns: readonly ModeRun[],
  allRows: readonly TimelineRow[],
): { rows: readonly TimelineRow[]; tools: readonly string[]; result: FilterResult | null } {
  const filter = useApp((s) => s.stepFilter);
  const facts = useMemo(() => modeRuns.map((m) => cachedFacts(m.run?.events ?? NO_EVENTS)), [modeRuns]);
  const tools = useMemo(() => toolsUsed(facts), [facts]);
  const result = useMemo(() => (filterActive(filter) ? filterSteps(facts, filter) : null), [facts, filter]);
  const rows = useMemo(() => {
    if (!result) return allRows;
    const keep = new Set(result.rows);
    return allRows.filter((r) => r.kind !== 'step' || keep.has(r.step));
  }, [allRows, result]);
  return { rows, tools, result };
}
