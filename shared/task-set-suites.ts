/**
 * Task sets as suites: a public benchmark carried as built-in tasks (M3ToolEval), run whole or by domain —
 * `m3tooleval`, `m3tooleval:dna_sequencer`, `m3tooleval:dna_sequencer,web_browsing` — in the set's own order,
 * with the modes its paper compares unless others are asked for.
 */
import { M3_DOMAIN_INFO, M3_SET_ID, m3Cards } from './m3tooleval-tasks.js';
import type { ModeId } from './modes.js';
import { PAPER_MODES } from './m3tooleval-paper.js';
import type { Suite } from './suite.js';

export interface TaskSetInfo {
  readonly id: string;
  readonly label: string;
  readonly domains: readonly { readonly id: string; readonly title: string }[];
  /** The modes its paper compares, in the paper's order (the suite's modes when none are asked for). */
  readonly modes: readonly ModeId[];
  /** Every task in the set's order: its built-in id, domain, title and text. */
  tasks(): readonly { readonly id: string; readonly domain: string; readonly title: string; readonly text: string }[];
}

export const TASK_SETS: readonly TaskSetInfo[] = [
  {
    id: M3_SET_ID,
    label: 'M3ToolEval (CodeAct, ICML 2024)',
    domains: M3_DOMAIN_INFO,
    modes: PAPER_MODES,
    tasks: m3Cards,
  },
];

export function taskSetOf(id: string): TaskSetInfo | undefined {
  return TASK_SETS.find((s) => s.id === id);
}

/** Whether a suite argument names a task set (`m3tooleval` or `m3tooleval:<domain>[,<domain>]`). */
export function namesTaskSet(arg: string): boolean {
  return taskSetOf(arg.split(':')[0]) !== undefined;
}

/** The suite a task set argument names; throws an error naming the domains when one is not the set's. */
export function taskSetSuite(arg: string): Suite & { readonly taskSet: string } {
  const [id, list] = arg.split(':', 2);
  const set = taskSetOf(id);
  if (!set) throw new Error(`"${id}" is not a task set; the task sets are ${TASK_SETS.map((s) => s.id).join(', ')}.`);
  const asked =
    list === undefined
      ? null
      : list
          .split(',')
          .map((d) => d.trim())
          .filter(Boolean);
  const unknown = (asked ?? []).filter((d) => !set.domains.some((x) => x.id === d));
  if (asked !== null && (asked.length === 0 || unknown.length > 0)) {
    const what =
      asked.length === 0
        ? 'names no domain'
        : `names ${unknown.map((d) => `"${d}"`).join(', ')}, which ${unknown.length === 1 ? 'is not a domain' : 'are not domains'} of ${set.id}`;
    throw new Error(
      `${arg} ${what}. Its domains: ${set.domains.map((d) => d.id).join(', ')} (e.g. ${set.id}:${set.domains[0].id}, several joined with commas), or ${set.id} for all.`,
    );
  }
  const tasks = set.tasks().filter((t) => asked === null || asked.includes(t.domain));
  return {
    name: asked === null ? set.id : `${set.id}:${asked.join(',')}`,
    taskSet: set.id,
    modes: [...set.modes],
    variants: null,
    trials: null,
    settings: null,
    tasks: tasks.map((t) => ({ kind: 'builtin', id: t.id, text: t.text })),
  };
}

/** The first `limit` tasks of a suite (`--limit`), in its order. */
export function limitSuite<S extends Suite>(suite: S, limit: number | string | undefined): S {
  if (limit === undefined) return suite;
  const n = typeof limit === 'number' ? limit : /^\s*\d+\s*$/.test(limit) ? Number(limit) : NaN;
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`--limit takes a whole number of tasks from 1 up; got "${limit}".`);
  return { ...suite, tasks: suite.tasks.slice(0, n) };
}
