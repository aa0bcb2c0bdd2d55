/**
 * The report formats, one description each: what the export menu, the desktop save dialog, the CLI's
 * `parallax report` and the host's report builder know of a format. Adding a format is one entry here plus
 * its renderer (a file in electron/host/reports/ and one line in the RENDERERS record there, which the
 * compiler refuses to leave out). A format's name as a user types it (an id or another name, any case, or a
 * file's extension) is read here only, for reports, suite reports and diffs alike.
 */

export interface ReportFormatDescription {
  /** The export menu's item and the save dialog's filter name. */
  readonly label: string;
  /** One line under the label in the export menu. */
  readonly hint: string;
  /** The file extension, without the leading dot (it may have inner ones: "otlp.json"). */
  readonly extension: string;
  /** Other extensions `parallax report -o FILE` recognises as this format. */
  readonly otherExtensions: readonly string[];
  /** Other names `parallax report --format` accepts. */
  readonly aliases: readonly string[];
  readonly mimeType: string;
}

export const REPORT_FORMAT_INFO = {
  html: {
    label: 'HTML report',
    hint: 'Self-contained page with charts and timelines',
    extension: 'html',
    otherExtensions: ['htm'],
    aliases: [],
    mimeType: 'text/html; charset=utf-8',
  },
  md: {
    label: 'Markdown',
    hint: 'Summary table and steps, for a write-up',
    extension: 'md',
    otherExtensions: ['markdown'],
    aliases: ['markdown'],
    mimeType: 'text/markdown; charset=utf-8',
  },
  csv: {
    label: 'CSV',
    hint: 'One row per step per run',
    extension: 'csv',
    otherExtensions: [],
    aliases: [],
    mimeType: 'text/csv; charset=utf-8',
  },
  json: {
    label: 'JSON',
    hint: 'Every event, for your own analysis',
    extension: 'json',
    otherExtensions: [],
    aliases: [],
    mimeType: 'application/json',
  },
  otlp: {
    label: 'OpenTelemetry trace',
    hint: 'OTLP/JSON with GenAI spans, for Langfuse, Phoenix and other tracing tools',
    extension: 'otlp.json',
    otherExtensions: [],
    aliases: ['otel', 'opentelemetry'],
    mimeType: 'application/json',
  },
} as const satisfies Record<string, ReportFormatDescription>;

export type ReportFormat = keyof typeof REPORT_FORMAT_INFO;

export const REPORT_FORMATS = Object.keys(REPORT_FORMAT_INFO) as [ReportFormat, ...ReportFormat[]];

/** The formats a suite report comes in (its leaderboard has no per-step rows for CSV or spans for OTLP); the CLI's default first. */
export const SUITE_REPORT_FORMATS = ['md', 'json', 'html'] as const satisfies readonly ReportFormat[];
export type SuiteReportFormat = (typeof SUITE_REPORT_FORMATS)[number];
export const isSuiteReportFormat = (value: unknown): value is SuiteReportFormat =>
  (SUITE_REPORT_FORMATS as readonly unknown[]).includes(value);

/** The formats `parallax diff` writes: plain text for the terminal (its default), and three report formats. */
export const DIFF_FORMATS = ['text', 'md', 'html', 'json'] as const satisfies readonly (ReportFormat | 'text')[];
export type DiffFormat = (typeof DIFF_FORMATS)[number];

export const isReportFormat = (value: unknown): value is ReportFormat =>
  typeof value === 'string' && Object.hasOwn(REPORT_FORMAT_INFO, value);

/** A format's other names and extensions; a format that is no report format (diff's text) has none. */
const namesOf = (f: string): { aliases: readonly string[]; extensions: readonly string[] } =>
  isReportFormat(f)
    ? {
        aliases: REPORT_FORMAT_INFO[f].aliases,
        extensions: [REPORT_FORMAT_INFO[f].extension, ...REPORT_FORMAT_INFO[f].otherExtensions],
      }
    : { aliases: [], extensions: [] };

/** The format a user named among `allowed` (its id or another name, any case), or null. */
export function formatNamed<F extends string>(name: string, allowed: readonly F[]): F | null {
  const n = name.trim().toLowerCase();
  return allowed.find((f) => f === n || namesOf(f).aliases.includes(n)) ?? null;
}

/** The format of a file name's extension among `allowed` (".htm" → html; the longest match wins, so ".otlp.json" → otlp), or null. */
export function formatOfFile<F extends string>(fileName: string, allowed: readonly F[]): F | null {
  const name = fileName.toLowerCase();
  let best: { format: F; length: number } | null = null;
  for (const f of allowed) {
    for (const ext of namesOf(f).extensions) {
      if (name.endsWith(`.${ext}`) && name.length > ext.length + 1 && (!best || ext.length > best.length))
        best = { format: f, length: ext.length };
    }
  }
  return best?.format ?? null;
}

/** `what`: the kind of document ("report", "suite report", "diff"). */
export function unknownFormatMessage(what: string, name: string, allowed: readonly string[]): string {
  return `Unknown ${what} format "${name}". Use one of: ${allowed.join(', ')}.`;
}

export const reportFormatNamed = (name: string): ReportFormat | null => formatNamed(name, REPORT_FORMATS);
export const reportFormatOfFile = (fileName: string): ReportFormat | null => formatOfFile(fileName, REPORT_FORMATS);
export const unknownReportFormatMessage = (name: string): string =>
  unknownFormatMessage('report', name, REPORT_FORMATS);
