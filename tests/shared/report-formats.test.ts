/** The report formats' one description: names, aliases and file extensions resolve to the right format. */
import { describe, expect, it } from 'vitest';
import {
  DIFF_FORMATS,
  formatNamed,
  formatOfFile,
  isReportFormat,
  isSuiteReportFormat,
  REPORT_FORMAT_INFO,
  REPORT_FORMATS,
  reportFormatNamed,
  reportFormatOfFile,
  SUITE_REPORT_FORMATS,
  unknownFormatMessage,
  unknownReportFormatMessage,
} from '../../shared/report-formats.js';

describe('report formats', () => {
  it('finds every format by its id, in any case, and by its file extension', () => {
    for (const f of REPORT_FORMATS) {
      expect(reportFormatNamed(f.toUpperCase())).toBe(f);
      expect(reportFormatOfFile(`out/report.${REPORT_FORMAT_INFO[f].extension}`)).toBe(f);
      expect(REPORT_FORMAT_INFO[f].mimeType).toMatch(/^[a-z]+\/[a-z]+/);
    }
    expect(new Set(REPORT_FORMATS.map((f) => REPORT_FORMAT_INFO[f].extension)).size).toBe(REPORT_FORMATS.length);
  });

  it('knows the other names and extensions, and nothing else', () => {
    expect(reportFormatNamed('markdown')).toBe('md');
    expect(reportFormatOfFile('a.HTM')).toBe('html');
    expect(reportFormatOfFile('notes.markdown')).toBe('md');
    expect(reportFormatNamed('pdf')).toBeNull();
    expect(reportFormatOfFile('report.pdf')).toBeNull();
    expect(reportFormatOfFile('html')).toBeNull();
    // The longest extension wins: a trace is not taken for the JSON report, nor a bare ".otlp.json" for either.
    expect(reportFormatOfFile('run.OTLP.json')).toBe('otlp');
    expect(reportFormatOfFile('run.json')).toBe('json');
    expect(reportFormatNamed('opentelemetry')).toBe('otlp');
    expect(isReportFormat('constructor')).toBe(false);
    expect(unknownReportFormatMessage('pdf')).toBe(
      'Unknown report format "pdf". Use one of: html, md, csv, json, otlp.',
    );
  });
});

describe("a format named among a command's own", () => {
  it('reads the same other names and extensions for suite reports and diffs, and only their formats', () => {
    expect(formatNamed('Markdown', SUITE_REPORT_FORMATS)).toBe('md');
    expect(formatNamed('csv', SUITE_REPORT_FORMATS)).toBeNull();
    expect(formatNamed('TEXT', DIFF_FORMATS)).toBe('text');
    expect(formatNamed('otel', DIFF_FORMATS)).toBeNull();
    // Among the diff's formats a trace file is plain JSON, and text has no extension of its own.
    expect(formatOfFile('d.otlp.json', DIFF_FORMATS)).toBe('json');
    expect(formatOfFile('d.htm', DIFF_FORMATS)).toBe('html');
    expect(formatOfFile('d.txt', DIFF_FORMATS)).toBeNull();
    expect(isSuiteReportFormat('json')).toBe(true);
    expect(isSuiteReportFormat('otlp')).toBe(false);
    expect(unknownFormatMessage('suite report', 'pdf', SUITE_REPORT_FORMATS)).toBe(
      'Unknown suite report format "pdf". Use one of: md, json, html.',
    );
  });
});
