/**
 * How a task's answer is read out of its workspace: the rules a task's validator and the simulated model's
 * policies both follow (so the simulated model answers what the validator expects), in a module of their own
 * because the policies are imported by the definitions that use these rules too.
 */

/** Counting rule shared by the validator and the simulated model: a line ends with "\n" (as `wc -l` and
 * Python's splitlines count), a final line without one still counts, and ERROR is matched case-sensitively. */
export function countLog(text: string): { total: number; errors: number } {
  if (text === '') return { total: 0, errors: 0 };
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return { total: lines.length, errors: lines.filter((l) => l.includes('ERROR')).length };
}

/** The lines of a text that contain ERROR (case-sensitive), as the task asks; shared with the simulated model. */
export function errorLines(text: string): string[] {
  return text.split('\n').filter((line) => line.includes('ERROR'));
}

/** The ERROR lines per service of incidents.log: a line counts when its level field is ERROR. */
export function errorsByService(log: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of log.split('\n')) {
    const m = /^\S+\s+ERROR\s+\[([\w-]+)\]/.exec(line);
    if (m) counts.set(m[1], (counts.get(m[1]) ?? 0) + 1);
  }
  return counts;
}

/** Version headings ("## 4.2.0 (2026-11-20)") of a notes file, in file order. */
export function versionsIn(notes: string): string[] {
  return [...notes.matchAll(/^##\s+v?(\d+\.\d+\.\d+)\b/gm)].map((m) => m[1]);
}
