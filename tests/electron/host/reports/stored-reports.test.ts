/**
 * Reports of stored comparisons come out byte for byte as they were recorded (tests/fixtures/reports/stored,
 * written by record-stored.ts from real simulated comparisons: four modes, two trials, a fault, a step limit,
 * a run that never finished, a models × modes comparison of variants). A change to the report code that moves one byte fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { StoredComparison } from '../../../../shared/ipc-contract.js';
import { REPORT_FORMAT_INFO, REPORT_FORMATS } from '../../../../shared/report-formats.js';
import { metricsOn } from '../../../../shared/run-metrics.js';
import { buildReport } from '../../../../electron/host/reports/index.js';

const DIR = fileURLToPath(new URL('../../../fixtures/reports/stored/', import.meta.url));
const NAMES = readdirSync(DIR)
  .filter((f) => f.endsWith('.stored.json'))
  .map((f) => f.slice(0, -'.stored.json'.length))
  .sort();

describe('reports of stored comparisons', () => {
  it('has the recorded cases', () => {
    expect(NAMES).toEqual([
      'four-modes',
      'interrupted',
      'malformed-args',
      'step-limit',
      'two-trials',
      'variants-matrix',
    ]);
  });

  for (const name of NAMES) {
    const stored = JSON.parse(readFileSync(`${DIR}${name}.stored.json`, 'utf8')) as StoredComparison;
    for (const format of REPORT_FORMATS) {
      it(`${name}: ${format} is byte for byte the recorded report`, async () => {
        const built = await buildReport(stored, format);
        expect(built.content).toBe(readFileSync(`${DIR}${name}.${REPORT_FORMAT_INFO[format].extension}`, 'utf8'));
        expect(built.fileName.endsWith(`.${REPORT_FORMAT_INFO[format].extension}`)).toBe(true);
        expect(built.mimeType).toBe(REPORT_FORMAT_INFO[format].mimeType);
      });
    }
  }

  it('shows every report metric under its shared label in the HTML and Markdown reports', async () => {
    const stored = JSON.parse(readFileSync(`${DIR}two-trials.stored.json`, 'utf8')) as StoredComparison;
    const html = (await buildReport(stored, 'html')).content;
    const md = (await buildReport(stored, 'md')).content;
    for (const m of metricsOn('reports')) {
      expect(html, m.key).toContain(`data-metric="${m.key}"`);
      expect(md, m.key).toContain(m.label);
    }
  });
});
