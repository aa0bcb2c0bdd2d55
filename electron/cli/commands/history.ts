/** `parallax history`: the stored comparisons, newest first (the same list the app shows). */
import type { Command } from 'commander';
import type { ComparisonListItem } from '../../../shared/ipc-contract.js';
import { formatInt as int, formatMean } from '../../../shared/number-format.js';
import { MODE_LABELS } from '../../../shared/modes.js';
import { resolveDataDir } from '../../host/data-dir.js';
import { cliHistory } from '../history-access.js';
import { say, sayJson, warn } from '../terminal.js';

export function register(program: Command): void {
  program
    .command('history')
    .description('list the stored comparisons, newest first')
    .option('--json', 'print the list as JSON (every comparison unless --limit is given)')
    .option('-n, --limit <count>', `show the newest <count> comparisons (default ${DEFAULT_LIMIT}; --json: all)`)
    .option('--all', 'show every comparison')
    .option(
      '--refresh',
      "look at every comparison's meta.json for edits made by hand first (one file check each; see below)",
    )
    .addHelpText(
      'after',
      `
Seen at once: a comparison added or removed, one damaged or mended; each comparison shown is read as it is
now. A date edited by hand in another comparison's meta.json reorders this list, and changes the comparison
\`parallax report latest\` names (always this list's first), at the next thorough read: --refresh, or a
comparison added or removed. (Looking at every comparison on each call would cost one file check each.)`,
    )
    .action((flags: HistoryFlags) => historyCommand(flags));
}

interface HistoryFlags {
  json?: boolean;
  limit?: string;
  all?: boolean;
  refresh?: boolean;
}

const DEFAULT_LIMIT = 30;

function limitOf(flags: HistoryFlags): number {
  if (flags.all) return Infinity;
  if (flags.limit === undefined) return flags.json ? Infinity : DEFAULT_LIMIT;
  const n = Number(flags.limit);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(
      `--limit takes a whole number of comparisons (1 or more), not "${flags.limit}". Use --all for every one.`,
    );
  return n;
}

async function historyCommand(flags: HistoryFlags): Promise<void> {
  const limit = limitOf(flags);
  const dataDir = resolveDataDir();
  // The list as it is now; a date edited by hand since the last thorough read reorders it at the next (history-access.ts).
  const store = await cliHistory(
    dataDir,
    (m) => warn(`warning: ${m}`),
    (line) => warn(line),
  );
  if (flags.refresh) await store.reconcile();
  const { items, damaged, total } = await store.scan(() => false, limit);
  if (flags.json) {
    // The list stays an array of comparisons; damaged ones are reported beside it, on stderr.
    for (const d of damaged) warn(`damaged: ${d.id}: ${d.reason}`);
    sayJson(items);
    return;
  }
  if (items.length === 0 && damaged.length === 0) {
    say(`No comparisons stored in ${dataDir} yet. Run one: parallax compare --task log-stats`);
    return;
  }
  const lines = items.map(describe);
  for (const d of damaged) {
    lines.push(
      `${d.id}  DAMAGED: ${d.reason}.\n    It cannot be opened; remove it with: rm -r ${JSON.stringify(store.dir(d.id))}`,
    );
  }
  const counts = `${total} comparison${total === 1 ? '' : 's'}${damaged.length ? ` and ${damaged.length} damaged` : ''}`;
  const shown = items.length < total ? ` (the newest ${items.length} shown; --limit N or --all for more)` : '';
  say(lines.join('\n') + `\n\n${counts} in ${dataDir}${shown}`);
}

type ListedRun = ComparisonListItem['runs'][number];

function describe(item: ComparisonListItem): string {
  const { meta } = item;
  const when = new Date(meta.createdAt).toISOString().replace('T', ' ').slice(0, 19);
  const model = `${meta.provider.model}${meta.provider.simulated ? ' (simulated)' : ` @ ${meta.provider.name}`}`;
  const task = meta.task.id ?? `"${meta.task.text.length > 40 ? meta.task.text.slice(0, 39) + '…' : meta.task.text}"`;
  const trials = Math.max(1, ...meta.runs.map((r) => r.trial ?? 1));
  // Each run's column: a variant's label (meta.json), else its mode's.
  const column = (r: ListedRun) => {
    const key = meta.runs.find((m) => m.runId === r.runId)?.variant;
    return meta.variants?.find((v) => v.key === key)?.label ?? MODE_LABELS[r.mode] ?? r.mode;
  };
  if (trials === 1) {
    const runs = item.runs
      .map(
        (r) =>
          `${column(r)}: ${r.status}, ${r.steps} steps, ${r.usageSource === 'estimated' || r.usageSource === 'mixed' ? '≈ ' : ''}${int(r.totalTokens)} tokens`,
      )
      .join(' | ');
    return `${meta.id}  ${when} UTC  ${task}  ${model}\n    ${runs}${damage(item)}`;
  }
  const byColumn = new Map<string, ListedRun[]>();
  for (const r of item.runs) byColumn.set(column(r), [...(byColumn.get(column(r)) ?? []), r]);
  const modes = [...byColumn].map(([label, runs]) => `${label} ×${runs.length}: ${modeLine(runs)}`);
  return `${meta.id}  ${when} UTC  ${task}  ${model}  ×${trials} trials\n${modes.map((m) => `    ${m}`).join('\n')}${damage(item)}`;
}

/** The damage found in a comparison's run logs, under it: its other events are still shown. */
function damage(item: ComparisonListItem): string {
  if (!item.problems?.length) return '';
  return `\n    DAMAGED (damaged lines were skipped): ${item.problems.join(' ')}`;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Statuses counted, then the means over answered runs (as the comparison's averages are). */
function modeLine(runs: readonly ListedRun[]): string {
  const counts = new Map<string, number>();
  for (const r of runs) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  const statuses = [...counts].map(([status, n]) => `${n} ${status}`).join(', ');
  const answered = runs.filter((r) => r.status === 'answered');
  if (answered.length === 0) return statuses;
  return `${statuses} · mean ${formatMean(mean(answered.map((r) => r.steps)))} steps, ${formatMean(mean(answered.map((r) => r.totalTokens)))} tokens`;
}
