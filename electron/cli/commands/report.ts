/** `parallax report`: a comparison report from history, written to a file or stdout. Nothing is re-run. */
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import {
  REPORT_FORMAT_INFO,
  REPORT_FORMATS,
  reportFormatNamed,
  reportFormatOfFile,
  unknownReportFormatMessage,
  type ReportFormat,
} from '../../../shared/report-formats.js';
import { resolveDataDir } from '../../host/data-dir.js';
import type { HistoryStore } from '../../host/history-store.js';
import { cliHistory } from '../history-access.js';
import { addOtlpOptions, otlpTargetOf, sendToOtlp, type OtlpFlags } from '../otlp-options.js';
import { sayDocument, warn } from '../terminal.js';

interface ReportFlags extends OtlpFlags {
  format?: string;
  output?: string;
}

export function register(program: Command): void {
  const cmd = program
    .command('report')
    .description(
      'write a report of a stored comparison (no re-run): self-contained HTML, Markdown, CSV, JSON or an OpenTelemetry trace (otlp); or send the trace with --otlp-endpoint',
    )
    .argument(
      '<comparison>',
      'a comparison id (see `parallax history`), a unique prefix of one, or "latest" (the one `parallax history` lists first; see `parallax history --help` for when a hand edit is seen)',
    )
    .option('-f, --format <format>', `${REPORT_FORMATS.join(' | ')} (default: from the -o file's extension, else html)`)
    .option('-o, --output <file>', 'write the report to this file instead of stdout');
  addOtlpOptions(cmd).action((comparison: string, flags: ReportFlags) => reportCommand(comparison, flags));
}

function pickFormat(flags: ReportFlags): ReportFormat {
  if (flags.format !== undefined) {
    const named = reportFormatNamed(flags.format);
    if (!named) throw new Error(unknownReportFormatMessage(flags.format));
    return named;
  }
  if (flags.output) {
    const byName = reportFormatOfFile(flags.output);
    if (byName) return byName;
    // A file named .pdf (or any extension no format has) would get HTML under a name that promises something else.
    if (extname(basename(flags.output)) !== '') throw new Error(unwritableExtensionMessage(flags.output));
  }
  return 'html';
}

/** Why `-o` names a file this command cannot write, and the names it can. */
function unwritableExtensionMessage(file: string): string {
  const kinds = REPORT_FORMATS.map((f) => `.${REPORT_FORMAT_INFO[f].extension} (${f})`).join(', ');
  return `Cannot write a "${extname(basename(file))}" file: a report is one of ${kinds}. Name the file with one of these extensions, e.g. \`-o report.html\`, or give the format with --format.`;
}

/** Printing a whole HTML document into a terminal floods it; a pipe or a file still gets it. */
function terminalRefusal(format: ReportFormat, id: string, bytes: number): string {
  return `Not printing the ${Math.round(bytes / 1024)} KB ${format} report of comparison ${id} to the terminal. Write it to a file: \`parallax report ${id} -o report.html\`; or print a text format: \`--format md\`; or pipe it: \`parallax report ${id} | less\`.`;
}

/** The comparison id the user meant: an exact id, "latest", or a prefix matching exactly one id. */
export async function resolveId(store: HistoryStore, wanted: string): Promise<string> {
  const seeIds = 'Run `parallax history` to see the stored comparisons and their ids, or use "latest".';
  if (wanted === 'latest') {
    const { meta: newest, damaged } = await store.newest();
    // A damaged comparison cannot be reported; it never hides the readable ones, but the user hears of it.
    for (const d of damaged) {
      if (!newest || d.modifiedAt > newest.createdAt)
        warn(`parallax report: skipped damaged comparison ${d.id}: ${d.reason}.`);
    }
    if (!newest)
      throw new Error(
        `There is no ${damaged.length ? 'readable ' : ''}comparison in the history at ${store.root} yet. Run one first: \`parallax compare --task log-stats\`.`,
      );
    return newest.id;
  }
  if (/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(wanted) && existsSync(join(store.root, wanted, 'meta.json'))) return wanted;
  const names = await readdir(store.root).catch(() => [] as string[]);
  const matches = names.filter((n) => n.startsWith(wanted) && existsSync(join(store.root, n, 'meta.json')));
  if (matches.length === 1) return matches[0];
  if (matches.length > 1)
    throw new Error(
      `"${wanted}" matches ${matches.length} comparisons (${matches.slice(0, 5).join(', ')}${matches.length > 5 ? ', …' : ''}). Give more of the id. ${seeIds}`,
    );
  throw new Error(`No comparison "${wanted}" in the history at ${store.root}. ${seeIds}`);
}

async function reportCommand(wanted: string, flags: ReportFlags): Promise<void> {
  const format = pickFormat(flags);
  const otlp = otlpTargetOf(flags);
  const [store, { buildReport }] = await Promise.all([
    cliHistory(
      resolveDataDir(),
      (m) => warn(`parallax report: ${m}`),
      (line) => warn(line),
    ),
    import('../../host/reports/index.js'),
  ]);
  const id = await resolveId(store, wanted);
  const stored = await store.open(id);
  for (const w of stored.warnings) warn(`parallax report: note: ${w}`);
  // Sending is the whole job unless a file or a format was asked for too.
  if (otlp) {
    await sendToOtlp(stored, otlp);
    if (!flags.output && flags.format === undefined) return;
  }
  const report = await buildReport(stored, format);
  if (flags.output) {
    const path = resolve(flags.output);
    await writeFile(path, report.content);
    warn(`Wrote the ${format} report of comparison ${id} to ${path} (${Buffer.byteLength(report.content)} bytes).`);
  } else if (process.stdout.isTTY && flags.format === undefined) {
    throw new Error(terminalRefusal(format, id, Buffer.byteLength(report.content)));
  } else {
    await sayDocument(report.content);
  }
}
