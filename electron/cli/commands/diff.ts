/** `parallax diff`: a stored comparison against an earlier one of the same task (its baseline), column by column. */
import type { Command } from 'commander';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { resolveDataDir } from '../../host/data-dir.js';
import { cliHistory } from '../history-access.js';
import { sayDocument, warn } from '../terminal.js';

interface DiffFlags {
  json?: boolean;
  format?: string;
  output?: string;
}

const FORMATS = ['text', 'md', 'html', 'json'] as const;

export function register(program: Command): void {
  program
    .command('diff')
    .description('what changed from a baseline comparison to a later one of the same task: tokens, cost, steps, pass rate and wall time per column, with intervals over trials and regressions flagged only when the evidence holds')
    .argument('<baseline>', 'the earlier comparison: an id (see `parallax history`) or a unique prefix of one')
    .argument('<comparison>', 'the later comparison: an id, a unique prefix, or "latest"')
    .option('--json', 'print the diff as one JSON object')
    .option('-f, --format <format>', `${FORMATS.join(' | ')} (default: text; from the -o file's extension)`)
    .option('-o, --output <file>', 'write the diff to this file instead of stdout')
    .action((baseline: string, comparison: string, flags: DiffFlags) => diffCommand(baseline, comparison, flags));
}

function formatOf(flags: DiffFlags): (typeof FORMATS)[number] {
  if (flags.json) return 'json';
  const wanted = flags.format ?? (flags.output ? /\.(md|html|json)$/i.exec(flags.output)?.[1]?.toLowerCase() : undefined) ?? 'text';
  const named = wanted === 'markdown' ? 'md' : wanted;
  if (!(FORMATS as readonly string[]).includes(named)) throw new Error(`Unknown diff format "${wanted}". Use one of: ${FORMATS.join(', ')}.`);
  return named as (typeof FORMATS)[number];
}

async function diffCommand(wantedBase: string, wanted: string, flags: DiffFlags): Promise<void> {
  const format = formatOf(flags);
  const [store, { resolveId }, reports] = await Promise.all([
    cliHistory(resolveDataDir(), (m) => warn(`parallax diff: ${m}`), (line) => warn(line)), import('./report.js'), import('../../host/reports/diff-report.js'),
  ]);
  const [baseId, id] = await Promise.all([resolveId(store, wantedBase), resolveId(store, wanted)]);
  if (baseId === id) throw new Error(`The baseline and the comparison are the same comparison (${id}). Give an earlier comparison of the same task as the baseline.`);
  const [base, stored] = await Promise.all([store.open(baseId), store.open(id)]);
  for (const w of [...base.warnings, ...stored.warnings]) warn(`parallax diff: note: ${w}`);
  const diff = reports.diffStored(base, stored);
  const content = format === 'json' ? `${JSON.stringify(diff, null, 2)}\n` : format === 'md' ? reports.diffMarkdown(diff) : format === 'html' ? reports.diffHtml(diff) : reports.diffText(diff);
  if (flags.output) {
    const path = resolve(flags.output);
    await writeFile(path, content);
    warn(`Wrote the ${format} diff of ${id} against ${baseId} to ${path}.`);
  } else {
    await sayDocument(content);
  }
}
