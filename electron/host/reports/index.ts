/**
 * Comparison reports from stored events, without re-running anything: self-contained HTML, Markdown, CSV
 * and JSON. Deterministic: the same stored comparison always gives the same bytes, unless a generation
 * time is passed in.
 */
import type { ReportFormat, StoredComparison } from '../../../shared/ipc-contract.js';
import { reportFileName } from './format.js';
import { renderCsv } from './csv-report.js';
import { renderHtml } from './html-report.js';
import { renderJson } from './json-report.js';
import { renderMarkdown } from './markdown-report.js';
import { prepareReport } from './report-data.js';

export interface BuiltReport {
  readonly fileName: string;
  readonly mimeType: string;
  readonly content: string;
}

export interface BuildReportOptions {
  /** When given, the HTML and Markdown reports say when they were made; omitted, output is reproducible. */
  readonly generatedAt?: Date;
}

const FORMATS: Record<ReportFormat, { ext: string; mimeType: string }> = {
  html: { ext: 'html', mimeType: 'text/html; charset=utf-8' },
  md: { ext: 'md', mimeType: 'text/markdown; charset=utf-8' },
  csv: { ext: 'csv', mimeType: 'text/csv; charset=utf-8' },
  json: { ext: 'json', mimeType: 'application/json' },
};

export function buildReport(stored: StoredComparison, format: ReportFormat, opts: BuildReportOptions = {}): BuiltReport {
  const f = FORMATS[format];
  if (!f) throw new Error(`Unknown report format "${String(format)}". Use one of: ${Object.keys(FORMATS).join(', ')}.`);
  const data = prepareReport(stored);
  const content =
    format === 'html' ? renderHtml(data, opts.generatedAt)
    : format === 'md' ? renderMarkdown(data, opts.generatedAt)
    : format === 'csv' ? renderCsv(data)
    : renderJson(data, stored.events);
  return { fileName: reportFileName(stored.meta, f.ext), mimeType: f.mimeType, content };
}

export { loadReportJson, ReportFileError, REPORT_SCHEMA, REPORT_VERSION, type ComparisonReportJson } from './json-report.js';
export { summarizeStored } from './report-data.js';
export { escapeHtml } from './html-escape.js';
export { CSV_COLUMNS } from './csv-report.js';
