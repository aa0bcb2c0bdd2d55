/**
 * Finding a comparison in a long history: free text (task, model, provider, id, its columns' labels), a mode it ran, how its runs
 * ended, and how recent it is. Pure, so the list and its tests share one rule.
 */
import type { ComparisonListItem, HistoryQuery } from '../../shared/ipc-contract.js';
import { findTask } from '../../shared/tasks.js';
import type { ModeId } from '../../shared/run-spec.js';

export type OutcomeFilter = 'all' | 'answered' | 'not-answered';
export type AgeFilter = 'all' | 'day' | 'week' | 'month';

export interface HistoryFilter {
  readonly text: string;
  readonly mode: ModeId | 'all';
  readonly outcome: OutcomeFilter;
  readonly age: AgeFilter;
}

export const NO_FILTER: HistoryFilter = { text: '', mode: 'all', outcome: 'all', age: 'all' };

const AGE_MS: Record<Exclude<AgeFilter, 'all'>, number> = {
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30 * 86_400_000,
};

/** The host's query for the same filter (history:page applies it to the whole history, not the pages loaded). */
export function historyQueryOf(f: HistoryFilter, now = Date.now()): HistoryQuery {
  const search = f.text.trim();
  return {
    ...(search ? { search } : {}),
    ...(f.mode !== 'all' ? { mode: f.mode } : {}),
    ...(f.outcome !== 'all' ? { outcome: f.outcome } : {}),
    ...(f.age !== 'all' ? { since: now - AGE_MS[f.age] } : {}),
  };
}

export const isFiltered = (f: HistoryFilter): boolean =>
  f.text.trim() !== '' || f.mode !== 'all' || f.outcome !== 'all' || f.age !== 'all';

/** Every word of the text must appear (case-insensitive) in the task, model, provider or id. */
export function matchesHistory(item: ComparisonListItem, f: HistoryFilter, now = Date.now()): boolean {
  const m = item.meta;
  if (f.mode !== 'all' && !item.runs.some((r) => r.mode === f.mode)) return false;
  if (f.outcome !== 'all') {
    const finished = item.runs.filter((r) => r.status !== 'running');
    const allAnswered = finished.length > 0 && finished.every((r) => r.status === 'answered');
    if (f.outcome === 'answered' ? !allAnswered : allAnswered || finished.length === 0) return false;
  }
  if (f.age !== 'all' && now - m.createdAt > AGE_MS[f.age]) return false;
  const words = f.text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const title = (m.task.id && findTask(m.task.id)?.title) || '';
  // A comparison of variants is found by its columns too: their labels name the models and settings that differ.
  const columns = (m.variants ?? []).flatMap((v) => [v.label, v.model ?? '']);
  const hay = [
    title,
    m.task.text,
    m.task.id ?? '',
    m.provider.model,
    m.provider.name,
    m.provider.simulated ? 'simulated' : '',
    m.id,
    ...columns,
  ]
    .join('\n')
    .toLowerCase();
  return words.every((w) => hay.includes(w));
}
