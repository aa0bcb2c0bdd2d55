/** The report formats' one description: names, aliases and file extensions resolve to the right format. */
import { describe, expect, it } from 'vitest';
import { isReportFormat, REPORT_FORMAT_INFO, REPORT_FORMATS, reportFormatNamed, reportFormatOfFile, unknownReportFormatMessage } from '../../shared/report-formats.js';

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
    expect(unknownReportFormatMessage('pdf')).toBe('Unknown report format "pdf". Use one of: html, md, csv, json, otlp.');
  });
});
