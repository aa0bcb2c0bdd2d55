/** `parallax history`: the stored comparisons, newest first (the same list the app shows). */
import type { Command } from 'commander';
import type { ComparisonListItem } from '../../../shared/ipc-contract.js';
import { MODE_LABELS } from '../../../shared/run-spec.js';
import { resolveDataDir } from '../../host/data-dir.js';
import { HistoryStore } from '../../host/history-store.js';

export function register(program: Command): void {
  program
    .command('history')
    .description('list the stored comparisons, newest first')
    .option('--json', 'print the list as JSON')
    .action((flags: { json?: boolean }) => historyCommand(flags));
}

async function historyCommand(flags: { json?: boolean }): Promise<void> {
  const dataDir = resolveDataDir();
  const store = new HistoryStore(dataDir, (m) => process.stderr.write(`warning: ${m}\n`));
  const items = await store.list();
  if (flags.json) {
    process.stdout.write(JSON.stringify(items, null, 2) + '\n');
    return;
  }
  if (items.length === 0) {
    process.stdout.write(`No comparisons stored in ${dataDir} yet. Run one: parallax compare --task log-stats\n`);
    return;
  }
  process.stdout.write(items.map(describe).join('\n') + `\n\n${items.length} comparison${items.length === 1 ? '' : 's'} in ${dataDir}\n`);
}

function describe(item: ComparisonListItem): string {
  const { meta } = item;
  const when = new Date(meta.createdAt).toISOString().replace('T', ' ').slice(0, 19);
  const model = `${meta.provider.model}${meta.provider.simulated ? ' (simulated)' : ` @ ${meta.provider.name}`}`;
  const task = meta.task.id ?? `"${meta.task.text.length > 40 ? meta.task.text.slice(0, 39) + '…' : meta.task.text}"`;
  const runs = item.runs
    .map((r) => `${MODE_LABELS[r.mode] ?? r.mode}: ${r.status}, ${r.steps} steps, ${r.totalTokens.toLocaleString('en-US')} tokens`)
    .join(' | ');
  return `${meta.id}  ${when} UTC  ${task}  ${model}\n    ${runs}`;
}
