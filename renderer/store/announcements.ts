/**
 * What the polite live region says: a comparison started, a run needs approval or failed, the comparison
 * finished. Pure: it compares two snapshots of the open comparison, so tokens streaming in say nothing.
 */

export interface LiveRun {
  readonly runId: string;
  /** The column's label, with the trial when there are several ("ReAct, trial 2"). */
  readonly label: string;
  /** The run's status (store/run-model runStatus); 'running' and 'pending' are live. */
  readonly status: string;
  readonly pendingApprovals: number;
  /** MCP servers' forms waiting for the person (absent: none). */
  readonly pendingForms?: number;
}

export interface LiveSnapshot {
  readonly comparisonId: string | null;
  /** Only a comparison started from this window is announced: one opened from history did not "start". */
  readonly live: boolean;
  readonly runs: readonly LiveRun[];
}

const isLive = (status: string) => status === 'running' || status === 'pending';
const FAILED = new Set(['error', 'crashed', 'max-steps', 'no-policy', 'interrupted', 'refused', 'truncated', 'empty']);

/** The sentences that became true between `prev` and `next`, in the order they should be read. */
export function announcements(
  prev: LiveSnapshot | null,
  next: LiveSnapshot,
  words: (status: string) => string,
): string[] {
  if (!next.live || next.comparisonId === null) return [];
  const out: string[] = [];
  const same = prev !== null && prev.comparisonId === next.comparisonId;
  if (!same) out.push(`Comparison started: ${next.runs.length} run${next.runs.length === 1 ? '' : 's'}.`);
  const before = new Map((same ? prev.runs : []).map((r) => [r.runId, r]));
  for (const r of next.runs) {
    const was = before.get(r.runId);
    if (r.pendingApprovals > 0 && (was?.pendingApprovals ?? 0) === 0 && isLive(r.status))
      out.push(`${r.label} needs your approval to go on.`);
    if ((r.pendingForms ?? 0) > 0 && (was?.pendingForms ?? 0) === 0 && isLive(r.status))
      out.push(`${r.label}: an MCP server asks you to fill in a form.`);
    if (!isLive(r.status) && (was === undefined ? same : isLive(was.status)) && FAILED.has(r.status))
      out.push(`${r.label} failed: ${words(r.status)}.`);
  }
  const ended = (s: LiveSnapshot | null) => s !== null && s.runs.length > 0 && s.runs.every((r) => !isLive(r.status));
  if (ended(next) && !(same && ended(prev))) {
    const answered = next.runs.filter((r) => r.status === 'answered').length;
    const failed = next.runs.filter((r) => FAILED.has(r.status)).length;
    const cancelled = next.runs.filter((r) => r.status === 'cancelled').length;
    const parts = [
      `${answered} answered`,
      failed ? `${failed} failed` : '',
      cancelled ? `${cancelled} cancelled` : '',
    ].filter(Boolean);
    out.push(`Comparison finished: ${parts.join(', ')}.`);
  }
  return out;
}
