/** `parallax diff`: a stored comparison against an earlier one of the same task (its baseline), column by column. */
import type { Command } from 'commander';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  DIFF_FORMATS,
  formatNamed,
  formatOfFile,
  unknownFormatMessage,
  type DiffFormat,
} from '../../../shared/report-formats.js';
import { resolveDataDir } from '../../host/data-dir.js';
import { cliHistory } from '../history-access.js';
import { sayDocument, warn } from '../terminal.js';

interface DiffFlags {
  json?: boolean;
  format?: string;
  output?: string;
}

export function register(program: Command): void {
  program
    .command('diff')
    .description(
      'what changed from a baseline comparison to a later one of the same task: tokens, cost, steps, pass rate and wall time per column, with intervals over trials and regressions flagged only when the evidence holds',
    )
    .argument('<baseline>', 'the earlier comparison: an id (see `parallax history`) or a unique prefix of one')
    .argument('<comparison>', 'the later comparison: an id, a unique prefix, or "latest"')
    .option('--json', 'print the diff as one JSON object')
    .option('-f, --format <format>', `${DIFF_FORMATS.join(' | ')} (default: text; from the -o file's extension)`)
    .option('-o, --output <file>', 'write the diff to this file instead of stdout')
    .action((baseline: string, comparison: string, flags: DiffFlags) => diffCommand(baseline, comparison, flags));
}

function formatOf(flags: DiffFlags): DiffFormat {
  if (flags.json) return 'json';
  if (flags.format === undefined) return (flags.output && formatOfFile(flags.output, DIFF_FORMATS)) || 'text';
  const named = formatNamed(flags.format, DIFF_FORMATS);
  if (!named) throw new Error(unknownFormatMessage('diff', flags.format, DIFF_FORMATS));
  return named;
}

async function diffCommand(wantedBase: string, wanted: string, flags: DiffFlags): Promise<void> {
  const format = formatOf(flags);
  const [store, { resolveId }, reports] = await Promise.all([
    cliHistory(
      resolveDataDir(),
      (m) => warn(`parallax diff: ${m}`),
      (line) => warn(line),
    ),
    import('./report.js'),
    import('../../host/reports/diff-report.js'),
  ]);
  const [baseId, id] = await Promise.all([resolveId(store, wantedBase), resolveId(store, wanted)]);
  if (baseId === id)
    throw new Error(
      `The baseline and the comparison are the same comparison (${id}). Give an earlier comparison of the same task as the baseline.`,
    );
  const [base, stored] = await Promise.all([store.open(baseId), store.open(id)]);
  for (const w of [...base.warnings, ...stored.warnings]) warn(`parallax diff: note: ${w}`);
  const diff = reports.diffStored(base, stored);
  const content = reports.DIFF_RENDERERS[format](diff);
  if (flags.output) {
    const path = resolve(flags.output);
    await writeFile(path, content);
    warn(`Wrote the ${format} diff of ${id} against ${baseId} to ${path}.`);
  } else {
    await sayDocument(content);
  }
}
