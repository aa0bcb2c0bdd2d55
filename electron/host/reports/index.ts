/**
 * Comparison reports from stored events, without re-running anything: self-contained HTML, Markdown, CSV
 * and JSON. Deterministic: the same stored comparison always gives the same bytes, unless a generation
 * time is passed in.
 */
import type { StoredComparison } from '../../../shared/ipc-contract.js';
import type { StepEvent } from '../../../shared/step-event.js';
import {
  isReportFormat,
  REPORT_FORMAT_INFO,
  unknownReportFormatMessage,
  type ReportFormat,
} from '../../../shared/report-formats.js';
import { reportFileName } from './report-text.js';
import { prepareReport, type ReportData } from './report-data.js';

export interface BuiltReport {
  readonly fileName: string;
  readonly mimeType: string;
  readonly content: string;
}

export interface BuildReportOptions {
  /** When given, the HTML and Markdown reports say when they were made; omitted, output is reproducible. */
  readonly generatedAt?: Date;
}

type Renderer = (data: ReportData, events: readonly StepEvent[], generatedAt: Date | undefined) => string;

/**
 * One renderer per format (shared/report-formats.ts describes them): the compiler refuses a format left out.
 * Each is loaded when first asked for: together they (markdown-it, diff, papaparse, the HTML charts) were most of
 * what `parallax report` spent before reading anything.
 */
const RENDERERS: Record<ReportFormat, () => Promise<Renderer>> = {
  html: async () => {
    const { renderHtml } = await import('./html-report.js');
    return (data, _events, at) => renderHtml(data, at);
  },
  md: async () => {
    const { renderMarkdown } = await import('./markdown-report.js');
    return (data, _events, at) => renderMarkdown(data, at);
  },
  csv: async () => {
    const { renderCsv } = await import('./csv-report.js');
    return (data) => renderCsv(data);
  },
  json: async () => {
    const { renderJson } = await import('./json-report.js');
    return (data, events) => renderJson(data, events);
  },
  otlp: async () => {
    const { renderOtlp } = await import('./otlp-report.js');
    return (data) => renderOtlp(data);
  },
};

export async function buildReport(
  stored: StoredComparison,
  format: ReportFormat,
  opts: BuildReportOptions = {},
): Promise<BuiltReport> {
  if (!isReportFormat(format)) throw new Error(unknownReportFormatMessage(String(format)));
  const info = REPORT_FORMAT_INFO[format];
  const render = await RENDERERS[format]();
  const content = render(prepareReport(stored), stored.events, opts.generatedAt);
  return { fileName: reportFileName(stored.meta, info.extension), mimeType: info.mimeType, content };
}

export {
  loadReportJson,
  ReportFileError,
  REPORT_SCHEMA,
  REPORT_VERSION,
  type ComparisonReportJson,
} from './json-report.js';
export { summarizeStored } from './report-data.js';
export { escapeHtml } from './html-escape.js';
